import { Redis } from 'ioredis';

/**
 * What replicas share when there is more than one: the second of each reader's last
 * revocation (logout, in Redis with `REDIS_URL`), and a broadcast that makes every replica
 * forget a reader's cached sessions (logout, an administrator's disable or change of groups),
 * a revoked token or OAuth grant, or read the access data again. A broadcast is written to the
 * database's change feed (changes.ts) once the database is ready, which every replica reads
 * twice a second; Redis, when set, only tells them to read it now. So a lost message, Redis
 * down or a replica cut off from it delays a change by a poll, never for good. Without Redis,
 * one process keeps the revocations in memory, as before.
 */
/**
 * What a broadcast names: a reader, a token or an OAuth grant to forget, a site build to
 * serve (its id), or a change of organisations, licences, groups or memberships to read
 * again (any value).
 */
export interface SharedSubject {
  reader?: string;
  token?: string;
  grant?: string;
  site?: string;
  access?: string;
  /** A site release was made live (migration 016's trigger): every gate serves it. */
  release?: string;
}

/** Where broadcasts are kept for every replica to read (changes.ts): the event's number, or null when not kept. */
export type AppendSubject = (subject: SharedSubject) => Promise<number | null>;

/** How long a call to Redis may take before the replica goes on without it. */
export const REDIS_COMMAND_TIMEOUT_MS = 500;

export interface SharedState {
  readonly kind: 'memory' | 'redis';
  /** The second of the reader's last revocation that a replica made, or null. */
  revokedAt(uid: string): Promise<number | null>;
  setRevokedAt(uid: string, second: number, ttlSeconds: number): Promise<void>;
  /**
   * Tells every replica (this one included) to forget what it cached of `subject`: this one
   * at once, the others through the change feed (and Redis's hint). Resolves once the event is
   * kept, never waiting on Redis.
   */
  broadcast(subject: SharedSubject): Promise<void>;
  onBroadcast(listener: (subject: SharedSubject) => void): void;
  /** Hands `subject` to this replica's listeners only (the change feed, for another replica's event). */
  deliver(subject: SharedSubject): void;
  /** Keeps every later broadcast in the change feed (once the database is ready). */
  useFeed(append: AppendSubject): void;
  /** Tells the other replicas to read the change feed now (an event a trigger wrote); never waits. */
  hint(): void;
  /** Called when another replica says it kept an event: read the feed now. */
  onHint(listener: () => void): void;
  /** The Redis client for the sign-in rate limit, or null for the in-memory one. */
  readonly rateLimitClient: Redis | null;
  /** Whether the shared store answers now (for /readyz). */
  ping(): Promise<boolean>;
  /** Errors talking to Redis since start (for /metrics). */
  readonly errors: number;
  close(): Promise<void>;
}

/** The broadcast and the change feed, alike with or without Redis. */
abstract class Broadcasts {
  private readonly listeners: ((subject: SharedSubject) => void)[] = [];
  protected readonly hints: (() => void)[] = [];
  protected append: AppendSubject | null = null;

  constructor(protected readonly log: { warn(object: Record<string, unknown>, message: string): void }) {}

  /** Tells the other replicas, by Redis if there is one; must not throw nor wait long. */
  protected abstract publish(subject: SharedSubject, seq: number | null): Promise<void>;

  async broadcast(subject: SharedSubject): Promise<void> {
    this.deliver(subject);
    let seq: number | null = null;
    try {
      seq = this.append ? await this.append(subject) : null;
    } catch (error) {
      // The database refused; Redis (if set) still carries it, and the caller's change is
      // already made, so it is not undone for this.
      this.log.warn({ err: (error as Error).message }, 'could not keep a change in the change feed');
    }
    void this.publish(subject, seq);
  }

  onBroadcast(listener: (subject: SharedSubject) => void): void {
    this.listeners.push(listener);
  }

  deliver(subject: SharedSubject): void {
    for (const listener of this.listeners) listener(subject);
  }

  useFeed(append: AppendSubject): void {
    this.append = append;
  }

  hint(): void {
    // A number and no subject: a replica reading the feed reads it now, any other has nothing to do.
    void this.publish({}, 0);
  }

  onHint(listener: () => void): void {
    this.hints.push(listener);
  }
}

