import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

import { signInWithPassword, startSession } from '../../scripts/portal-client.mjs';
import { seedReaders, startAuthEmulator, type RunningEmulator } from '../../tools/lib/emulator.mjs';
import { SITE_BUILD, startGate, type RunningGate } from '../../tools/lib/gate.mjs';
import { freePorts } from '../../tools/lib/ports.mjs';
import { E2E_SESSION_SECRET } from './lib';

/**
 * A portal of a test's own: its own gate server, and its own Auth Emulator (whose readers
 * survive a restart) unless it is given the run's (`emulatorHost`), so stopping either
 * never disturbs the other tests.
 */
export class IsolatedPortal {
  baseURL = '';
  server: ChildProcess | undefined;
  emulator: RunningEmulator | undefined;
  private gate: RunningGate | undefined;
  private emulatorPorts: { port: number; hubPort: number; loggingPort: number } | undefined;

  constructor(
    private readonly env: Record<string, string> = {},
    private readonly emulatorHost?: string,
  ) {}

  async startEmulator(): Promise<RunningEmulator> {
    if (!this.emulatorPorts) {
      const [port, hubPort, loggingPort] = (await freePorts(3)) as [number, number, number];
      this.emulatorPorts = { port, hubPort, loggingPort };
    }
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

  /** What the server wrote on stderr (its refusal to start, for one). */
  get stderr(): string {
    return this.gate?.output() ?? '';
  }

  /** Starts the gate server; resolves with its process once it answers, or once it has exited. */
  async startServer(siteDir = SITE_BUILD): Promise<ChildProcess> {
    this.gate = await startGate({
      siteDir,
      emulatorHost: this.emulator?.host ?? this.emulatorHost ?? '127.0.0.1:1',
      env: { SESSION_SECRET: E2E_SESSION_SECRET, SESSION_RATE_LIMIT: '100000', ...this.env },
      stderr: 'collect',
      until: 'listening',
      allowExit: true,
      timeoutMs: 30_000,
    });
    this.baseURL = this.gate.baseURL;
    this.server = this.gate.child;
    return this.server;
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
    await this.gate?.stop();
    this.resumeEmulator();
    await this.emulator?.stop();
  }
}
