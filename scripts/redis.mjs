// Starts a throw-away Redis server from Debian's `redis-server` package for the tests and
// the deployment checks: loopback, a free port, no persistence. Never used by `npm start`.
import { spawn, spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';

import { freePort } from './emulator.mjs';

function answers(port) {
  return new Promise((resolve) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.end('PING\r\n');
    });
    socket.once('data', (data) => {
      resolve(String(data).startsWith('+PONG'));
      socket.destroy();
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts redis-server; `stop()` ends it, `pause()` and `resume()` stop and start it on the same port. */
export async function startRedis({ port } = {}) {
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error(
      "Redis is not installed: these tests need Debian's redis-server package (apt-get install -y redis-server)",
    );
  }
  const chosen = port ?? (await freePort());
  let child;
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    );
    for (let i = 0; i < 100; i++) {
      if (await answers(chosen)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not start on port ${chosen}`);
  };
  const stopChild = () =>
    new Promise((resolve) => {
      if (!child || child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  await start();
  process.once('exit', () => child?.kill('SIGKILL'));
  return { url: `redis://127.0.0.1:${chosen}`, port: chosen, pause: stopChild, resume: start, stop: stopChild };
}
