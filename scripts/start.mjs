// `npm start`: build what is missing or stale, then run the portal until Ctrl-C.
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildSiteIfStale } from './build-if-stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

try {
  buildSiteIfStale();
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

const tsc = spawnSync('npm', ['run', 'build', '--workspace', 'server'], { cwd: root, stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

const port = process.env.PORT ?? '3000';
const host = process.env.HOST ?? '127.0.0.1';
const server = spawn(process.execPath, [join(root, 'server', 'dist', 'server.js')], {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: { ...process.env, PORT: port, HOST: host, SITE_DIR: join(root, 'site', 'build') },
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill('SIGTERM'));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
