import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { freePort, seedReaders, startAuthEmulator, type RunningEmulator } from '../../scripts/emulator.mjs';
import { signInWithPassword, startSession } from '../../scripts/portal-client.mjs';
import { E2E_SESSION_SECRET, rawRequest } from './lib';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A portal of a test's own: its own gate server, and its own Auth Emulator (whose readers
 * survive a restart) unless it is given the run's (`emulatorHost`), so stopping either
 * never disturbs the other tests.
 */
export class IsolatedPortal {
  baseURL = '';
  server: ChildProcess | undefined;
  emulator: RunningEmulator | undefined;
  private emulatorPorts: { port: number; hubPort: number; loggingPort: number } | undefined;
  stderr = '';

  constructor(
    private readonly env: Record<string, string> = {},
    private readonly emulatorHost?: string,
  ) {}

  async startEmulator(): Promise<RunningEmulator> {
    this.emulatorPorts ??= { port: await freePort(), hubPort: await freePort(), loggingPort: await freePort() };
    this.emulator = await startAuthEmulator(this.emulatorPorts);
    await seedReaders(this.emulator.host, this.emulator.projectId);
    return this.emulator;
  }

  /**
   * Stops the identity service without losing its state: the whole emulator process group
   * is frozen (SIGSTOP), so calls to it hang as with a dead network, until `resumeEmulator`.
   * (A restart would not do: the emulator's import resets every reader's revocation time,
   * which would sign everyone out, something real Firebase never does.)
   */
  freezeEmulator(): void {
    if (this.emulator) process.kill(-this.emulator.pid, 'SIGSTOP');
  }

  resumeEmulator(): void {
    if (this.emulator) process.kill(-this.emulator.pid, 'SIGCONT');
  }

  async startServer(siteDir = join(root, 'site', 'build')): Promise<ChildProcess> {
    const port = await freePort();
    this.baseURL = `http://127.0.0.1:${port}`;
    this.stderr = '';
    const server = spawn(process.execPath, [join(root, 'server', 'dist', 'server.js')], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        PORT: String(port),
        SITE_DIR: siteDir,
        FIREBASE_AUTH_EMULATOR_HOST: this.emulator?.host ?? this.emulatorHost ?? '127.0.0.1:1',
        SESSION_SECRET: E2E_SESSION_SECRET,
        SESSION_RATE_LIMIT: '100000',
        LOG_LEVEL: 'warn',
        // An embedded database of its own: two processes must never share one.
        DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-isolated-data-')),
        ...this.env,
      },
    });
    server.stderr?.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.server = server;
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      if (server.exitCode !== null) return server;
      const ok = await rawRequest(this.baseURL, { path: '/healthz' }).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) return server;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`the gate server did not start:\n${this.stderr}`);
  }

  /** Resident memory of the server process in bytes (Linux). */
  serverRss(): number {
    const status = readFileSync(`/proc/${this.server?.pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return Number(kb) * 1024;
  }

  /** Signs a reader (the staff demo reader by default) in through the session API; returns the cookie header value. */
  async signIn(email = 'reader@norigin.example', password = 'tv-apps-2025'): Promise<string> {
    const host = String(this.emulator?.host ?? this.emulatorHost);
    return startSession(this.baseURL, await signInWithPassword(host, email, password));
  }

  async stop(): Promise<void> {
    if (this.server && this.server.exitCode === null) {
      const exited = new Promise((resolve) => this.server?.once('exit', resolve));
      this.server.kill('SIGTERM');
      await exited;
    }
    this.resumeEmulator();
    await this.emulator?.stop();
  }
}
