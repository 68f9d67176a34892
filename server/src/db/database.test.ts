import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it } from 'vitest';

import { openDatabase } from './database.js';

const dir = mkdtempSync(join(tmpdir(), 'portal-data-folder-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// vite-node (vitest's own runner) runs the TypeScript source in a process of its own.
const viteNode = join(
  dirname(createRequire(createRequire(import.meta.url).resolve('vitest')).resolve('vite-node/package.json')),
  'vite-node.mjs',
);

/** Opens the embedded database on `dataDir` in another Node.js process; returns its exit code and output. */
async function openInAnotherProcess(
  dataDir: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const script = join(dir, 'open.ts');
  writeFileSync(
    script,
    `import { openDatabase } from ${JSON.stringify(fileURLToPath(new URL('./database.ts', import.meta.url)))};
     try {
       const db = await openDatabase({ kind: 'pglite', dataDir: ${JSON.stringify(dataDir)} });
       console.log('opened', (await db.query('select 1 as one'))[0].one);
       await db.close();
     } catch (error) {
       console.error(error.message);
       process.exit(3);
     }`,
  );
  // Not spawnSync: this process must go on renewing its own lock meanwhile.
  const child = spawn(process.execPath, [viteNode, script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, stdout, stderr };
}

describe('the data folder of the embedded database', () => {
  // One folder for the three: PGlite makes a new folder's cluster in about 10 s.
  const dataDir = join(dir, 'pglite');

  it('refuses a second portal process on the same folder, naming the folder, and frees it on close', async () => {
    const first = await openDatabase({ kind: 'pglite', dataDir });
    let second;
    try {
      second = await openInAnotherProcess(dataDir);
    } finally {
      await first.close();
    }
    expect(second.status).toBe(3);
    expect(second.stderr).toContain(`the data folder ${dataDir} is in use by another portal`);
    expect(second.stderr).toContain('DATA_DIR');

    const afterClose = await openInAnotherProcess(dataDir);
    expect(afterClose).toMatchObject({ status: 0, stdout: expect.stringContaining('opened 1') });
  }, 300_000);

  it('takes over a lock that a killed portal left, once it is stale', async () => {
    mkdirSync(dataDir, { recursive: true });
    mkdirSync(`${dataDir}.lock`);
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(`${dataDir}.lock`, longAgo, longAgo);
    const db = await openDatabase({ kind: 'pglite', dataDir });
    await db.close();
  }, 180_000);

  it('refuses a second opening in the same process too', async () => {
    const first = await openDatabase({ kind: 'pglite', dataDir });
    try {
      await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow(
        `the data folder ${dataDir} is in use by another portal`,
      );
    } finally {
      await first.close();
    }
    const again = await openDatabase({ kind: 'pglite', dataDir });
    await again.close();
  }, 180_000);
});
