import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { ensureDebianPackages, findCommand } from './apt.mjs';
import { startNginx } from './nginx.mjs';
import { assertPortFree, freePorts } from './ports.mjs';
import { startProcess, waitUntil } from './process.mjs';
import { publishVersions } from './site-copy.mjs';

const node = process.execPath;
/** Running, as /proc sees it: a process that has ended (a zombie its new parent has not reaped yet) is not. */
const running = (pid) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};
const cleanups = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('ports', () => {
  it('hands out distinct ports that can be bound', async () => {
    const ports = await freePorts(6);
    expect(new Set(ports).size).toBe(6);
    for (const port of ports) await assertPortFree(port, 'PORT');
  });

  it('names the setting to change when a chosen port is taken', async () => {
    const [port] = await freePorts(1);
    const holder = createServer();
    await new Promise((resolve) => holder.listen(port, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => holder.close(resolve)));
    await expect(assertPortFree(port, 'AUTH_EMULATOR_PORT')).rejects.toThrow(
      `Port ${port} is already in use; choose another with AUTH_EMULATOR_PORT=<port>.`,
    );
  });
});

describe('processes', () => {
  it('says what a process printed when it exits before it is ready', async () => {
    const child = startProcess(node, ['-e', 'console.error("no manifest here"); process.exit(3)'], {
      name: 'The test server',
      stderr: 'collect',
    });
    await expect(child.waitUntil(() => false, { timeoutMs: 10_000 })).rejects.toThrow(
      /The test server exited \(code 3\) before it was ready:\nno manifest here/,
    );
  });

  it('gives up after the timeout, naming what it waited for', async () => {
    await expect(waitUntil(() => false, { what: 'nothing', timeoutMs: 300, intervalMs: 50 })).rejects.toThrow(
      'nothing was not ready within 0.3 s',
    );
  });

  it('stops a process with its stop signal, and with SIGKILL when it ignores that', async () => {
    const polite = startProcess(node, ['-e', 'setInterval(() => {}, 1000)']);
    await polite.stop();
    expect(polite.child.signalCode).toBe('SIGTERM');

    const stubborn = startProcess(
      node,
      ['-e', 'process.on("SIGTERM", () => {}); console.log("up"); setInterval(() => {}, 1000)'],
      { stdout: 'collect', killAfterMs: 300 },
    );
    await stubborn.waitUntil(() => stubborn.output().includes('up'));
    await stubborn.stop();
    expect(stubborn.child.signalCode).toBe('SIGKILL');
  });

  it('ends what a script started when the script exits without stopping it', async () => {
    const lib = new URL('./process.mjs', import.meta.url).href;
    const script = `import { startProcess } from ${JSON.stringify(lib)};
const child = startProcess(${JSON.stringify(node)}, ['-e', 'setInterval(() => {}, 1000)']);
console.log(child.pid);
setTimeout(() => process.exit(0), 200);`;
    const result = spawnSync(node, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    const pid = Number(result.stdout.trim());
    expect(pid).toBeGreaterThan(0);
    // The signal is sent as the script exits; the kernel ends the child a moment later.
    await expect.poll(() => running(pid), { timeout: 5000 }).toBe(false);
  });
});

describe('nginx', () => {
  it('serves with the caller’s part of the configuration, and frees its port when stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tools-nginx-test-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'index.html'), 'served by nginx');
    const nginx = await startNginx({
      dir: join(dir, 'nginx'),
      http: (port) => `server {\n  listen 127.0.0.1:${port};\n  root ${dir};\n}`,
    });
    cleanups.push(() => nginx.stop());
    const response = await fetch(`${nginx.baseURL}/index.html`);
    expect(await response.text()).toBe('served by nginx');
    await nginx.stop();
    await assertPortFree(nginx.port, 'PORT');
  });

  it('refuses a configuration nginx -t refuses, with nginx’s reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tools-nginx-test-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    await expect(startNginx({ dir, http: () => 'no_such_directive on;' })).rejects.toThrow(
      /nginx refused the configuration .*\n.*unknown directive "no_such_directive"/,
    );
  });
});

describe('Debian packages', () => {
  it('finds commands in the sbin folders that a user’s PATH leaves out', () => {
    expect(findCommand('nginx', { path: '/usr/bin:/bin' })).toBe('/usr/sbin/nginx');
    expect(findCommand('no-such-command-here', { path: '/usr/bin:/bin' })).toBeNull();
  });

  it('returns the paths of installed packages’ commands without calling apt-get', () => {
    expect(
      ensureDebianPackages([
        { pkg: 'nginx', command: 'nginx' },
        { pkg: 'nodejs', present: () => true },
      ]),
    ).toEqual({ nginx: '/usr/sbin/nginx' });
  });

  it('names the packages to install when it may not install them', () => {
    expect(() =>
      ensureDebianPackages([{ pkg: 'no-such-package', command: 'no-such-command-here' }], {
        purpose: 'The test',
        mayInstall: false,
      }),
    ).toThrow("The test needs Debian's no-such-package. Install them: sudo apt-get install -y no-such-package");
  });
});

describe('a site copy', () => {
  it('sets the releases a source publishes, and names a source its sources.yaml lacks', () => {
    const dir = mkdtempSync(join(tmpdir(), 'site-copy-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'sources.yaml');
    writeFileSync(file, 'sources:\n  - id: one\n    versions: ">=1.0.0"\n  - id: two\n    versions: ">=2.0.0"\n');
    publishVersions(dir, { two: '2.1.0 || 2.2.0' });
    expect(readFileSync(file, 'utf8')).toBe(
      'sources:\n  - id: one\n    versions: ">=1.0.0"\n  - id: two\n    versions: 2.1.0 || 2.2.0\n',
    );
    expect(() => publishVersions(dir, { two: '2.2.0', three: '3.0.0' })).toThrow('sources.yaml has no source three');
    // Nothing is half-changed when an id is missing.
    expect(readFileSync(file, 'utf8')).toContain('versions: 2.1.0 || 2.2.0');
  });
});
