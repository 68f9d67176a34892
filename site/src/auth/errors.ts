/**
 * The one place that turns a sign-in failure into words for the reader. Firebase errors
 * carry a code (`auth/…`); the portal's own endpoints fail with a PortalSignInError.
 * Nothing here imports Firebase, so the login page's first chunk stays small.
 */
import { REQUEST_ACCESS } from '@portal/access';

/** A failure of the portal's own sign-in endpoints, with a message fit to show. */
export class PortalSignInError extends Error {
  /** HTTP status of the portal's answer, or null when there was no answer. */
  readonly status: number | null;

  constructor(message: string, status: number | null) {
    super(message);
    this.name = 'PortalSignInError';
    this.status = status;
  }
}

/**
 * The portal refused a session because the account belongs to no reader group (made by
 * the reader themselves, another domain, an unverified address, an unknown GitHub user).
 * The login page shows who they are and how to ask for access, not just an error line.
 */
export class NoAccessError extends PortalSignInError {
  /** The account's e-mail address as the server named it, or null when it named none. */
  readonly email: string | null;

  constructor(email: string | null) {
    super(
      email === null
        ? 'This account has no access to the Norigin developer docs.'
        : `${email} has no access to the Norigin developer docs.`,
      403,
    );
    this.name = 'NoAccessError';
    this.email = email;
  }
}

/**
 * A mailto link to ask for access, for a reader refused with a NoAccessError: the subject
 * names the page they wanted, the body the account to give access to.
 */
