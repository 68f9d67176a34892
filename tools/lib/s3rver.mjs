// Starts s3rver (from npm) on loopback and a free port: a server of the S3 API for the tests
// and the deployment checks, keeping its objects in a throw-away folder. Never used by `npm start`.
// It runs in a process of its own with OpenSSL's legacy provider: s3rver makes the
// continuation token of a listing longer than a page (1,000 keys, a site release's blobs)
// with DES, which Node.js's OpenSSL 3 refuses without it (every such listing answered 500).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from './ports.mjs';
import { answers, startProcess } from './process.mjs';

/** The credentials s3rver accepts for signed requests. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

const cli = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');

/** Starts s3rver with the bucket `bucket`; `stop()` ends it and deletes its objects. */
export async function startS3rver({ bucket = 'site-releases' } = {}) {
  const directory = mkdtempSync(join(tmpdir(), 'portal-s3rver-'));
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const server = startProcess(
    process.execPath,
    [
      '--openssl-legacy-provider',
      cli,
      '--directory',
      directory,
      '--address',
      '127.0.0.1',
      '--port',
      String(port),
      '--silent',
      '--configure-bucket',
      bucket,
    ],
    { name: `s3rver on port ${port}`, stdout: 'collect', stderr: 'collect' },
  );
  try {
    // Any answer (s3rver refuses an unsigned listing) means it listens.
    await server.waitUntil(
      answers(`${endpoint}/`, () => true),
      { timeoutMs: 30_000 },
    );
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    endpoint,
    bucket,
    directory,
    stop: async () => {
      await server.stop();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
