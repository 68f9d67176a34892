import { createHash } from 'node:crypto';

import { cert, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getAuth, type Auth } from 'firebase-admin/auth';
import { LRUCache } from 'lru-cache';

import type { IdentityConfig } from './config.js';

/** A reader the identity service vouches for. The portal reads only the e-mail (spec §3). */
export interface Reader {
  uid: string;
  email: string;
}

export type SessionCheck =
  | { state: 'valid'; reader: Reader }
  /** Expired, revoked, disabled, deleted, tampered, for another project: sign the reader out. */
  | { state: 'invalid'; reason: string }
  /** The identity service could not answer: fail closed without signing anyone out. */
  | { state: 'unavailable' };

export class IdentityUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The identity service could not be reached', { cause });
    this.name = 'IdentityUnavailableError';
  }
}

export class RejectedTokenError extends Error {
  constructor(
    readonly reason: string,
    readonly status: 401 | 403 = 401,
  ) {
    super(reason);
    this.name = 'RejectedTokenError';
  }
}

/**
 * Error codes that mean "this credential is no good". Anything else (network errors,
 * timeouts, internal errors, a broken service account) means the service could not decide.
 */
const REJECTIONS = new Set([
  'auth/argument-error',
  'auth/id-token-expired',
  'auth/id-token-revoked',
  'auth/invalid-id-token',
  'auth/session-cookie-expired',
  'auth/session-cookie-revoked',
  'auth/invalid-session-cookie',
  'auth/user-disabled',
  'auth/user-not-found',
  'auth/invalid-argument',
]);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

