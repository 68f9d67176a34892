/**
 * One error model for everything that can happen to a credential: a sign-in token at
 * `POST /api/session` or a session cookie on a private request. Library errors (the
 * Firebase Admin SDK's `auth/…` codes, timeouts, network failures) are translated here
 * and nowhere else.
 */

export type AuthErrorCode =
  /** The cookie's gate signature does not match: changed or forged. */
  | 'bad-signature'
  /** Not a token of this project, tampered, or not a token at all. */
  | 'malformed'
  | 'expired'
  /** Signed out everywhere (logout, password change, an administrator) after it was issued. */
  | 'revoked'
  | 'disabled'
  | 'deleted'
  /** The sign-in behind an ID token is older than a session may start from. */
  | 'not-recent'
  | 'no-email'
  /** The account is in no reader group: the door is closed. */
  | 'no-access'
  /** The reader's organisation signs its readers in with its own provider, and this sign-in used another way. */
  | 'sso-required'
  /** An OIDC or SAML provider that is not the one of the reader's organisation vouched for them. */
  | 'wrong-provider'
  /** The identity service could not answer: fail closed without signing anyone out. */
  | 'unavailable';

/** What the reader (or their browser) is told; never the library's own message. */
export const AUTH_ERROR_MESSAGES: Readonly<Record<AuthErrorCode, string>> = {
  'bad-signature': 'The session is not valid. Sign in again.',
  malformed: 'The sign-in could not be verified. Sign in again.',
  expired: 'The sign-in has expired. Sign in again.',
  revoked: 'This sign-in was ended (signed out or password changed). Sign in again.',
  disabled: 'This account has been disabled.',
  deleted: 'This account no longer exists.',
  'not-recent': 'Sign in again: the sign-in is not recent.',
  'no-email': 'This account has no e-mail address, so it cannot be given access.',
  'no-access': 'This account has no access to the portal.',
  'sso-required': 'Your organisation signs you in with its own single sign-on; use it instead of a password.',
  'wrong-provider': 'This single sign-on is not the one of your organisation; sign in with your own.',
  unavailable: 'The sign-in service is not answering; try again shortly.',
};

/** HTTP status of a refused sign-in at `POST /api/session`. */
export const SIGN_IN_STATUS: Readonly<Record<AuthErrorCode, 401 | 403 | 503>> = {
  'bad-signature': 401,
  malformed: 401,
  expired: 401,
  revoked: 401,
  disabled: 401,
  deleted: 401,
  'not-recent': 401,
  'no-email': 403,
  'no-access': 403,
  'sso-required': 403,
  'wrong-provider': 403,
  unavailable: 503,
};

export class AuthError extends Error {
  /** The account's e-mail, when known: a refused reader is told who they are signed in as. */
  readonly email: string | null;
  /** The account, when the credential was genuine: for the audit trail. */
  readonly uid: string | null;

  constructor(
    readonly code: AuthErrorCode,
    options?: { cause?: unknown; email?: string | null; uid?: string | null; message?: string },
  ) {
    super(options?.message ?? AUTH_ERROR_MESSAGES[code], options);
    this.name = 'AuthError';
    this.email = options?.email ?? null;
    this.uid = options?.uid ?? null;
  }

  /** Whether the reader must be signed out (everything but an unreachable service). */
  get signsOut(): boolean {
    return this.code !== 'unavailable';
  }
}

const BY_FIREBASE_CODE: Readonly<Record<string, AuthErrorCode>> = {
  'auth/id-token-expired': 'expired',
  'auth/session-cookie-expired': 'expired',
  'auth/id-token-revoked': 'revoked',
  'auth/session-cookie-revoked': 'revoked',
  'auth/user-disabled': 'disabled',
  'auth/user-not-found': 'deleted',
  'auth/argument-error': 'malformed',
  'auth/invalid-id-token': 'malformed',
  'auth/invalid-session-cookie': 'malformed',
  'auth/invalid-argument': 'malformed',
};

/**
 * The Admin SDK reports a failure to fetch Google's public keys as `auth/argument-error`,
 * like a bad token; its message is the fetch error. That is the service being unreachable,
 * not the reader's credential being wrong, so it must not sign anyone out.
 */
const KEY_FETCH_FAILURE =
  /fetching public keys|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|socket hang up|network|timed? ?out/i;

/** Translates whatever the identity library threw into the portal's error model. */
export function classify(error: unknown): AuthError {
  if (error instanceof AuthError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  const known = typeof code === 'string' ? BY_FIREBASE_CODE[code] : undefined;
  if (known && !KEY_FETCH_FAILURE.test(message)) return new AuthError(known, { cause: error });
  return new AuthError('unavailable', { cause: error });
}
