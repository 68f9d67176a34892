/**
 * Sign-in for the /login page: the Firebase JS SDK proves who the reader is, the gate
 * server turns that proof into its own session cookie. The SDK is imported dynamically
 * here and nowhere else, so it is fetched only when the login form asks for it and no
 * other page's chunks contain any of it.
 */
import type { Auth, AuthProvider as FirebaseAuthProvider, User, UserCredential } from 'firebase/auth';

import { firebaseErrorCode, NoAccessError, PortalSignInError } from './errors';
import { SESSION_PATH } from './session-store';

export const AUTH_CONFIG_PATH = '/api/auth-config';

/** What `GET /api/auth-config` answers: the public Firebase web config. */
export interface AuthConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  /** The Auth Emulator's URL in development and tests, null in production. */
  emulatorUrl: string | null;
}

/** The SDK functions the login page uses, bound to one Auth instance. */
interface LoginAuth {
  auth: Auth;
  config: AuthConfig;
  signInWithEmailAndPassword: (auth: Auth, email: string, password: string) => Promise<UserCredential>;
  signInWithPopup: (auth: Auth, provider: FirebaseAuthProvider) => Promise<UserCredential>;
  signInWithRedirect: (auth: Auth, provider: FirebaseAuthProvider) => Promise<never>;
  getRedirectResult: (auth: Auth) => Promise<UserCredential | null>;
  sendPasswordResetEmail: (auth: Auth, email: string) => Promise<void>;
  verifyPasswordResetCode: (auth: Auth, code: string) => Promise<string>;
  confirmPasswordReset: (auth: Auth, code: string, password: string) => Promise<void>;
  applyActionCode: (auth: Auth, code: string) => Promise<void>;
  newGitHubProvider: () => FirebaseAuthProvider;
  /** An organisation's own provider: `oidc.…` through OAuthProvider, `saml.…` through SAMLAuthProvider. */
  newOrganisationProvider: (providerId: string) => FirebaseAuthProvider;
  signOut: (auth: Auth) => Promise<void>;
}

const UNAVAILABLE = 'Sign-in is not available right now. Try again in a moment.';
const UNREACHABLE = 'Could not reach the portal. Check your connection and try again.';

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** The config from the server's answer, or null when it is not the expected shape. */
export function parseAuthConfig(body: unknown): AuthConfig | null {
  if (typeof body !== 'object' || body === null) return null;
  const { apiKey, authDomain, projectId, emulatorUrl } = body as Record<string, unknown>;
  if (!isNonEmptyString(apiKey) || !isNonEmptyString(authDomain) || !isNonEmptyString(projectId)) return null;
  if (emulatorUrl !== null && emulatorUrl !== undefined && !isNonEmptyString(emulatorUrl)) return null;
  return { apiKey, authDomain, projectId, emulatorUrl: emulatorUrl ?? null };
}

/** fetch() for the portal's own endpoints: a network failure becomes a message to show. */
async function portalFetch(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, { credentials: 'same-origin', cache: 'no-store', ...init });
  } catch {
    throw new PortalSignInError(UNREACHABLE, null);
  }
}

async function fetchAuthConfig(): Promise<AuthConfig> {
  const response = await portalFetch(AUTH_CONFIG_PATH, { headers: { Accept: 'application/json' } });
  const config = response.ok ? parseAuthConfig(await response.json().catch(() => null)) : null;
  if (config === null) throw new PortalSignInError(UNAVAILABLE, response.status);
  return config;
}

async function createLoginAuth(): Promise<LoginAuth> {
  // Only the named functions are taken from each module, so the bundler can leave out the
  // rest of the SDK (phone sign-in, reCAPTCHA, the persistent storages).
  const [config, { initializeApp }, sdk] = await Promise.all([
    fetchAuthConfig(),
    import('firebase/app').then(({ initializeApp }) => ({ initializeApp })),
    import('firebase/auth').then(
      ({
        applyActionCode,
        browserPopupRedirectResolver,
        confirmPasswordReset,
        connectAuthEmulator,
        getRedirectResult,
        GithubAuthProvider,
        initializeAuth,
        inMemoryPersistence,
        OAuthProvider,
        SAMLAuthProvider,
        sendPasswordResetEmail,
        signInWithEmailAndPassword,
        signInWithPopup,
        signInWithRedirect,
        signOut,
        verifyPasswordResetCode,
      }) => ({
        applyActionCode,
        browserPopupRedirectResolver,
        confirmPasswordReset,
        connectAuthEmulator,
        getRedirectResult,
        GithubAuthProvider,
        initializeAuth,
        inMemoryPersistence,
        OAuthProvider,
        SAMLAuthProvider,
        sendPasswordResetEmail,
        signInWithEmailAndPassword,
        signInWithPopup,
        signInWithRedirect,
        signOut,
        verifyPasswordResetCode,
      }),
    ),
  ]);
  const app = initializeApp(
    { apiKey: config.apiKey, authDomain: config.authDomain, projectId: config.projectId },
    'portal-login',
  );
  // In-memory persistence: the gate server keeps the session in its HttpOnly cookie, so the
  // browser stores no Firebase user or token (no IndexedDB, localStorage or sessionStorage).
  // initializeAuth, unlike getAuth, sets up no popup support by itself: GitHub needs it.
  const auth = sdk.initializeAuth(app, {
    persistence: sdk.inMemoryPersistence,
    popupRedirectResolver: sdk.browserPopupRedirectResolver,
  });
  if (config.emulatorUrl !== null) sdk.connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });
  return {
    auth,
    config,
    signInWithEmailAndPassword: sdk.signInWithEmailAndPassword,
    signInWithPopup: sdk.signInWithPopup,
    signInWithRedirect: sdk.signInWithRedirect,
    getRedirectResult: sdk.getRedirectResult,
    sendPasswordResetEmail: sdk.sendPasswordResetEmail,
    verifyPasswordResetCode: sdk.verifyPasswordResetCode,
    confirmPasswordReset: sdk.confirmPasswordReset,
    applyActionCode: sdk.applyActionCode,
    newGitHubProvider: () => new sdk.GithubAuthProvider(),
    newOrganisationProvider: (providerId) =>
      providerId.startsWith('saml.') ? new sdk.SAMLAuthProvider(providerId) : new sdk.OAuthProvider(providerId),
    signOut: sdk.signOut,
  };
}

