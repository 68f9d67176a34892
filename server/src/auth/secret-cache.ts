import { LRUCache } from 'lru-cache';

/**
 * Bearer secrets checked lately, by a hash of the secret: the records the store found (for
 * at most `ttlSeconds`), and the hashes it did not know, which cost no look-up when asked
 * again (a new secret is random, so its hash is never among them). Personal access tokens
 * and OAuth access tokens are both kept this way.
 */
export class SecretCache<T extends object> {
  private readonly known: LRUCache<string, T>;
  private readonly unknown = new LRUCache<string, true>({ max: 10_000, ttl: 10 * 60_000 });

  constructor(ttlSeconds: number) {
    this.known = new LRUCache<string, T>({ max: 10_000, ttl: Math.max(ttlSeconds, 0) * 1000 || 1 });
  }

  /**
   * The record of `hash`: remembered, or else from `load` (then `loaded` is true) and kept.
   * `unknown` when the store has none, `unavailable` when it cannot answer.
   */
  async find(
    hash: string,
    load: () => Promise<T | null | undefined>,
  ): Promise<{ record: T; loaded: boolean } | 'unknown' | 'unavailable'> {
    const known = this.known.get(hash);
    if (known) return { record: known, loaded: false };
    if (this.unknown.has(hash)) return 'unknown';
    let record: T | null | undefined;
    try {
      record = await load();
    } catch {
      return 'unavailable';
    }
    if (!record) {
      this.unknown.set(hash, true);
      return 'unknown';
    }
    this.known.set(hash, record);
    return { record, loaded: true };
  }

  get(hash: string): T | undefined {
    return this.known.get(hash);
  }

  set(hash: string, record: T): void {
    this.known.set(hash, record);
  }

  /** Forgets every remembered record `matches` picks (one revoked on another replica, say). */
  forget(matches: (record: T) => boolean): void {
    for (const [hash, record] of this.known.entries()) if (matches(record)) this.known.delete(hash);
  }
}
