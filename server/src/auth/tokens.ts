import { createHash, randomBytes, randomUUID } from 'node:crypto';

import type { AdminToken } from '@portal/contract';
import { MAX_TOKEN_DAYS, TOKEN_PATTERN, TOKEN_PREFIX, type TOKEN_SCOPES } from '@portal/contract/names';

import { AuthError, classify } from './errors.js';
import type { Identity, Reader } from './identity.js';
import { SecretCache } from './secret-cache.js';

// The token's prefix (for secret scanners) and longest life are the API contract's.
export { MAX_TOKEN_DAYS, TOKEN_PATTERN, TOKEN_PREFIX };
/** Live (unrevoked, unexpired) tokens a reader may hold at once: one per assistant and machine, with room to rotate. */
export const MAX_LIVE_TOKENS = 10;

/** A reader who already holds MAX_LIVE_TOKENS live tokens asked for another. */
export class TooManyTokensError extends Error {
  constructor() {
    super(`You hold ${MAX_LIVE_TOKENS} live tokens, the most a reader may; revoke one first`);
  }
}

/** What a token is for: `read`, the agent surfaces; `admin`, the administration API and nothing else. */
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** A personal access token as stored, whose it is too (the contract's `AdminToken`): never its secret, only a hash of it. */
export type TokenRecord = AdminToken;

/** A token to store: its secret only as a hash. */
export interface NewToken {
  id: string;
  uid: string;
  email: string;
  name: string;
  hint: string;
  secretHash: string;
  expiresAt: Date;
  scope: TokenScope;
}

/** Where tokens are kept (db/tokens.ts keeps them in the portal's database). */
export interface TokenStore {
  /** Stores `token` unless its reader already holds `most` live ones at `now`: null then, and nothing stored. */
  insertWithin(most: number, now: Date, token: NewToken): Promise<TokenRecord | null>;
  byHash(secretHash: string): Promise<TokenRecord | null>;
  /** Marks a use at `at`; true when it is the token's first use of that day (UTC). */
  markUsed(id: string, at: Date): Promise<boolean>;
  /** Revokes a token (of `uid` only, unless null); the token, or null when there was none to revoke. */
  revoke(id: string, uid: string | null): Promise<TokenRecord | null>;
}

export type TokenCheck =
  | { ok: true; reader: Reader; token: TokenRecord; firstUseToday: boolean }
  | { ok: false; reason: 'malformed' | 'unknown' | 'expired' | 'revoked' | 'scope' | 'unavailable'; error?: AuthError };

const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/**
 * Personal access tokens: a reader's credential for their coding assistants, carrying
 * exactly that reader's access, checked live. Only a SHA-256 of each token is stored (a
 * token is 256 random bits, so no slow hash is needed). Each use checks the token (revoked?
 * expired?) and the reader's account as it is now (disabled? which groups?), both
 * remembered for at most the session cache's TTL; revoking a token forgets it at once here.
 */
export class TokenService {
  private readonly known: SecretCache<TokenRecord>;

  constructor(
    /** The store, or null while it is not ready. */
    private readonly tokenStore: () => TokenStore | null,
    private readonly identity: Identity,
    ttlSeconds: number,
    private readonly clock: () => number = () => Date.now(),
  ) {
    this.known = new SecretCache(ttlSeconds);
    // A token revoked on any replica is forgotten on every one (at once with Redis).
    identity.shared.onBroadcast(({ token: id }) => {
      if (id) this.known.forget((token) => token.id === id);
    });
  }

  private store(): TokenStore {
    const store = this.tokenStore();
    if (store === null) throw new AuthError('unavailable', { cause: new Error('the token store is not ready') });
    return store;
  }

  /** Makes a token for `reader`; the secret is returned this once and never again. */
  async create(
    reader: Reader,
    name: string,
    days: number,
    scope: TokenScope = 'read',
  ): Promise<{ token: string; record: TokenRecord }> {
    const secret = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
    const record = await this.store().insertWithin(MAX_LIVE_TOKENS, new Date(this.clock()), {
      id: randomUUID(),
      uid: reader.uid,
      email: reader.email,
      name,
      hint: `${secret.slice(0, TOKEN_PREFIX.length + 4)}…`,
      secretHash: hashOf(secret),
      expiresAt: new Date(this.clock() + Math.min(days, MAX_TOKEN_DAYS) * 86_400_000),
      scope,
    });
    if (record === null) throw new TooManyTokensError();
    return { token: secret, record };
  }

  /** Checks a token from an `Authorization: Bearer` header, on a surface that takes tokens of `scope`. */
  async check(secret: string, scope: TokenScope = 'read'): Promise<TokenCheck> {
    if (!TOKEN_PATTERN.test(secret)) return { ok: false, reason: 'malformed' };
    const hash = hashOf(secret);
    const found = await this.known.find(hash, () => this.store().byHash(hash));
    if (typeof found === 'string') return { ok: false, reason: found };
    let token = found.record;
    if (token.revokedAt !== null) return { ok: false, reason: 'revoked' };
    if (Date.parse(token.expiresAt) <= this.clock()) return { ok: false, reason: 'expired' };
    // An agent's token never administers, and an automation's admin token reads no documentation.
    if (token.scope !== scope) return { ok: false, reason: 'scope' };
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
      firstUseToday = await this.store()
        .markUsed(token.id, new Date(this.clock()))
        .catch(() => false);
      token = { ...token, lastUsedAt: new Date(this.clock()).toISOString() };
      this.known.set(hash, token);
    }
    return { ok: true, reader, token, firstUseToday };
  }

  /** Whether a token was checked good lately (and is not revoked or expired since): no refusal limit stands in its way. */
  isKnown(secret: string): boolean {
    if (!TOKEN_PATTERN.test(secret)) return false;
    const token = this.known.get(hashOf(secret));
    return token !== undefined && token.revokedAt === null && Date.parse(token.expiresAt) > this.clock();
  }

  /** Revokes a token (the reader's own unless `uid` is null: an administrator); it stops working here at once. */
  async revoke(id: string, uid: string | null): Promise<TokenRecord | null> {
    const revoked = await this.store().revoke(id, uid);
    if (revoked) await this.identity.shared.broadcast({ token: id });
    return revoked;
  }
}