let loginAuth: Promise<LoginAuth> | null = null;

/** The SDK, loaded and set up once; a failed attempt is forgotten so the next one retries. */
function loadLoginAuth(): Promise<LoginAuth> {
  loginAuth ??= createLoginAuth().catch((error: unknown) => {
    loginAuth = null;
    throw error;
  });
  return loginAuth;
}

/**
 * Starts fetching the SDK and the config while the reader types, so that the GitHub popup
 * can open straight from the click (browsers block pop-ups opened long after one).
 * Failures are silent here; the sign-in that needs the SDK reports them.
 */
export function prepareSignIn(): void {
  loadLoginAuth().catch(() => undefined);
}

// An e-mail address as the server may name it: one line, with an @, of a sane length.
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/**
 * The server's reason for refusing a session (`POST /api/session` answered `status` with
 * `body`), as the error to show: a NoAccessError for an account without reader groups
 * (403 with `code: "no-access"`), else the reason in words.
 */
export function parseSessionRefusal(status: number, body: unknown): PortalSignInError {
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  if (status === 403 && fields.code === 'no-access') {
    const email = typeof fields.email === 'string' && EMAIL.test(fields.email.trim()) ? fields.email.trim() : null;
    return new NoAccessError(email);
  }
  const reason = isNonEmptyString(fields.error) ? fields.error.trim().slice(0, 200) : null;
  if (reason) return new PortalSignInError(`Sign-in was refused: ${reason}`, status);
  if (status === 429) return new PortalSignInError('Too many sign-in attempts. Wait a minute, then try again.', status);
  if (status === 401) return new PortalSignInError('Sign-in could not be confirmed. Sign in again.', 401);
  return new PortalSignInError(UNAVAILABLE, status);
}

async function sessionRefusal(response: Response): Promise<PortalSignInError> {
  return parseSessionRefusal(response.status, await response.json().catch(() => null));
}

/** Trades the Firebase user's fresh ID token for the gate server's session cookie. */
async function startSession(login: LoginAuth, user: User): Promise<string> {
  try {
    const idToken = await user.getIdToken();
    const response = await portalFetch(SESSION_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ idToken }),
    });
    if (!response.ok) throw await sessionRefusal(response);
    const body: unknown = await response.json().catch(() => null);
    const email = typeof body === 'object' && body !== null && 'email' in body ? body.email : null;
    return isNonEmptyString(email) ? email : (user.email ?? '');
  } finally {
    // The session lives in the server's cookie from here on (or was refused): drop the
    // SDK's in-memory user either way, so no token lingers in this page.
    await login.signOut(login.auth).catch(() => undefined);
  }
}

/** Signs in with e-mail and password; resolves to the session's e-mail. */
export async function signInWithEmail(email: string, password: string): Promise<string> {
  const login = await loadLoginAuth();
  const { user } = await login.signInWithEmailAndPassword(login.auth, email, password);
  return startSession(login, user);
}

/**
 * Signs in through GitHub in the SDK's popup (500×600, centred on the window); resolves
 * to the session's e-mail.
 */
export async function signInWithGitHub(): Promise<string> {
  const login = await loadLoginAuth();
  const { user } = await login.signInWithPopup(login.auth, login.newGitHubProvider());
  return startSession(login, user);
}

export const SIGN_IN_OPTIONS_PATH = '/api/sign-in-options';

/** How readers at an address sign in (`GET /api/sign-in-options`): their organisation's provider, and whether a password may be used. */
export interface SignInOptions {
  provider: { id: string; name: string } | null;
  password: boolean;
}

