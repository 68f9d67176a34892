import { createHash, randomBytes, randomUUID } from 'node:crypto';

import { LRUCache } from 'lru-cache';

import { MAX_TOKEN_DAYS, TOKEN_PATTERN, TOKEN_PREFIX } from '@portal/contract/names';

import type { Database } from '../db/database.js';
import { insertToken, markTokenUsed, revokeToken, tokenByHash, type TokenRecord } from '../db/tokens.js';
import { AuthError, classify } from './errors.js';
import type { Identity, Reader } from './identity.js';

// The token's prefix (for secret scanners) and longest life are the API contract's.
export { MAX_TOKEN_DAYS, TOKEN_PREFIX };

export type TokenCheck =
  | { ok: true; reader: Reader; token: TokenRecord; firstUseToday: boolean }
  | { ok: false; reason: 'malformed' | 'unknown' | 'expired' | 'revoked' | 'unavailable'; error?: AuthError };

const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/**
 * Personal access tokens: a reader's credential for their coding assistants, carrying
 * exactly that reader's access, checked live. Only a SHA-256 of each token is stored (a
 * token is 256 random bits, so no slow hash is needed). Each use checks the token (revoked?
 * expired?) and the reader's account as it is now (disabled? which groups?), both
 * remembered for at most the session cache's TTL; revoking a token forgets it at once here.
 */
export class TokenService {
  private readonly known: LRUCache<string, TokenRecord>;

  constructor(
    private readonly db: () => Database | null,
    private readonly identity: Identity,
    ttlSeconds: number,
    private readonly clock: () => number = () => Date.now(),
  ) {
    this.known = new LRUCache<string, TokenRecord>({ max: 10_000, ttl: Math.max(ttlSeconds, 0) * 1000 || 1 });
    // A token revoked on any replica is forgotten on every one (at once with Redis).
    identity.shared.onBroadcast(({ token: id }) => {
      if (id) for (const [hash, token] of this.known.entries()) if (token.id === id) this.known.delete(hash);
    });
  }

  private store(): Database {
    const db = this.db();
    if (db === null) throw new AuthError('unavailable', { cause: new Error('the database is not ready') });
    return db;
  }

  /** Makes a token for `reader`; the secret is returned this once and never again. */
  async create(reader: Reader, name: string, days: number): Promise<{ token: string; record: TokenRecord }> {
    const secret = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const record = await insertToken(this.store(), {
      id: randomUUID(),
      uid: reader.uid,
      email: reader.email,
      name,
      hint: `${secret.slice(0, TOKEN_PREFIX.length + 4)}…`,
      secretHash: hashOf(secret),
      expiresAt: new Date(this.clock() + Math.min(days, MAX_TOKEN_DAYS) * 86_400_000),
    });
    return { token: secret, record };
  }

  /** Checks a token from an `Authorization: Bearer` header. */
  async check(secret: string): Promise<TokenCheck> {
    if (!TOKEN_PATTERN.test(secret)) return { ok: false, reason: 'malformed' };
    const hash = hashOf(secret);
    let token = this.known.get(hash);
    if (!token) {
      try {
        token = (await tokenByHash(this.store(), hash)) ?? undefined;
      } catch {
        return { ok: false, reason: 'unavailable' };
      }
      if (!token) return { ok: false, reason: 'unknown' };
      this.known.set(hash, token);
    }
    if (token.revokedAt !== null) return { ok: false, reason: 'revoked' };
    if (Date.parse(token.expiresAt) <= this.clock()) return { ok: false, reason: 'expired' };
    let reader: Reader;
    try {
      reader = await this.identity.readerByUid(token.uid);
    } catch (error) {
      const verdict = classify(error);
      return { ok: false, reason: verdict.code === 'unavailable' ? 'unavailable' : 'revoked', error: verdict };
    }
    let firstUseToday = false;
    const today = new Date(this.clock()).toISOString().slice(0, 10);
    if (token.lastUsedAt?.slice(0, 10) !== today) {
      firstUseToday = await markTokenUsed(this.store(), token.id, new Date(this.clock())).catch(() => false);
      token = { ...token, lastUsedAt: new Date(this.clock()).toISOString() };
      this.known.set(hash, token);
    }
    return { ok: true, reader, token, firstUseToday };
  }

  /** Revokes a token (the reader's own unless `uid` is null: an administrator); it stops working here at once. */
  async revoke(id: string, uid: string | null): Promise<TokenRecord | null> {
    const revoked = await revokeToken(this.store(), id, uid);
    if (revoked) await this.identity.shared.broadcast({ token: id });
    return revoked;
  }
}
