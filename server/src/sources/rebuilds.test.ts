// The rebuild queue's commands, run for real with stand-in scripts: their time limit (the
// whole process group stopped), the environment they get, the user they run as, and the
// rebuild that built nothing.
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { UNCHANGED_EXIT_CODE as SCRIPT_UNCHANGED } from '../../../scripts/rebuild.mjs';
import { buildEnvironment } from './build-env.js';
import { buildUserOf, type BuildUser } from './build-user.js';
import { BuildRunner, UNCHANGED_EXIT_CODE } from './rebuilds.js';

const quiet = { info: () => undefined, error: () => undefined };

/** A folder every user may read, holding `script` as run.mjs; and its path. */
async function standIn(script: string): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-rebuild-command-'));
  await chmod(dir, 0o777);
  const file = join(dir, 'run.mjs');
  await writeFile(file, script);
  await chmod(file, 0o644);
  return { dir, file };
}

/** Runs `script` as the rebuild command once; what came of the build and how often it was served. */
async function rebuildWith(
  script: string,
  options: { timeoutMs?: number; env?: Record<string, string>; user?: BuildUser | null } = {},
): Promise<{ job: { state: string; error: string | null }; served: number; dir: string }> {
  const { dir, file } = await standIn(script);
  let served = 0;
  const runner = new BuildRunner({
    command: `${process.execPath} ${file}`,
    archiveCommand: null,
    cwd: dir,
    env: options.env ?? {},
    user: options.user ?? null,
    timeoutMs: options.timeoutMs ?? 60_000,
    serve: async () => {
      served += 1;
      return 'replaced';
    },
    log: quiet,
  });
  const job = await runner.build({ id: 'a-test-job', source: 'nav' }).then(
    (state) => ({ state, error: null }),
    (error: unknown) => ({ state: 'failed', error: (error as Error).message }),
  );
  return { job, served, dir };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a rebuild command', () => {
  it('is stopped with every process it started once past its time limit, and the build is not served', async () => {
    const { job, served, dir } = await rebuildWith(
      `import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
const worker = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
writeFileSync('worker.pid', String(worker.pid));
console.log('building…');
setInterval(() => {}, 1000);
`,
      { timeoutMs: 1000 },
    );
    expect(job.state).toBe('failed');
    expect(job.error).toMatch(
      /building…\n\(stopped after 1 second, the limit SOURCES_REBUILD_TIMEOUT_MINUTES sets; nothing of it is served\)$/,
    );
    expect(served).toBe(0);
    const worker = Number(await readFile(join(dir, 'worker.pid'), 'utf8'));
    await expect.poll(() => alive(worker), { timeout: 7000 }).toBe(false);
  });

  it('gets the environment it is given and nothing of the gate’s', async () => {
    const gate = {
      PATH: process.env.PATH ?? '/usr/bin',
      HOME: '/home/gate',
      NODE_ENV: 'production',
      SITE_URL: 'https://docs.norigin.example',
      NPM_TOKEN: 'a-registry-token',
      SESSION_SECRET: 'the-session-secret-of-the-gate-itself',
      SOURCES_HOOK_SECRET: 'the-hook-secret-of-the-gate',
      DATABASE_URL: 'postgres://portal:password@db.internal/portal',
      REDIS_URL: 'redis://redis.internal:6379',
      SMTP_URL: 'smtp://user:password@mail.internal:587',
      FIREBASE_SERVICE_ACCOUNT: '{"private_key":"-----BEGIN PRIVATE KEY-----"}',
      GOOGLE_APPLICATION_CREDENTIALS: '/secrets/key.json',
      METRICS_TOKEN: 'a-metrics-token-of-the-gate',
    };
    const env = buildEnvironment(gate, ['NPM_TOKEN'], '/portal/.cache/sources');
    const { job, dir } = await rebuildWith(
      `import { writeFileSync } from 'node:fs';\nwriteFileSync('env.json', JSON.stringify(process.env));\n`,
      { env },
    );
    expect(job.state).toBe('served');
    const seen = JSON.parse(await readFile(join(dir, 'env.json'), 'utf8')) as Record<string, string>;
    expect(seen).toMatchObject({
      HOME: '/home/gate',
      NODE_ENV: 'production',
      SITE_URL: 'https://docs.norigin.example',
      NPM_TOKEN: 'a-registry-token',
      PORTAL_SOURCES_CACHE: '/portal/.cache/sources',
    });
    for (const secret of [
      'SESSION_SECRET',
      'SOURCES_HOOK_SECRET',
      'DATABASE_URL',
      'REDIS_URL',
      'SMTP_URL',
      'FIREBASE_SERVICE_ACCOUNT',
      'GOOGLE_APPLICATION_CREDENTIALS',
      'METRICS_TOKEN',
    ])
      expect(seen[secret]).toBeUndefined();
    for (const value of Object.values(gate).filter((value) => /secret|password|PRIVATE|token-of/.test(value)))
      expect(JSON.stringify(seen)).not.toContain(value);
  });

  it.runIf(process.getuid?.() === 0)(
    'runs as the unprivileged user it is given when the gate is root, with that user’s home',
    async () => {
      const nobody = buildUserOf('nobody', readFileSync('/etc/passwd', 'utf8'));
      if (nobody === null || 'error' in nobody) throw new Error('this system has no user nobody');
      const { job, dir } = await rebuildWith(
        `import { writeFileSync } from 'node:fs';\nwriteFileSync('who.json', JSON.stringify({ uid: process.getuid(), gid: process.getgid(), home: process.env.HOME }));\n`,
        { user: { ...nobody, home: '/tmp' }, env: { HOME: '/root' } },
      );
      expect(job).toMatchObject({ state: 'served', error: null });
      expect(JSON.parse(await readFile(join(dir, 'who.json'), 'utf8'))).toEqual({
        uid: nobody.uid,
        gid: nobody.gid,
        home: '/tmp',
      });
    },
  );

  it('that built nothing leaves the served build alone and ends the job unchanged', async () => {
    expect(UNCHANGED_EXIT_CODE).toBe(SCRIPT_UNCHANGED);
    const { job, served } = await rebuildWith(`process.exit(${UNCHANGED_EXIT_CODE});\n`);
    expect(job).toMatchObject({ state: 'unchanged', error: null });
    expect(served).toBe(0);
  });
});