const PROVIDER_ID = /^(oidc|saml)\.[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** The answer of `GET /api/sign-in-options`, or null when it is not the expected shape. */
export function parseSignInOptions(body: unknown): SignInOptions | null {
  if (typeof body !== 'object' || body === null) return null;
  const { provider, password } = body as Record<string, unknown>;
  if (typeof password !== 'boolean') return null;
  if (provider === null) return { provider: null, password };
  if (typeof provider !== 'object' || provider === undefined) return null;
  const { id, name } = provider as Record<string, unknown>;
  if (typeof id !== 'string' || !PROVIDER_ID.test(id) || !isNonEmptyString(name)) return null;
  return { provider: { id, name: name.slice(0, 80) }, password };
}

/** The domain part of an e-mail address, in lower case, or null when the address is not whole yet. */
export function domainOf(email: string): string | null {
  const match = /^[^\s@]+@([^\s@]+\.[^\s@]+)$/.exec(email.trim());
  return match?.[1] ? match[1].toLowerCase() : null;
}

const optionsByDomain = new Map<string, Promise<SignInOptions>>();

/**
 * How readers at the address's domain sign in, asked once per domain. It never fails: when
 * the portal cannot say, the answer is the usual ways (the server still refuses a way the
 * organisation does not allow).
 */
export function signInOptions(email: string): Promise<SignInOptions> {
  const domain = domainOf(email);
  const usual: SignInOptions = { provider: null, password: true };
  if (domain === null) return Promise.resolve(usual);
  let asked = optionsByDomain.get(domain);
  if (!asked) {
    asked = fetch(`${SIGN_IN_OPTIONS_PATH}?email=${encodeURIComponent(`reader@${domain}`)}`, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { Accept: 'application/json' },
    })
      .then(async (response) => (response.ok ? parseSignInOptions(await response.json().catch(() => null)) : null))
      .catch(() => null)
      .then((options) => {
        if (options === null) optionsByDomain.delete(domain);
        return options ?? usual;
      });
    optionsByDomain.set(domain, asked);
  }
  return asked;
}

// Set while the browser is away at the organisation's provider (the popup was blocked): the
// page it comes back to finishes the sign-in. Only this flag is stored, never a token.
const REDIRECT_FLAG = 'portal-sign-in-redirect';

/**
 * Signs in through the reader's organisation's own provider in the SDK's popup (500×600);
 * resolves to the session's e-mail. Where the browser blocks popups, the page goes to the
 * provider instead and the sign-in finishes when it comes back (`finishRedirectSignIn`); the
 * promise then never resolves.
 */
export async function signInWithOrganisation(providerId: string): Promise<string> {
  const login = await loadLoginAuth();
  const provider = login.newOrganisationProvider(providerId);
  try {
    const { user } = await login.signInWithPopup(login.auth, provider);
    return await startSession(login, user);
  } catch (error) {
    if (firebaseErrorCode(error) !== 'auth/popup-blocked') throw error;
    window.sessionStorage.setItem(REDIRECT_FLAG, providerId);
    return login.signInWithRedirect(login.auth, provider);
  }
}

/**
 * After a redirect to the organisation's provider: the session's e-mail once the gate has
 * accepted the sign-in, or null when no redirect sign-in was under way.
 */
export async function finishRedirectSignIn(): Promise<string | null> {
  if (typeof window === 'undefined' || window.sessionStorage.getItem(REDIRECT_FLAG) === null) return null;
  window.sessionStorage.removeItem(REDIRECT_FLAG);
  const login = await loadLoginAuth();
  const result = await login.getRedirectResult(login.auth);
  return result === null ? null : startSession(login, result.user);
}

/**
 * Where the Auth Emulator lists the e-mails it would have sent (its out-of-band codes:
 * password-reset links among them), or null against a real Firebase project, which sends
 * the e-mail.
 */
export function emulatorMailboxUrl(config: AuthConfig): string | null {
  if (config.emulatorUrl === null) return null;
  return `${config.emulatorUrl.replace(/\/+$/, '')}/emulator/v1/projects/${encodeURIComponent(config.projectId)}/oobCodes`;
}

/**
 * Asks Firebase to e-mail a password-reset link (Firebase's own e-mail and page). Resolves
 * to where the emulator shows the link instead, when it runs against the emulator, else
 * null. An unknown address resolves like a known one (the caller decides what to say).
 */
export async function sendPasswordReset(email: string): Promise<{ mailbox: string | null }> {
  const login = await loadLoginAuth();
  await login.sendPasswordResetEmail(login.auth, email);
  return { mailbox: emulatorMailboxUrl(login.config) };
}

/**
 * The account an e-mail's password link (its one-time `oobCode`) is for: Firebase checks the
 * code is whole, unused and unexpired, and names the account's e-mail address.
 */
export async function checkPasswordCode(code: string): Promise<string> {
  const login = await loadLoginAuth();
  return login.verifyPasswordResetCode(login.auth, code);
}

/** Sets the password the link's code allows; the code is spent. */
export async function setPasswordWithCode(code: string, password: string): Promise<void> {
  const login = await loadLoginAuth();
  await login.confirmPasswordReset(login.auth, code, password);
}

/** Marks the account's e-mail address verified with the code of a verification e-mail. */
export async function verifyEmailCode(code: string): Promise<void> {
  const login = await loadLoginAuth();
  await login.applyActionCode(login.auth, code);
}