export function requestAccessHref(email: string | null, nextPath: string): string {
  const subject =
    nextPath === '/' ? 'Access to the Norigin developer docs' : `Access to the Norigin developer docs: ${nextPath}`;
  const body = `Please give ${email ?? 'my account'} access to the Norigin developer docs.\n\nPage: ${nextPath}\n`;
  return `mailto:${REQUEST_ACCESS.email}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}

// One message for a wrong password, an unknown e-mail and Firebase's combined code, so
// the page never tells a stranger which e-mail addresses have an account.
const WRONG_CREDENTIALS = 'The e-mail or password is not correct.';

const MESSAGES: Readonly<Record<string, string>> = {
  'auth/wrong-password': WRONG_CREDENTIALS,
  'auth/invalid-credential': WRONG_CREDENTIALS,
  'auth/invalid-login-credentials': WRONG_CREDENTIALS,
  'auth/user-not-found': WRONG_CREDENTIALS,
  'auth/invalid-email': 'Enter a valid e-mail address.',
  'auth/user-disabled': `This account has been disabled. To have it enabled again, write to ${REQUEST_ACCESS.label} at ${REQUEST_ACCESS.email}.`,
  'auth/too-many-requests': 'Too many sign-in attempts. Wait a few minutes, then try again.',
  'auth/network-request-failed': 'Could not reach the sign-in service. Check your connection and try again.',
  'auth/popup-blocked': 'The browser blocked the GitHub sign-in window. Allow pop-ups for this site and try again.',
  'auth/popup-closed-by-user': 'The GitHub sign-in window was closed before signing in finished.',
  'auth/cancelled-popup-request': 'Another sign-in window was opened. Finish signing in there, or try again.',
  'auth/unauthorized-domain': 'Sign-in is not enabled for this web address. Contact Norigin Media.',
  'auth/operation-not-allowed': 'This way of signing in is not enabled. Try another one.',
  'auth/account-exists-with-different-credential':
    'An account with this e-mail address already exists. Sign in the way you used before.',
  'auth/requires-recent-login': 'For your security, sign in again.',
  'auth/user-mismatch': 'That was a different account from the one signed in. Sign in again with the same account.',
  'auth/email-already-in-use': 'An account with this e-mail address already exists.',
  'auth/expired-action-code': 'This link has expired. Ask for a new one.',
  'auth/invalid-action-code': 'This link is not valid any more. It may have been used already.',
  'auth/internal-error': 'The sign-in service had a problem. Try again in a moment.',
};

const FALLBACK = 'Sign-in failed. Try again in a moment.';

/** The `auth/…` code of a Firebase error, or null for anything else. */
export function firebaseErrorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || !('code' in error)) return null;
  const { code } = error;
  // Only a well-formed code is trusted to be free of user data (messages can hold e-mails).
  return typeof code === 'string' && /^auth\/[a-z0-9-]+$/.test(code) ? code : null;
}

/** Plain English for a failed sign-in, safe to show: never the raw error text. */
export function signInErrorMessage(error: unknown): string {
  if (error instanceof PortalSignInError) return error.message;
  const code = firebaseErrorCode(error);
  if (code === null) return FALLBACK;
  return MESSAGES[code] ?? `${FALLBACK} (${code})`;
}

/** The form field a sign-in failure is about, so the page can tie the message to it. */
export type LoginField = 'email' | 'password';

const FIELD_OF: Readonly<Record<string, LoginField>> = {
  'auth/wrong-password': 'password',
  'auth/invalid-credential': 'password',
  'auth/invalid-login-credentials': 'password',
  'auth/user-not-found': 'password',
  'auth/invalid-email': 'email',
  'auth/missing-email': 'email',
};

/**
 * The field a failure is about: the password for a wrong e-mail/password pair (the reader
 * retypes it there; which of the two was wrong is never said), the e-mail for a malformed
 * address, none for the rest (the service, the network, the account).
 */
export function fieldOfError(error: unknown): LoginField | null {
  const code = firebaseErrorCode(error);
  return code === null ? null : (FIELD_OF[code] ?? null);
}

/** What the GitHub popup needs from the internet, and whether this page could reach it. */
export interface GitHubReach {
  /** `navigator.onLine`. */
  online: boolean;
  /** Whether Google's iframe helper (`window.gapi`, from apis.google.com) has loaded. */
  helperLoaded: boolean;
}

export const GITHUB_OFFLINE =
  'GitHub sign-in could not reach the internet: it needs Google’s sign-in helper at apis.google.com. Check your connection, or sign in with your e-mail and password, which works without it.';

/**
 * Plain English for a failed GitHub sign-in. The popup cannot even open without Google's
 * helper script, and Firebase then reports only "internal error" (or a network error):
 * when the helper never loaded, or the browser is offline, say that instead.
 */
export function gitHubErrorMessage(error: unknown, reach: GitHubReach): string {
  const code = firebaseErrorCode(error);
  const unreachable = code === 'auth/internal-error' || code === 'auth/network-request-failed';
  if (unreachable && (!reach.online || !reach.helperLoaded)) return GITHUB_OFFLINE;
  return signInErrorMessage(error);
}

/**
 * Plain English for a failed sign-in through the reader's organisation's own provider
 * (`name`, as the administrators called it): its window's troubles named after it.
 */
export function organisationErrorMessage(error: unknown, name: string): string {
  switch (firebaseErrorCode(error)) {
    case 'auth/popup-closed-by-user':
      return `The ${name} sign-in window was closed before signing in finished.`;
    case 'auth/operation-not-allowed':
      return `Sign-in with ${name} is not enabled for this portal yet. Ask your organisation’s administrator, or ${REQUEST_ACCESS.label} at ${REQUEST_ACCESS.email}.`;
    default:
      return signInErrorMessage(error);
  }
}

/** What readers at `domain` are told when their organisation signs them in with `name` only. */
export function organisationRequiredMessage(domain: string, name: string): string {
  return `Readers at ${domain} sign in with ${name}, not a password: choose “Continue with ${name}”.`;
}

/**
 * What a reader is told after asking for a password-reset e-mail. The same whether or not
 * the address has an account, so the page never reveals who has one.
 */
export function resetSentMessage(email: string): string {
  return `If ${email} has an account, we have sent it a link to choose a new password. The link works for one hour.`;
}

/** Plain English for a failed reset request; an unknown address counts as sent (see resetSentMessage). */
export function resetErrorMessage(error: unknown): string | null {
  const code = firebaseErrorCode(error);
  if (code === 'auth/user-not-found') return null;
  if (code === 'auth/invalid-email' || code === 'auth/missing-email') return 'Enter a valid e-mail address.';
  if (code === 'auth/too-many-requests') return 'Too many reset requests. Wait a few minutes, then try again.';
  return signInErrorMessage(error);
}

/** What a link of an account e-mail (`/login/action`) can fail with, and whether a new link would help. */
export interface ActionFailure {
  message: string;
  /** The link itself is spent or spoilt: a new one is the way on. */
  askAgain: boolean;
}

const ACTION_FAILURES: Readonly<Record<string, ActionFailure>> = {
  'auth/expired-action-code': {
    message: 'This link has expired: links in our e-mails work for a limited time. Ask for a new one below.',
    askAgain: true,
  },
  'auth/invalid-action-code': {
    message: 'This link has already been used, or it is not complete. Ask for a new one below.',
    askAgain: true,
  },
  'auth/user-disabled': {
    message: `This account has been disabled. Write to ${REQUEST_ACCESS.label} if you think it should not be.`,
    askAgain: false,
  },
  'auth/user-not-found': {
    message: `The account this link was for no longer exists. Ask ${REQUEST_ACCESS.label} for a new invitation.`,
    askAgain: false,
  },
};

/** Plain English for a failed account action (checking or spending the link's code). */
export function actionErrorMessage(error: unknown): ActionFailure {
  const code = firebaseErrorCode(error);
  return (code && ACTION_FAILURES[code]) || { message: signInErrorMessage(error), askAgain: false };
}

/**
 * Why a password was refused, in words: Firebase's own minimum (six characters), or the
 * project's password policy, whose requirements its message lists.
 */
export function passwordErrorMessage(error: unknown): string | null {
  const code = firebaseErrorCode(error);
  if (code === 'auth/weak-password') return 'Choose a longer password: at least 6 characters.';
  if (code === 'auth/password-does-not-meet-requirements') {
    const listed = /\[([^\]]+)\]/.exec(error instanceof Error ? error.message : '')?.[1];
    return `This password does not meet the portal’s requirements${listed ? `: ${listed.toLowerCase()}` : ''}.`;
  }
  return null;
}
