// Starts s3rver (from npm) on loopback and a free port: a server of the S3 API for the tests
// and the deployment checks, keeping its objects in a throw-away folder. Never used by `npm start`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import S3rver from 's3rver';

/** The credentials s3rver accepts for signed requests. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** Starts s3rver with the bucket `bucket`; `stop()` ends it and deletes its objects. */
export async function startS3rver({ bucket = 'site-releases' } = {}) {
  const directory = mkdtempSync(join(tmpdir(), 'portal-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    directory,
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
