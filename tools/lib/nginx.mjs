// Starts Debian's nginx with a configuration of its own, on a free loopback port: in front
// of the gate replicas for `test:deploy`, over the built site as the benchmark's peer.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { freePort } from './ports.mjs';
import { answers, startProcess } from './process.mjs';

/** The configuration: the lines every run shares around `http`, the caller's part of the http block. */
export function nginxConfig({ dir, port, http, workerConnections = 1024 }) {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((name) => `  ${name}_temp_path ${join(dir, 'tmp', name)};`)
    .join('\n');
  const body = http(port)
    .trim()
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
  // nginx run as root drops to "nobody", who could not read the files it serves here.
  return `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections ${workerConnections}; }
http {
  access_log off;
${temp}
${body}
}
`;
}

/**
 * Writes the configuration into `dir` (emptied first), checks it with `nginx -t`, starts
 * nginx and resolves once it answers. `http(port)` returns what goes in the http block.
 */
export async function startNginx({ dir, http, nginxPath = 'nginx', workerConnections }) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'tmp'), { recursive: true });
  const port = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig({ dir, port, http, workerConnections }));
  const args = ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')];
  const check = spawnSync(nginxPath, ['-t', ...args], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx refused the configuration in ${conf}:\n${check.stderr}`);
  const nginx = startProcess(nginxPath, args, {
    name: `nginx on port ${port} (log: ${join(dir, 'error.log')})`,
    stderr: 'collect',
    // SIGQUIT: nginx's graceful stop. On exit, SIGTERM: a killed master leaves its workers behind.
    stopSignal: 'SIGQUIT',
    onExitSignal: 'SIGTERM',
  });
  const baseURL = `http://127.0.0.1:${port}`;
  try {
    await nginx.waitUntil(
      answers(`${baseURL}/`, () => true),
      { timeoutMs: 10_000, intervalMs: 50 },
    );
  } catch (error) {
    await nginx.stop('SIGKILL');
    throw error;
  }
  return { ...nginx, baseURL, port };
}
