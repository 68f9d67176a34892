import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect, test } from '@playwright/test';

import { freePorts } from './free-port';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Whether anything answers HTTP on a loopback port. */
async function answers(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

// `npm start` as a new user runs it, then Ctrl-C. It runs after the other projects
// (playwright.config.ts): it rebuilds the server, which their servers are started from.
test('Ctrl-C stops npm start cleanly: the server closes on one signal, and nothing is left running', async () => {
  test.setTimeout(180_000);
  const [port, emulatorPort, hubPort, loggingPort] = freePorts(4) as [number, number, number, number];
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-start-'));
  // Its own process group, as a shell gives a command it runs in the foreground.
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      AUTH_EMULATOR_PORT: String(emulatorPort),
      EMULATOR_HUB_PORT: String(hubPort),
      EMULATOR_LOGGING_PORT: String(loggingPort),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    await expect.poll(() => output, { timeout: 150_000 }).toContain('The portal is running');
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    // What a terminal does on Ctrl-C: SIGINT to every process of the foreground group.
    process.kill(-(child.pid as number), 'SIGINT');
    expect(await exited).toBe(0);
    // The server's close-with-grace says so when a second signal cuts its graceful close
    // short (the last page views unwritten): a terminal's SIGINT and the script's SIGTERM.
    expect(output).not.toMatch(/second SIG/);
    expect(await answers(port)).toBe(false);
    expect(await answers(emulatorPort)).toBe(false);
  } finally {
    if (child.exitCode === null) process.kill(-(child.pid as number), 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