class TimeoutError extends Error {
  constructor(ms: number) {
    super(`The identity service did not answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(ms)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The Admin SDK reports a failure to fetch Google's public keys as `auth/argument-error`,
 * like a bad token; its message is the fetch error. That is the service being unreachable,
 * not the reader's cookie being wrong, so it must not sign anyone out.
 */
const KEY_FETCH_FAILURE =
  /fetching public keys|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|socket hang up|network|timed? ?out/i;

export function classify(error: unknown): RejectedTokenError | IdentityUnavailableError {
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : '';
  if (code && REJECTIONS.has(code) && !KEY_FETCH_FAILURE.test(message)) {
    return new RejectedTokenError(code.replace(/^auth\//, ''));
  }
  return new IdentityUnavailableError(error);
}

/** A sign-in older than this cannot start a session (Firebase's guidance for session cookies). */
export const RECENT_SIGN_IN_SECONDS = 5 * 60;

export interface IdentityOptions {
  config: IdentityConfig;
  sessionMaxAgeSeconds: number;
  cacheTtlSeconds: number;
  /** Longest wait for the identity service (the Admin SDK itself retries for several seconds). */
  timeoutMs?: number;
  /** Most cookies remembered at once; the least recently used are forgotten first. */
  cacheSize?: number;
  now?: () => number;
}

interface CachedSession {
  reader: Reader;
}

/**
 * Firebase Authentication through the Admin SDK, with the portal's rules: sessions start
 * only from a recent sign-in, every check of a cookie looks for revocation and disabled
 * accounts, and verified cookies are remembered for at most `cacheTtlSeconds` (never past
 * their own expiry) so that most requests never wait for the network.
 */
export class Identity {
  readonly app: App;
  readonly auth: Auth;
  private readonly cache: LRUCache<string, CachedSession>;
  private readonly keys = new LRUCache<string, string>({ max: 10_000 });
  /**
   * Cookies logged out on this server, until they expire. Firebase revokes by the second,
   * so a cookie minted in the same second as its logout would otherwise still pass.
   */
  private readonly ended: LRUCache<string, true>;
  private readonly now: () => number;

  constructor(private readonly options: IdentityOptions) {
    const { config } = options;
    if (config.emulatorHost) {
      // The Admin SDK takes the emulator from the environment only.
      process.env.FIREBASE_AUTH_EMULATOR_HOST = config.emulatorHost;
    }
    this.app = initializeApp(
      {
        projectId: config.projectId,
        ...(config.serviceAccountJson ? { credential: cert(JSON.parse(config.serviceAccountJson) as object) } : {}),
      },
      `portal-${Math.random().toString(36).slice(2)}`,
    );
    this.auth = getAuth(this.app);
    this.now = options.now ?? (() => Date.now());
    this.cache = new LRUCache<string, CachedSession>({
      max: options.cacheSize ?? 10_000,
      ttlAutopurge: false,
      perf: { now: () => this.now() },
    });
    this.ended = new LRUCache<string, true>({ max: 100_000, perf: { now: () => this.now() } });
  }

  private call<T>(promise: Promise<T>): Promise<T> {
    return withTimeout(promise, this.options.timeoutMs ?? 5000);
  }

  /** Cache key of a session cookie: its SHA-256, remembered for the cookies seen lately. */
  private key(cookie: string): string {
    let key = this.keys.get(cookie);
    if (key === undefined) {
      key = createHash('sha256').update(cookie).digest('base64url');
      this.keys.set(cookie, key);
    }
    return key;
  }

  /** Verifies a fresh ID token from the login page and mints a session cookie for it. */
  async startSession(idToken: string): Promise<{ cookie: string; reader: Reader }> {
    let decoded;
    try {
      decoded = await this.call(this.auth.verifyIdToken(idToken, true));
    } catch (error) {
      throw classify(error);
    }
    if (typeof decoded.email !== 'string' || decoded.email === '') {
      throw new RejectedTokenError('The account has no e-mail address', 403);
    }
    if (this.now() / 1000 - decoded.auth_time > RECENT_SIGN_IN_SECONDS) {
      throw new RejectedTokenError('Sign in again: the sign-in is not recent');
    }
    let cookie;
    try {
      cookie = await this.call(
        this.auth.createSessionCookie(idToken, { expiresIn: this.options.sessionMaxAgeSeconds * 1000 }),
      );
    } catch (error) {
      throw classify(error);
    }
    return { cookie, reader: { uid: decoded.uid, email: decoded.email } };
  }

  /** Checks a session cookie: signature, expiry, revocation, disabled or deleted account. */
  async checkSession(cookie: string): Promise<SessionCheck> {
    const key = this.key(cookie);
    if (this.ended.has(key)) return { state: 'invalid', reason: 'logged out' };
    const cached = this.cache.get(key);
    if (cached) return { state: 'valid', reader: cached.reader };
    try {
      const decoded = await this.call(this.auth.verifySessionCookie(cookie, true));
      if (typeof decoded.email !== 'string' || decoded.email === '') return { state: 'invalid', reason: 'no e-mail' };
      const reader = { uid: decoded.uid, email: decoded.email };
      const ttl = Math.min(this.options.cacheTtlSeconds * 1000, decoded.exp * 1000 - this.now());
      if (ttl > 0) this.cache.set(key, { reader }, { ttl });
      return { state: 'valid', reader };
    } catch (error) {
      const verdict = classify(error);
      if (verdict instanceof RejectedTokenError) return { state: 'invalid', reason: verdict.reason };
      return { state: 'unavailable' };
    }
  }

  /**
   * Ends a session: forgets every cached cookie of the reader at once and revokes their
   * refresh tokens, so every session cookie minted before now stops working everywhere.
   */
  async endSession(cookie: string): Promise<Reader | null> {
    const key = this.key(cookie);
    this.cache.delete(key);
    let decoded;
    try {
      // No revocation check: a reader whose session was already revoked may still log out.
      decoded = await this.call(this.auth.verifySessionCookie(cookie, false));
    } catch (error) {
      const verdict = classify(error);
      if (verdict instanceof RejectedTokenError) return null;
      throw verdict;
    }
    const untilExpiry = decoded.exp * 1000 - this.now();
    if (untilExpiry > 0) this.ended.set(key, true, { ttl: untilExpiry });
    for (const [key, value] of this.cache.entries()) if (value.reader.uid === decoded.uid) this.cache.delete(key);
    try {
      await this.call(this.auth.revokeRefreshTokens(decoded.uid));
    } catch (error) {
      throw classify(error);
    }
    return { uid: decoded.uid, email: decoded.email ?? '' };
  }

  get cachedSessions(): number {
    return this.cache.size;
  }

  async close(): Promise<void> {
    await deleteApp(this.app);
  }
}
