// Ports for the processes the scripts, tests and benchmark start: free ones from get-port,
// and a check that a port someone chose is still free.
import { createServer } from 'node:net';

import getPort from 'get-port';

/**
 * A port free on this machine now, and never handed out before by this process: callers
 * start their servers some time after asking (the test setup starts the emulator and
 * PostgreSQL side by side), and the OS may offer a port again once get-port's probe closes.
 */
export function freePort() {
  return getPort({ host: '127.0.0.1', reserve: true });
}

/** `count` distinct free ports. */
export async function freePorts(count) {
  const ports = [];
  for (let i = 0; i < count; i++) ports.push(await freePort());
  return ports;
}

/** Resolves when `port` on 127.0.0.1 can be bound, rejects with a message naming `setting` otherwise. */
export function assertPortFree(port, setting) {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', () =>
      reject(new Error(`Port ${port} is already in use; choose another with ${setting}=<port>.`)),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}
