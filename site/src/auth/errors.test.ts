import { describe, expect, it } from 'vitest';

import { REQUEST_ACCESS } from '@portal/access';

import {
  actionErrorMessage,
  fieldOfError,
  firebaseErrorCode,
  gitHubErrorMessage,
  GITHUB_OFFLINE,
  NoAccessError,
  organisationErrorMessage,
  organisationRequiredMessage,
  passwordErrorMessage,
  PortalSignInError,
  requestAccessHref,
  resetErrorMessage,
  resetSentMessage,
  signInErrorMessage,
} from './errors';

/** What the Firebase SDK throws: an Error with a code, and a message that may hold user data. */
function firebaseError(code: string): Error & { code: string; customData: { email: string } } {
  return Object.assign(new Error(`Firebase: Error (${code}) for reader@example.com.`), {
    code,
    customData: { email: 'reader@example.com' },
  });
}

const WRONG_CREDENTIALS = 'The e-mail or password is not correct.';

const expected: [code: string, message: string][] = [
  ['auth/wrong-password', WRONG_CREDENTIALS],
  ['auth/invalid-credential', WRONG_CREDENTIALS],
  ['auth/invalid-login-credentials', WRONG_CREDENTIALS],
  ['auth/user-not-found', WRONG_CREDENTIALS],
  ['auth/invalid-email', 'Enter a valid e-mail address.'],
  [
    'auth/user-disabled',
    'This account has been disabled. To have it enabled again, write to the Norigin developer-relations team at developer-access@norigin.example.',
  ],
  ['auth/too-many-requests', 'Too many sign-in attempts. Wait a few minutes, then try again.'],
  ['auth/network-request-failed', 'Could not reach the sign-in service. Check your connection and try again.'],
  ['auth/popup-blocked', 'The browser blocked the GitHub sign-in window. Allow pop-ups for this site and try again.'],
  ['auth/popup-closed-by-user', 'The GitHub sign-in window was closed before signing in finished.'],
  ['auth/cancelled-popup-request', 'Another sign-in window was opened. Finish signing in there, or try again.'],
  ['auth/unauthorized-domain', 'Sign-in is not enabled for this web address. Contact Norigin Media.'],
  ['auth/operation-not-allowed', 'This way of signing in is not enabled. Try another one.'],
  [
    'auth/account-exists-with-different-credential',
    'An account with this e-mail address already exists. Sign in the way you used before.',
  ],
  ['auth/requires-recent-login', 'For your security, sign in again.'],
  ['auth/user-mismatch', 'That was a different account from the one signed in. Sign in again with the same account.'],
  ['auth/email-already-in-use', 'An account with this e-mail address already exists.'],
  ['auth/expired-action-code', 'This link has expired. Ask for a new one.'],
  ['auth/invalid-action-code', 'This link is not valid any more. It may have been used already.'],
  ['auth/internal-error', 'The sign-in service had a problem. Try again in a moment.'],
];

describe('signInErrorMessage', () => {
  for (const [code, message] of expected) {
    it(`explains ${code} in plain English`, () => {
      expect(signInErrorMessage(firebaseError(code))).toBe(message);
    });
  }

  it('gives a wrong password and an unknown e-mail the same message, so neither is revealed', () => {
    expect(signInErrorMessage(firebaseError('auth/wrong-password'))).toBe(
      signInErrorMessage(firebaseError('auth/user-not-found')),
    );
  });

  it('falls back to a generic message with the code for a code it does not know', () => {
    expect(signInErrorMessage(firebaseError('auth/quota-exceeded'))).toBe(
      'Sign-in failed. Try again in a moment. (auth/quota-exceeded)',
    );
  });

  it('never shows the raw error text, which can hold the e-mail address', () => {
    for (const error of [firebaseError('auth/quota-exceeded'), new Error('reader@example.com: boom'), 'boom', null]) {
      expect(signInErrorMessage(error)).not.toMatch(/reader@example\.com|boom|Firebase/);
    }
  });

  it('falls back to a generic message for something that is not a Firebase error', () => {
    expect(signInErrorMessage(new TypeError('Failed to fetch'))).toBe('Sign-in failed. Try again in a moment.');
    expect(signInErrorMessage(undefined)).toBe('Sign-in failed. Try again in a moment.');
  });

  it('does not trust a code that is not a well-formed auth code', () => {
    expect(signInErrorMessage({ code: 'auth/<b>reader@example.com</b>' })).toBe(
      'Sign-in failed. Try again in a moment.',
    );
    expect(firebaseErrorCode({ code: 'storage/unknown' })).toBeNull();
  });

  it("shows the portal's own refusal as it was worded", () => {
    expect(signInErrorMessage(new PortalSignInError('Sign-in was refused: sign-in is not recent', 401))).toBe(
      'Sign-in was refused: sign-in is not recent',
    );
  });
});

describe('NoAccessError', () => {
  it('is a refusal of the portal with status 403 that names the account', () => {
    const error = new NoAccessError('someone@example.com');
    expect(error).toBeInstanceOf(PortalSignInError);
    expect(error.status).toBe(403);
    expect(error.email).toBe('someone@example.com');
    expect(signInErrorMessage(error)).toBe('someone@example.com has no access to the Norigin developer docs.');
  });
});

describe('requestAccessHref', () => {
  it('writes to the access address with a subject naming the page the reader wanted', () => {
    const url = new URL(requestAccessHref('someone@example.com', '/docs/layout-engine/?tab=web'));
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe(REQUEST_ACCESS.email);
    expect(url.searchParams.get('subject')).toBe('Access to the Norigin developer docs: /docs/layout-engine/?tab=web');
    expect(url.searchParams.get('body')).toContain('Please give someone@example.com access');
  });

  it('names no page when the reader came to sign in from the home page', () => {
    const url = new URL(requestAccessHref(null, '/'));
    expect(url.searchParams.get('subject')).toBe('Access to the Norigin developer docs');
    expect(url.searchParams.get('body')).toContain('Please give my account access');
  });

  it('keeps the page path inside the subject, whatever characters it holds', () => {
    const url = new URL(requestAccessHref('a@b.c', '/docs/x&cc=evil@example.com'));
    expect([...url.searchParams.keys()]).toEqual(['subject', 'body']);
  });
});

