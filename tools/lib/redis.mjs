// Starts a throw-away Redis server from Debian's `redis-server` package for the tests and
// the deployment checks: loopback, a free port, no persistence. Never used by `npm start`.
import { spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';

import { freePort } from './ports.mjs';
import { startProcess } from './process.mjs';

/** True when a Redis server on `port` answers PING. */
function answersPing(port) {
  return new Promise((resolve) => {
    const socket = createConnection(port, '127.0.0.1');
    socket.once('connect', () => socket.end('PING\r\n'));
    socket.once('data', (data) => {
      resolve(String(data).startsWith('+PONG'));
      socket.destroy();
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts redis-server; `stop()` ends it, `pause()` and `resume()` stop and start it on the same
 * port, `freeze()` and `thaw()` stop its process (SIGSTOP) and let it go on: connections stay
 * open and nothing answers, as with a stalled server or a cut network.
 */
export async function startRedis({ port } = {}) {
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error(
      "Redis is not installed: these tests need Debian's redis-server package (apt-get install -y redis-server)",
    );
  }
  const chosen = port ?? (await freePort());
  let server;
  const start = async () => {
    server = startProcess(
      'redis-server',
      ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { name: `redis-server on port ${chosen}`, stderr: 'collect' },
    );
    await server.waitUntil(() => answersPing(chosen), { timeoutMs: 5000, intervalMs: 50 });
  };
  const stop = async () => {
    server?.signal('SIGCONT');
    await server?.stop();
  };
  await start();
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    pause: stop,
    resume: start,
    freeze: async () => server.signal('SIGSTOP'),
    thaw: async () => server.signal('SIGCONT'),
    stop,
  };
}
