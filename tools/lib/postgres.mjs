// Starts a throw-away PostgreSQL cluster from Debian's `postgresql` package, for the tests
// and the deployment checks: its own folder, a free port on loopback, trust auth, stopped
// and removed by `stop()`. Never used by `npm start` (that runs PGlite, in-process).
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { freePort } from './ports.mjs';

/** The newest installed PostgreSQL's bin folder, or null. */
export function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(root, name, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0], 'bin') : null;
}

/** PostgreSQL refuses to run as root: run its tools as the package's `postgres` user then. */
function asPostgres(command, args) {
  const root = process.getuid?.() === 0;
  const result = root
    ? spawnSync('runuser', ['-u', 'postgres', '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  return result;
}

/**
 * Creates and starts a cluster. Returns its connection URL and `stop()`, plus `pause()` and
 * `resume()`, which stop and start the same cluster (its data kept) to test an outage.
 */
export async function startPostgres({ port } = {}) {
  const bin = postgresBin();
  if (bin === null) {
    throw new Error(
      "PostgreSQL is not installed: the database tests need Debian's postgresql package (apt-get install -y postgresql)",
    );
  }
  const dir = mkdtempSync(join(tmpdir(), 'portal-postgres-'));
  const dataDir = join(dir, 'data');
  if (process.getuid?.() === 0) {
    const postgres = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(postgres.stdout.trim()), Number(group.stdout.trim()));
  }
  const init = asPostgres(join(bin, 'initdb'), [
    '-D',
    dataDir,
    '-U',
    'portal',
    '--auth=trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  const chosenPort = port ?? (await freePort());
  const options = `-p ${chosenPort} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const ctl = (action) =>
    asPostgres(join(bin, 'pg_ctl'), ['-D', dataDir, '-l', join(dir, 'log'), '-o', options, '-w', action]);
  const started = ctl('start');
  if (started.status !== 0) throw new Error(`PostgreSQL did not start: ${started.stderr || started.stdout}`);
  const created = asPostgres(join(bin, 'createdb'), [
    '-h',
    '127.0.0.1',
    '-p',
    String(chosenPort),
    '-U',
    'portal',
    'portal',
  ]);
  if (created.status !== 0) throw new Error(`createdb failed: ${created.stderr}`);
  let stopped = false;
  const stopNow = () => {
    if (stopped) return;
    stopped = true;
    process.removeListener('exit', stopNow);
    ctl('stop');
    rmSync(dir, { recursive: true, force: true });
  };
  // pg_ctl runs the server as a daemon, not a child: stop it when this process ends, however it ends.
  process.once('exit', stopNow);
  return {
    url: `postgres://portal@127.0.0.1:${chosenPort}/portal`,
    port: chosenPort,
    pause: () => {
      const result = ctl('stop');
      if (result.status !== 0) throw new Error(`pg_ctl stop failed: ${result.stderr}`);
    },
    resume: () => {
      const result = ctl('start');
      if (result.status !== 0) throw new Error(`pg_ctl start failed: ${result.stderr}`);
    },
    stop: async () => stopNow(),
  };
}
