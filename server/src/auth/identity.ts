import { sign, unsign } from 'cookie-signature';
import type { Auth, DecodedIdToken, UserRecord } from 'firebase-admin/auth';
import { LRUCache } from 'lru-cache';

import { groupsOfAccount, unitsOfGroups } from '@portal/access';

import type { IdentityConfig } from '../config.js';
import { sharedState, type SharedState } from '../shared.js';
import { AuthError, classify } from './errors.js';
import { firebaseAuth } from './firebase.js';
import { signInRefusal, type AccountAccess, type ReaderAccess } from './licences.js';
import type { OrganisationSignIn } from '../db/licences.js';

/** A reader the identity service vouches for, with the groups the access policy gives them. */
export interface Reader {
  uid: string;
  email: string;
  /** The policy's groups and the administrators' groups the reader is a member of; may be empty. */
  groups: readonly string[];
  /**
   * The access units the reader holds (their groups' and their organisation's live
   * licences'): what every surface checks a file's label against. Never empty: an account
   * without a unit gets no session.
   */
  units: readonly string[];
  /** The reader's organisation (an id), when they belong to one. */
  organisation?: string | null;
}

/** The outcome of checking a session cookie: a reader, or why not. */
export type SessionCheck = { ok: true; reader: Reader } | { ok: false; error: AuthError };

/** A sign-in older than this cannot start a session (Firebase's guidance for session cookies). */
export const RECENT_SIGN_IN_SECONDS = 5 * 60;

export interface IdentityOptions {
  config: IdentityConfig;
  /** The key the gate signs its cookie with, on top of Firebase's own signature. */
  secret: string;
  sessionMaxAgeSeconds: number;
  /** How long a verified cookie is trusted without asking the identity service again. */
  cacheTtlSeconds: number;
  /** Longest wait for the identity service (the Admin SDK itself retries for several seconds). */
  timeoutMs?: number;
  /** Most cookies remembered at once; the least recently used are forgotten first. */
  cacheSize?: number;
  /** The clock, in milliseconds: injected so that expiry is testable without patching `Date.now`. */
  clock?: () => number;
  /** What replicas share (revocations, the broadcast that drops cached sessions); this process alone by default. */
  shared?: SharedState;
  /** Who reads which unit (organisations, licences, groups as data); the policy's groups alone by default. */
  access?: {
    unitsOf(account: AccountAccess): ReaderAccess;
    readonly version: number;
    /** The sign-in of the organisation at an e-mail's domain (`Licences.signInOf`). */
    signInOf?(email: string): (OrganisationSignIn & { organisation: string }) | null;
  };
}

/** What a reader refused by their organisation's sign-in is told: how to sign in instead. */
export function signInMessage(
  refusal: 'sso-required' | 'wrong-provider',
  rule: (OrganisationSignIn & { organisation: string }) | null,
): string {
  if (rule === null) return 'This single sign-on does not vouch for your e-mail address; sign in with your password.';
  const how = `enter your e-mail on the sign-in page and choose “Continue with ${rule.name}”`;
  return refusal === 'sso-required'
    ? `${rule.organisation} signs its readers in with ${rule.name}, not a password: ${how}.`
    : `Readers at ${rule.organisation} sign in with ${rule.name}: ${how}.`;
}

interface VerifiedSession {
  /** The cookie as the browser sent it: a look-up by its signature is a hit only when the whole cookie is this. */
  cookie: string;
  reader: Reader;
  /** The access data's version the reader's units were worked out at (`Licences.version`). */
  version: number;
}

/** The length of the gate's signature at a session cookie's end: HMAC-SHA256 in base64 without padding. */
const SIGNATURE_CHARS = 43;

/**
 * The key of a verified cookie in the cache: its last 43 characters, the gate's HMAC
 * signature. V8 hashes every new string used as a key, about 1 ns per character, and the
 * whole cookie is 648 characters with the Auth Emulator and more with a real project (an
 * RS256 signature alone is 342); in one profile, hashing it was 1.1 µs of the 3.3 µs by
 * which a private page cost the gate more than Node's bare `http`. The signature is as
 * unique, and a hit still compares the whole cookie (`VerifiedSession.cookie`), which takes
 * no hash. The key is cut at a fixed length, not at the last dot: V8's `lastIndexOf` reads
 * the cookie in its runtime, about 200 ns a call against 30 for the cut (a loop of fresh
 * 700-character strings, as the HTTP parser makes them). Any cookie gets a key, and a
 * cookie that is not the one cached under it is a miss whatever its form.
 */