describe('fieldOfError', () => {
  it('ties a wrong e-mail/password pair to the password and a malformed address to the e-mail', () => {
    expect(fieldOfError(firebaseError('auth/invalid-credential'))).toBe('password');
    expect(fieldOfError(firebaseError('auth/user-not-found'))).toBe('password');
    expect(fieldOfError(firebaseError('auth/invalid-email'))).toBe('email');
  });

  it('ties a failure of the service, the network or the account to no field', () => {
    for (const code of ['auth/network-request-failed', 'auth/user-disabled', 'auth/internal-error'])
      expect(fieldOfError(firebaseError(code)), code).toBeNull();
    expect(fieldOfError(new PortalSignInError('Sign-in was refused', 503))).toBeNull();
  });
});

describe('gitHubErrorMessage', () => {
  const reachable = { online: true, helperLoaded: true };

  it('says GitHub sign-in could not reach the internet when Google’s helper never loaded', () => {
    expect(gitHubErrorMessage(firebaseError('auth/internal-error'), { online: true, helperLoaded: false })).toBe(
      GITHUB_OFFLINE,
    );
    expect(
      gitHubErrorMessage(firebaseError('auth/network-request-failed'), { online: false, helperLoaded: true }),
    ).toBe(GITHUB_OFFLINE);
  });

  it('keeps the service’s own message when the helper is there and the browser is online', () => {
    expect(gitHubErrorMessage(firebaseError('auth/internal-error'), reachable)).toBe(
      'The sign-in service had a problem. Try again in a moment.',
    );
    expect(gitHubErrorMessage(firebaseError('auth/popup-closed-by-user'), { online: false, helperLoaded: false })).toBe(
      'The GitHub sign-in window was closed before signing in finished.',
    );
  });
});

describe('password reset messages', () => {
  it('answers the same for an address with or without an account', () => {
    expect(resetErrorMessage(firebaseError('auth/user-not-found'))).toBeNull();
    expect(resetSentMessage('someone@example.com')).toContain('If someone@example.com has an account');
  });

  it('explains a malformed address and too many requests', () => {
    expect(resetErrorMessage(firebaseError('auth/invalid-email'))).toBe('Enter a valid e-mail address.');
    expect(resetErrorMessage(firebaseError('auth/too-many-requests'))).toMatch(/Too many reset requests/);
  });
});

describe("an account mail's link that fails", () => {
  it('says a spent, expired or broken link needs a new one, and offers it', () => {
    for (const code of ['auth/expired-action-code', 'auth/invalid-action-code'])
      expect(actionErrorMessage(firebaseError(code))).toMatchObject({
        askAgain: true,
        message: /Ask for a new one below\.$/,
      });
  });

  it('says a disabled or removed account is for an administrator, with no new link', () => {
    expect(actionErrorMessage(firebaseError('auth/user-disabled'))).toEqual({
      message: `This account has been disabled. Write to ${REQUEST_ACCESS.label} if you think it should not be.`,
      askAgain: false,
    });
    expect(actionErrorMessage(firebaseError('auth/user-not-found')).message).toMatch(/no longer exists/);
    expect(actionErrorMessage(firebaseError('auth/network-request-failed'))).toEqual({
      message: 'Could not reach the sign-in service. Check your connection and try again.',
      askAgain: false,
    });
  });

  it("gives a weak password Firebase's reason, a project policy's requirements, and nothing for other errors", () => {
    expect(passwordErrorMessage(firebaseError('auth/weak-password'))).toBe(
      'Choose a longer password: at least 6 characters.',
    );
    const policy = Object.assign(
      new Error(
        'Firebase: Missing password requirements: [Password must contain an upper case character] (auth/password-does-not-meet-requirements).',
      ),
      { code: 'auth/password-does-not-meet-requirements' },
    );
    expect(passwordErrorMessage(policy)).toBe(
      'This password does not meet the portal’s requirements: password must contain an upper case character.',
    );
    expect(passwordErrorMessage(firebaseError('auth/expired-action-code'))).toBeNull();
  });
});

describe('an organisation’s own sign-in', () => {
  it('names the provider’s window when it was closed, and says whom to ask when it is not enabled', () => {
    expect(organisationErrorMessage(firebaseError('auth/popup-closed-by-user'), 'Aurora Okta')).toBe(
      'The Aurora Okta sign-in window was closed before signing in finished.',
    );
    const off = organisationErrorMessage(firebaseError('auth/operation-not-allowed'), 'Aurora Okta');
    expect(off).toContain('Sign-in with Aurora Okta is not enabled');
    expect(off).toContain(REQUEST_ACCESS.email);
    // Anything else reads as any sign-in failure, never the raw text with its e-mail.
    const other = organisationErrorMessage(firebaseError('auth/network-request-failed'), 'Aurora Okta');
    expect(other).toBe(signInErrorMessage(firebaseError('auth/network-request-failed')));
    expect(other).not.toContain('reader@example.com');
  });

  it('tells a reader whose organisation requires it how to sign in', () => {
    expect(organisationRequiredMessage('aurora-broadcast.example', 'Aurora Okta')).toBe(
      'Readers at aurora-broadcast.example sign in with Aurora Okta, not a password: choose “Continue with Aurora Okta”.',
    );
  });
});
