import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

import { expect, test } from '@playwright/test';

import { signInWithPassword, startSession } from '../scripts/portal-client.mjs';
import { assertPortFree, freePorts } from '../tools/lib/ports.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'tv-apps-2025';
const PAGE = '/docs/player-manager-mono/packages/player-adapter-dash.js/';

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

// `npm start` as a new user runs it, then Ctrl-C. It runs beside the other projects: the
// server's build is incremental and copies only what changed, so it rewrites nothing that
// their servers are started from.
test('Ctrl-C stops npm start cleanly: the server closes on one signal, keeps the last page views, and nothing is left running', async () => {
  test.setTimeout(240_000);
  const [port, emulatorPort, hubPort, loggingPort] = (await freePorts(4)) as [number, number, number, number];
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-start-'));
  const baseURL = `http://127.0.0.1:${port}`;
  const emulatorHost = `127.0.0.1:${emulatorPort}`;
  const running: Started[] = [];

  /** scripts/start.mjs in a process group of its own, as a shell runs a command in the foreground. */
  async function start(): Promise<Started> {
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
        // The address the tests' build names (npm start would otherwise build for its own port).
        SITE_URL: 'http://localhost:3000',
        DEMO_DATA: '0',
        LOG_LEVEL: 'warn',
      },
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const started = { child, output: () => output, exited };
    running.push(started);
    // The server says it is running as soon as it listens; npm start prints the demo
    // sign-ins and, last, where the data is once every surface answers (the embedded
    // database opened), which on a busy machine comes seconds later.
    await expect.poll(() => output, { timeout: 150_000 }).toContain('The portal is running');
    await expect.poll(() => output, { timeout: 60_000 }).toMatch(/ {2}Data: /);
    return started;
  }

  /** What a terminal does on Ctrl-C: SIGINT to every process of the foreground group. */
  async function ctrlC(started: Started): Promise<number | null> {
    process.kill(-(started.child.pid as number), 'SIGINT');
    return started.exited;
  }

  try {
    const first = await start();
    expect((await fetch(`${baseURL}/healthz`)).status).toBe(200);
    // The mail catcher it started for the portal's mail, which Ctrl-C stops with the rest.
    await expect.poll(() => first.output(), { timeout: 10_000 }).toMatch(/Mail: .* MailDev at http:\/\/[\d.:]+\//);
    const inbox = /MailDev at (http:\/\/[\d.:]+)\//.exec(first.output())?.[1];
    expect((await fetch(`${inbox}/api/healthz`)).status).toBe(200);
    // A partner reads a private page five times, and Ctrl-C comes at once: the views are
    // still in the gate's memory (it writes them once a second).
    const partner = await startSession(
      baseURL,
      await signInWithPassword(emulatorHost, 'dev@partner-studio.example', PASSWORD),
    );
    for (let i = 0; i < 5; i++)
      expect((await fetch(baseURL + PAGE, { headers: { cookie: partner } })).status).toBe(200);

    expect(await ctrlC(first)).toBe(0);
    // The server's close-with-grace says so when a second signal cuts its graceful close
    // short (the last page views unwritten): a terminal's SIGINT and the script's SIGTERM.
    expect(first.output()).not.toMatch(/second SIG/);
    await assertPortFree(port, 'PORT');
    await assertPortFree(emulatorPort, 'AUTH_EMULATOR_PORT');
    await expect(fetch(`${inbox}/api/healthz`)).rejects.toThrow();

    // Started again on the same data: the administrator's trail has the five views.
    const second = await start();
    const admin = await startSession(
      baseURL,
      await signInWithPassword(emulatorHost, 'admin@norigin.example', PASSWORD),
    );
    const trail = await fetch(`${baseURL}/api/admin/audit?reader=dev@partner-studio.example&kind=page.view`, {
      headers: { cookie: admin },
    });
    expect(trail.status, await trail.clone().text()).toBe(200);
    const { events } = (await trail.json()) as {
      events: { kind: string; path?: string | null; detail: { views?: number } }[];
    };
    // Views of one page by one reader in one hour are one row with their count.
    const views = events.filter((event) => event.kind === 'page.view' && event.path === PAGE);
    expect(views.reduce((sum, event) => sum + (event.detail.views ?? 0), 0)).toBe(5);
    expect(await ctrlC(second)).toBe(0);
  } finally {
    // After a failure: Ctrl-C first, so that npm start stops the identity emulator and the
    // mail catcher, which run in process groups of their own; a kill only if it hangs.
    for (const { child, exited } of running) {
      if (child.exitCode !== null) continue;
      process.kill(-(child.pid as number), 'SIGINT');
      const stopped = await Promise.race([exited.then(() => true), delay(30_000).then(() => false)]);
      if (!stopped) process.kill(-(child.pid as number), 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
});