function sessionKey(cookie: string): string {
  return cookie.length > SIGNATURE_CHARS ? cookie.slice(cookie.length - SIGNATURE_CHARS) : cookie;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(Object.assign(new Error(`The identity service did not answer within ${ms} ms`), { code: 'timeout' })),
      ms,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const seconds = (utc: string | undefined): number => (utc ? Math.floor(Date.parse(utc) / 1000) : 0);

/** The claims of a JWT, read without checking anything: only for naming a subject already vouched for. */
function unverifiedClaims(jwt: string): Record<string, unknown> {
  try {
    return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The policy's groups alone: a gate without the database's organisations and licences (tests). */
const policyAccess = {
  unitsOf: (account: AccountAccess): ReaderAccess => ({
    groups: account.groups,
    units: unitsOfGroups(account.groups),
    organisation: null,
  }),
  version: 0,
};

/**
 * Firebase Authentication through the Admin SDK, with the portal's rules:
 * - a session starts only from a recent sign-in of an account with a reader group;
 * - every check of a cookie reads the account as it is now (disabled, deleted, revoked,
 *   its groups), so a change takes effect once the cached verdict expires;
 * - one cache of verified cookies (found by the gate's signature, a hit only for the whole
 *   cookie as sent, holding the reader and their groups), kept at most `cacheTtlSeconds`
 *   and never past the cookie's expiry;
 * - Firebase revokes by the whole second, so a token issued in the same second as a
 *   revocation would survive it; this refuses every token issued at or before the second
 *   of the last revocation it knows of.
 *
 * No web-framework code here: the gate server (app.ts) depends on this, never the reverse.
 */
export class Identity {
  readonly auth: Auth;
  private readonly closeApp: () => Promise<void>;
  private readonly sessions: LRUCache<string, VerifiedSession>;
  /** uid → the reader as the identity service last described them, for token checks. */
  private readonly accounts: LRUCache<string, { reader: Reader; version: number }>;
  /** The account behind each reader made here, to work out its units again when the access data changes. */
  private readonly accountOf = new WeakMap<Reader, AccountAccess>();
  /** Revocations made by the gate (logout), and the broadcast that drops cached sessions everywhere. */
  readonly shared: SharedState;
  private readonly clock: () => number;

  constructor(private readonly options: IdentityOptions) {
    // The process entry (server.ts) or the test harness points the SDK at the emulator; this never writes process.env.
    const { auth, close } = firebaseAuth(options.config);
    this.auth = auth;
    this.closeApp = close;
    this.clock = options.clock ?? (() => Date.now());
    // Expiry read from the injected clock at every look-up (no cached "now" between calls).
    const clockOptions = { perf: { now: () => this.clock() }, ttlResolution: 0 };
    this.sessions = new LRUCache<string, VerifiedSession>({ max: options.cacheSize ?? 10_000, ...clockOptions });
    this.accounts = new LRUCache<string, { reader: Reader; version: number }>({
      max: options.cacheSize ?? 10_000,
      ttl: Math.max(options.cacheTtlSeconds, 0) * 1000 || 1,
      ...clockOptions,
    });
    this.shared = options.shared ?? sharedState(null, { warn: () => undefined });
    this.shared.onBroadcast(({ reader }) => {
      if (reader) this.forgetLocally(reader);
    });
  }

  private get access(): NonNullable<IdentityOptions['access']> {
    return this.options.access ?? policyAccess;
  }

  /** The reader of an account the identity service vouches for: its e-mail, groups and units. */
  private readerOfUser(user: UserRecord, signInProvider?: string): Reader {
    const who = { uid: user.uid, email: user.email ?? null };
    if (!user.email) throw new AuthError('no-email', who);
    const groups = groupsOfAccount({
      email: user.email,
      emailVerified: user.emailVerified,
      claims: user.customClaims ?? null,
    });
    const account = {
      email: user.email,
      emailVerified: user.emailVerified,
      groups,
      ...(signInProvider === undefined ? {} : { signInProvider }),
    };
    const reader = this.withUnits(user.uid, account);
    if (reader === null) throw new AuthError('no-access', who);
    return reader;
  }

  /** A reader with the units the access data gives the account now, or null when it gives none. */
  private withUnits(uid: string, account: AccountAccess): Reader | null {
    const access = this.access.unitsOf(account);
    if (access.units.length === 0) return null;
    const reader = {
      uid,
      email: account.email,
      groups: access.groups,
      units: access.units,
      organisation: access.organisation,
    };
    this.accountOf.set(reader, account);
    return reader;
  }

  /**
   * A cached reader as the access data has them now: the same object while the data has
   * not changed (one comparison on the hot path); after a grant, a withdrawal or a licence's
   * end, their units worked out again without asking the identity service, or null when
   * they hold none any more.
   */
  private current(entry: { reader: Reader; version: number }): Reader | null {
    const version = this.access.version;
    if (entry.version === version) return entry.reader;
    const account = this.accountOf.get(entry.reader);
    const reader = account === undefined ? null : this.withUnits(entry.reader.uid, account);
    if (reader === null) return null;
    entry.reader = reader;
    entry.version = version;
    return reader;
  }

  private call<T>(promise: Promise<T>): Promise<T> {
    return withTimeout(promise, this.options.timeoutMs ?? 5000);
  }

  /**
   * The reader behind a token, from the account as it is now. Throws an AuthError when the
   * account is disabled, revoked since the token, without e-mail or without a group.
   */
  private async readerOfAccount(decoded: DecodedIdToken): Promise<Reader> {
    let user: UserRecord;
    try {
      user = await this.call(this.auth.getUser(decoded.uid));
    } catch (error) {
      const verdict = classify(error);
      throw verdict.code === 'deleted' ? new AuthError('deleted', { uid: decoded.uid, email: decoded.email }) : verdict;
    }
    const who = { uid: user.uid, email: user.email ?? null };
    if (user.disabled) throw new AuthError('disabled', who);
    // Firebase sets "valid since" to the creation second for a new account; any later value
    // is a revocation. Refuse what was issued in that very second too.
    const validSince = seconds(user.tokensValidAfterTime);
    const revokedSecond = Math.max(
      validSince > seconds(user.metadata.creationTime) ? validSince : 0,
      (await this.shared.revokedAt(user.uid)) ?? 0,
    );
    if (decoded.auth_time <= revokedSecond) throw new AuthError('revoked', who);
    // The organisation's own sign-in, with a message that says how to sign in instead.
    const provider = decoded.firebase.sign_in_provider;
    if (user.email && this.access.signInOf) {
      const rule = this.access.signInOf(user.email);
      const refusal = signInRefusal(rule, provider);
      if (refusal) throw new AuthError(refusal, { ...who, message: signInMessage(refusal, rule) });
    }
    return this.readerOfUser(user, provider);
  }

  /**
   * Verifies a fresh ID token from the login page and mints a session cookie for it, signed
   * by the gate. Throws an AuthError saying why not. `email` is the token's e-mail, so a
   * refused account can be told who it is.
   */
  async startSession(idToken: string): Promise<{ cookie: string; reader: Reader }> {
    let decoded: DecodedIdToken;
    try {
      decoded = await this.call(this.auth.verifyIdToken(idToken, false));
    } catch (error) {
      throw classify(error);
    }
    if (this.clock() / 1000 - decoded.auth_time > RECENT_SIGN_IN_SECONDS) throw new AuthError('not-recent');
    const reader = await this.readerOfAccount(decoded);
    let cookie: string;
    try {
      cookie = await this.call(
        this.auth.createSessionCookie(idToken, { expiresIn: this.options.sessionMaxAgeSeconds * 1000 }),
      );
    } catch (error) {
      throw classify(error);
    }
    return { cookie: sign(cookie, this.options.secret), reader };
  }

  /**
   * The reader of a cookie verified within the cache's TTL, without waiting: the gate's hot
   * path for private files. Undefined when it must be checked (`verifySession`, through
   * ReaderResolver, which asks once for requests that bring the same cookie together).
   */
  cachedReader(cookie: string): Reader | undefined {
    const key = sessionKey(cookie);
    const cached = this.sessions.get(key);
    if (cached === undefined || cached.cookie !== cookie) return undefined;
    const reader = this.current(cached);
    if (reader === null) this.sessions.delete(key);
    return reader ?? undefined;
  }

  /**
   * Verifies a session cookie that is not in the cache (the caller looked): gate signature,
   * Firebase's, and the account now; a verified cookie is cached.
   */
  async verifySession(cookie: string): Promise<SessionCheck> {
    const unsigned = unsign(cookie, this.options.secret);
    if (!unsigned) return { ok: false, error: new AuthError('bad-signature') };
    try {
      const decoded = await this.call(this.auth.verifySessionCookie(unsigned, false));
      // The data's version before the units are worked out: a change meanwhile is seen at the next look-up.
      const version = this.access.version;
      const reader = await this.readerOfAccount(decoded);
      const ttl = Math.min(this.options.cacheTtlSeconds * 1000, decoded.exp * 1000 - this.clock());
      if (ttl > 0) this.sessions.set(sessionKey(cookie), { cookie, reader, version }, { ttl });
      return { ok: true, reader };
    } catch (error) {
      const verdict = classify(error);
      // The Admin SDK itself refuses a disabled or revoked account's cookie in some modes
      // (always with the emulator) and then names nobody. The gate's own signature proves
      // this cookie was minted here for a real account, so its subject is named in the error,
      // for the audit trail.
      if (verdict.uid === null && ['disabled', 'revoked', 'deleted'].includes(verdict.code)) {
        const claims = unverifiedClaims(unsigned);
        if (typeof claims.sub === 'string')
          return {
            ok: false,
            error: new AuthError(verdict.code, {
              cause: verdict.cause,
              uid: claims.sub,
              email: typeof claims.email === 'string' ? claims.email : null,
            }),
          };
      }
      return { ok: false, error: verdict };
    }
  }

  /**
   * The reader of an account as it is now (disabled? its e-mail and groups), for a personal
   * access token: the token carries no groups, the account does. Remembered for at most the
   * cache's TTL, like a verified cookie. Throws an AuthError when the account may not read.
   */
  async readerByUid(uid: string): Promise<Reader> {
    const known = this.accounts.get(uid);
    const current = known && this.current(known);
    if (current) return current;
    let user: UserRecord;
    try {
      user = await this.call(this.auth.getUser(uid));
    } catch (error) {
      throw classify(error);
    }
    if (user.disabled) throw new AuthError('disabled', { uid: user.uid, email: user.email ?? null });
    const version = this.access.version;
    const reader = this.readerOfUser(user);
    if (this.options.cacheTtlSeconds > 0) this.accounts.set(uid, { reader, version });
    return reader;
  }

  /**
   * Forgets every verified cookie and account of a reader on every replica (through the
   * shared state's broadcast), so their next request asks the identity service.
   */
  async forgetReader(uid: string): Promise<void> {
    await this.shared.broadcast({ reader: uid });
  }

  /** Forgets a reader's cached sessions on this replica only. */
  forgetLocally(uid: string): number {
    this.accounts.delete(uid);
    let forgotten = 0;
    for (const [key, value] of this.sessions.entries()) {
      if (value.reader.uid === uid) {
        this.sessions.delete(key);
        forgotten += 1;
      }
    }
    return forgotten;
  }

  /**
   * Ends a session: forgets every cached cookie of the reader at once and revokes their
   * refresh tokens, so every session cookie minted before now stops working everywhere.
   * Returns the reader, or null for a cookie that was no good anyway.
   */
  async endSession(cookie: string): Promise<{ uid: string; email: string } | null> {
    const unsigned = unsign(cookie, this.options.secret);
    if (!unsigned) return null;
    let decoded: DecodedIdToken;
    try {
      // No revocation check: a reader whose session was already revoked may still log out.
      decoded = await this.call(this.auth.verifySessionCookie(unsigned, false));
    } catch (error) {
      const verdict = classify(error);
      if (verdict.signsOut) return null;
      throw verdict;
    }
    await this.shared.setRevokedAt(decoded.uid, Math.floor(this.clock() / 1000), this.options.sessionMaxAgeSeconds);
    await this.forgetReader(decoded.uid);
    try {
      await this.call(this.auth.revokeRefreshTokens(decoded.uid));
    } catch (error) {
      throw classify(error);
    }
    return { uid: decoded.uid, email: decoded.email ?? '' };
  }

  get cachedSessions(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    await this.closeApp();
  }
}
