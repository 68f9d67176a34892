import { Redis } from 'ioredis';

/**
 * What replicas share when there is more than one (`REDIS_URL`): the second of each
 * reader's last revocation (logout), and a broadcast that makes every replica forget a
 * reader's cached sessions (logout, an administrator's disable or change of groups) and a
 * revoked token. Without Redis, one process keeps all of it in memory, as before. If Redis
 * cannot be reached, each replica falls back to its own memory (the cache's TTL, 60 s at
 * most, bounds what another replica still allows) and Redis is used again when it is back.
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
}

export interface SharedState {
  readonly kind: 'memory' | 'redis';
  /** The second of the reader's last revocation that a replica made, or null. */
  revokedAt(uid: string): Promise<number | null>;
  setRevokedAt(uid: string, second: number, ttlSeconds: number): Promise<void>;
  /** Tells every replica (this one included) to forget what it cached of `subject`. */
  broadcast(subject: SharedSubject): Promise<void>;
  onBroadcast(listener: (subject: SharedSubject) => void): void;
  /** The Redis client for the sign-in rate limit, or null for the in-memory one. */
  readonly rateLimitClient: Redis | null;
  /** Whether the shared store answers now (for /readyz). */
  ping(): Promise<boolean>;
  /** Errors talking to Redis since start (for /metrics). */
  readonly errors: number;
  close(): Promise<void>;
}

class MemoryState implements SharedState {
  readonly kind = 'memory';
  readonly rateLimitClient = null;
  readonly errors = 0;
  private readonly revoked = new Map<string, { second: number; until: number }>();
  private readonly listeners: ((subject: SharedSubject) => void)[] = [];

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

  async broadcast(subject: SharedSubject): Promise<void> {
    for (const listener of this.listeners) listener(subject);
  }

  onBroadcast(listener: (subject: SharedSubject) => void): void {
    this.listeners.push(listener);
  }

  async ping(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}

const CHANNEL = 'portal:forget';

class RedisState implements SharedState {
  readonly kind = 'redis';
  readonly rateLimitClient: Redis;
  private readonly subscriber: Redis;
  private readonly fallback = new MemoryState();
  private readonly listeners: ((subject: SharedSubject) => void)[] = [];
  errors = 0;

  constructor(
    url: string,
    private readonly log: { warn(object: Record<string, unknown>, message: string): void },
  ) {
    const options = {
      // Fail fast while Redis is away (each replica then uses its own memory) and reconnect by itself.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2000,
      retryStrategy: (times: number) => Math.min(times * 200, 2000),
      lazyConnect: false,
    };
    this.rateLimitClient = new Redis(url, options);
    this.subscriber = new Redis(url, { ...options, enableOfflineQueue: true });
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
      try {
        const subject = JSON.parse(message) as SharedSubject;
        for (const listener of this.listeners) listener(subject);
      } catch {
        // not ours
      }
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

  async broadcast(subject: SharedSubject): Promise<void> {
    // This replica at once, whatever Redis says; the others through the channel.
    for (const listener of this.listeners) listener(subject);
    await this.guarded(
      async () => {
        await this.rateLimitClient.publish(CHANNEL, JSON.stringify(subject));
      },
      async () => undefined,
    );
  }

  onBroadcast(listener: (subject: SharedSubject) => void): void {
    this.listeners.push(listener);
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
  return redisUrl ? new RedisState(redisUrl, log) : new MemoryState();
}