class MemoryState extends Broadcasts implements SharedState {
  readonly kind = 'memory';
  readonly rateLimitClient = null;
  readonly errors = 0;
  private readonly revoked = new Map<string, { second: number; until: number }>();

  async revokedAt(uid: string): Promise<number | null> {
    const entry = this.revoked.get(uid);
    if (!entry) return null;
    if (entry.until < Date.now()) {
      this.revoked.delete(uid);
      return null;
    }
    return entry.second;
  }

  async setRevokedAt(uid: string, second: number, ttlSeconds: number): Promise<void> {
    // Bounded: the oldest are dropped first (they expire first too).
    if (this.revoked.size >= 100_000) this.revoked.delete(this.revoked.keys().next().value as string);
    this.revoked.set(uid, { second, until: Date.now() + ttlSeconds * 1000 });
  }

  protected async publish(): Promise<void> {}

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}

const CHANNEL = 'portal:forget';

class RedisState extends Broadcasts implements SharedState {
  readonly kind = 'redis';
  readonly rateLimitClient: Redis;
  private readonly subscriber: Redis;
  private readonly fallback: MemoryState;
  errors = 0;

  constructor(url: string, log: { warn(object: Record<string, unknown>, message: string): void }) {
    super(log);
    this.fallback = new MemoryState(log);
    const options = {
      // Fail fast while Redis is away or stalled (each replica then uses its own memory and the
      // change feed) and reconnect by itself.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: 2000,
      retryStrategy: (times: number) => Math.min(times * 200, 2000),
      lazyConnect: false,
    };
    this.rateLimitClient = new Redis(url, options);
    // The subscriber only listens: a command time limit would cut its subscription.
    this.subscriber = new Redis(url, { ...options, enableOfflineQueue: true, commandTimeout: undefined });
    let warned = 0;
    for (const client of [this.rateLimitClient, this.subscriber])
      client.on('error', (error: Error) => {
        this.errors += 1;
        if (Date.now() - warned > 10_000) {
          warned = Date.now();
          this.log.warn(
            { err: error.message },
            'Redis cannot be reached; each replica uses its own memory until it is back',
          );
        }
      });
    void this.subscriber.subscribe(CHANNEL).catch(() => undefined);
    this.subscriber.on('message', (_channel: string, message: string) => {
      let parsed: SharedSubject & { seq?: number | null };
      try {
        parsed = JSON.parse(message) as typeof parsed;
      } catch {
        return; // not ours
      }
      // An event kept in the feed is read from there (exactly once, in order); one that is
      // not (its sender had no database yet, or is a release before the feed) is taken as is.
      const { seq, ...subject } = parsed;
      if (typeof seq === 'number' && this.append) for (const hint of this.hints) hint();
      else this.deliver(subject);
    });
  }

  private async guarded<T>(work: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch {
      this.errors += 1;
      return fallback();
    }
  }

  async revokedAt(uid: string): Promise<number | null> {
    const local = await this.fallback.revokedAt(uid);
    const shared = await this.guarded(
      async () => {
        const value = await this.rateLimitClient.get(`portal:revoked:${uid}`);
        return value === null ? null : Number(value);
      },
      async () => null,
    );
    return Math.max(local ?? 0, shared ?? 0) || null;
  }

  async setRevokedAt(uid: string, second: number, ttlSeconds: number): Promise<void> {
    await this.fallback.setRevokedAt(uid, second, ttlSeconds);
    await this.guarded(
      async () => {
        await this.rateLimitClient.set(`portal:revoked:${uid}`, String(second), 'EX', Math.max(1, ttlSeconds));
      },
      async () => undefined,
    );
  }

  protected async publish(subject: SharedSubject, seq: number | null): Promise<void> {
    await this.guarded(
      async () => {
        // The subject's own fields, as a release before the feed sends them, and the event's number.
        await this.rateLimitClient.publish(CHANNEL, JSON.stringify({ ...subject, seq }));
      },
      async () => undefined,
    );
  }

  async ping(): Promise<boolean> {
    return this.guarded(
      async () => (await this.rateLimitClient.ping()) === 'PONG',
      async () => false,
    );
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    this.rateLimitClient.disconnect();
  }
}

export function sharedState(
  redisUrl: string | null,
  log: { warn(object: Record<string, unknown>, message: string): void },
): SharedState {
  return redisUrl ? new RedisState(redisUrl, log) : new MemoryState(log);
}
