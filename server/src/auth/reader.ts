import type { ViewClient } from '../db/page-views.js';
import { AuthError } from './errors.js';
import type { Identity, Reader, SessionCheck } from './identity.js';
import type { OAuthServer } from './oauth.js';
import { TOKEN_PATTERN, type TokenCheck, type TokenScope, type TokenService } from './tokens.js';

type TokenRefusal = Exclude<Extract<TokenCheck, { ok: false }>['reason'], 'unavailable'>;

/**
 * Who is behind a request, in one shape for every surface: a reader (with how they came:
 * their session cookie or a personal access token), nobody, a credential refused and why,
 * or no answer from the identity service or the token store.
 */
export type ReaderOutcome =
  | { kind: 'reader'; via: 'session'; reader: Reader }
  | {
      kind: 'reader';
      via: 'token';
      reader: Reader;
      token: { id: string; name: string };
      /** The token's first use of the day (UTC): the trail records one use a day. */
      firstUseToday: boolean;
    }
  | {
      kind: 'reader';
      via: 'oauth';
      reader: Reader;
      /** The client the reader authorised (its registered name), and the grant the token is of. */
      client: { id: string; name: string };
      grantId: string;
    }
  | { kind: 'anonymous' }
  /** A session that is no good any more: its reader is signed out (`error.uid` names a real account). */
  | { kind: 'refused'; via: 'session'; error: AuthError }
  | { kind: 'refused'; via: 'token' | 'oauth'; reason: TokenRefusal }
  | { kind: 'unavailable'; via: 'session' | 'token' | 'oauth' };

/** What a request offers: its session cookie, and its bearer token when the surface takes one. */
export interface Credentials {
  cookie?: string;
  /** The `Authorization` header's token; null when the header is there but not `Bearer <token>`. */
  bearer?: string | null;
  /** The scope of personal token the surface takes (`read` unless it is the administration API). */
  tokenScope?: TokenScope;
  /** The session cache's answer when the caller already looked (the gate's fast path): no second look. */
  cached?: Reader | null;
  /** The origin of a surface that takes OAuth access tokens (/mcp): a bearer that is no personal token is one. */
  oauthOrigin?: string;
}

/**
 * The assistant behind a reader outcome, for the insights: a personal token's name or the
 * OAuth client's; null for a session (the reader's own reading) and anything but a reader.
 */
export function clientOf(outcome: ReaderOutcome): ViewClient | null {
  if (outcome.kind !== 'reader') return null;
  if (outcome.via === 'token') return { kind: 'token', name: outcome.token.name };
  if (outcome.via === 'oauth') return { kind: 'oauth', name: outcome.client.name };
  return null;
}

/**
 * The token of an `Authorization` header: `Bearer <token>` with the scheme in any case and any
 * whitespace between (RFC 9110 §11.1), or null for any other header.
 */
export function bearerToken(header: string | undefined): string | null {
  return (header === undefined ? null : /^\s*bearer\s+(\S+)\s*$/i.exec(header)?.[1]) ?? null;
}

/**
 * Resolves a request's credentials to a reader, looking each credential up once: a token
 * (when offered) in the token store, else the session cookie in the cache of verified
 * cookies and, on a miss, with the identity service. No side effects: `request.reader`
 * (plugins/app/reader.ts) settles each outcome, signing a refused session out.
 */
export class ReaderResolver {
  /** The verifications under way, by cookie. */
  private readonly verifying = new Map<string, Promise<SessionCheck>>();

  constructor(
    private readonly identity: Identity,
    private readonly tokens: TokenService,
    private readonly oauth: OAuthServer | null,
    /** Told of each session look-up (a cache hit or not) and each answer of the identity service, for the metrics. */
    private readonly observe: {
      sessionLookup?(hit: boolean): void;
      identityAnswer?(outcome: 'ok' | 'refused' | 'error'): void;
    } = {},
  ) {}

  async resolve(credentials: Credentials): Promise<ReaderOutcome> {
    if (credentials.bearer !== undefined) {
      if (credentials.bearer === null) return { kind: 'refused', via: 'token', reason: 'malformed' };
      if (credentials.oauthOrigin !== undefined && this.oauth !== null && !TOKEN_PATTERN.test(credentials.bearer)) {
        const grant = await this.oauth.check(credentials.bearer, credentials.oauthOrigin);
        if (grant.ok)
          return { kind: 'reader', via: 'oauth', reader: grant.reader, client: grant.client, grantId: grant.grantId };
        return grant.reason === 'unavailable'
          ? { kind: 'unavailable', via: 'oauth' }
          : { kind: 'refused', via: 'oauth', reason: grant.reason };
      }
      const check = await this.tokens.check(credentials.bearer, credentials.tokenScope ?? 'read');
      if (check.ok)
        return {
          kind: 'reader',
          via: 'token',
          reader: check.reader,
          token: { id: check.token.id, name: check.token.name },
          firstUseToday: check.firstUseToday,
        };
      return check.reason === 'unavailable'
        ? { kind: 'unavailable', via: 'token' }
        : { kind: 'refused', via: 'token', reason: check.reason };
    }
    const cookie = credentials.cookie;
    if (!cookie) return { kind: 'anonymous' };
    const cached = credentials.cached === undefined ? this.identity.cachedReader(cookie) : credentials.cached;
    this.observe.sessionLookup?.(cached !== undefined && cached !== null);
    if (cached) return { kind: 'reader', via: 'session', reader: cached };
    const check = await this.verifyOnce(cookie);
    if (check.ok) return { kind: 'reader', via: 'session', reader: check.reader };
    return check.error.signsOut
      ? { kind: 'refused', via: 'session', error: check.error }
      : { kind: 'unavailable', via: 'session' };
  }

  /**
   * Verifies a cookie the cache does not hold, once however many requests bring it at the
   * same time: a page's files, or the search's, asked together as a session's cache entry runs
   * out, wait for one answer of the identity service instead of asking it each.
   */
  private verifyOnce(cookie: string): Promise<SessionCheck> {
    let check = this.verifying.get(cookie);
    if (check === undefined) {
      check = this.identity.verifySession(cookie).then((answer) => {
        this.observe.identityAnswer?.(answer.ok ? 'ok' : answer.error.signsOut ? 'refused' : 'error');
        return answer;
      });
      this.verifying.set(cookie, check);
      const forget = (): void => void this.verifying.delete(cookie);
      check.then(forget, forget);
    }
    return check;
  }
}
