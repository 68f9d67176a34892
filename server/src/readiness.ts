/** What `/readyz` reports: each dependency, and whether all of them answered. */
export interface ReadinessReport {
  ready: boolean;
  checks: { manifest: boolean; identity: boolean; database: boolean; redis: boolean };
}

export interface ReadinessChecks {
  manifest: () => boolean;
  /** Asks the identity service something cheap; true when it answered. */
  identity: () => Promise<boolean>;
  database: () => Promise<boolean>;
  redis: () => Promise<boolean>;
}

export interface ReadinessOptions {
  /** Milliseconds; injected so that the caches are testable without waiting. */
  clock?: () => number;
  /** The database and Redis are asked at most once in this many milliseconds. */
  roundMs?: number;
  /** The identity service is asked at most once in this many milliseconds. */
  identityMs?: number;
  /** A check that has not answered in this many milliseconds counts as down. */
  timeoutMs?: number;
}

/** How long an answer of the identity service stands: it is a paid, rate-limited API that every replica shares. */
export const IDENTITY_CHECK_MS = 10_000;

/**
 * The readiness checks behind `/readyz`, cached so that the platform's probes (every
 * replica, every few seconds, often from more than one prober) cost the services little:
 * one round of database and Redis checks every `roundMs`, one call to the identity
 * service every `identityMs`, and probes that arrive meanwhile share the answer.
 */
export class Readiness {
  private readonly clock: () => number;
  private round: { at: number; answer: Promise<ReadinessReport> } | null = null;
  private identity: { at: number; answer: Promise<boolean> } | null = null;

  constructor(
    private readonly checks: ReadinessChecks,
    private readonly options: ReadinessOptions = {},
  ) {
    this.clock = options.clock ?? (() => Date.now());
  }

  private withTimeout(check: () => Promise<boolean>): Promise<boolean> {
    const ms = this.options.timeoutMs ?? 2000;
    return Promise.race([
      check().catch(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref()),
    ]);
  }

  private identityUp(now: number): Promise<boolean> {
    if (!this.identity || now - this.identity.at >= (this.options.identityMs ?? IDENTITY_CHECK_MS))
      this.identity = { at: now, answer: this.withTimeout(this.checks.identity) };
    return this.identity.answer;
  }

  /** The current report, from the caches when they are fresh. */
  report(): Promise<ReadinessReport> {
    const now = this.clock();
    if (!this.round || now - this.round.at >= (this.options.roundMs ?? 2000))
      this.round = { at: now, answer: this.check(now) };
    return this.round.answer;
  }

  private async check(now: number): Promise<ReadinessReport> {
    const [identity, database, redis] = await Promise.all([
      this.identityUp(now),
      this.withTimeout(this.checks.database),
      this.withTimeout(this.checks.redis),
    ]);
    const checks = { manifest: this.checks.manifest(), identity, database, redis };
    return { ready: Object.values(checks).every(Boolean), checks };
  }
}
