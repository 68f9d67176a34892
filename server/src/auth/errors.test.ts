import { describe, expect, it } from 'vitest';

import { AuthError, classify } from './errors.js';

/** Errors shaped as the Firebase Admin SDK throws them (an Error with a `code`). */
const adminError = (code: string, message: string): Error => Object.assign(new Error(message), { code });

describe('telling a bad credential from an unreachable identity service', () => {
  it.each([
    ['auth/session-cookie-expired', 'The Firebase session cookie has expired.'],
    ['auth/session-cookie-revoked', 'The Firebase session cookie has been revoked.'],
    ['auth/user-disabled', 'The user record is disabled.'],
    ['auth/user-not-found', 'There is no user record corresponding to the provided identifier.'],
    ['auth/argument-error', 'Firebase session cookie has incorrect algorithm. Expected "RS256" but got "none".'],
    ['auth/argument-error', 'Firebase session cookie has invalid signature.'],
    ['auth/argument-error', 'Firebase session cookie has incorrect "aud" (audience) claim.'],
    ['auth/argument-error', 'Firebase session cookie has "kid" claim which does not correspond to a known public key.'],
  ])('%s (%s) signs the reader out', (code, message) => {
    const error = classify(adminError(code, message));
    expect(error).toBeInstanceOf(AuthError);
    expect(error.signsOut).toBe(true);
    expect(error.code).not.toBe('unavailable');
  });

  it.each([
    ['auth/session-cookie-expired', 'expired'],
    ['auth/id-token-revoked', 'revoked'],
    ['auth/user-disabled', 'disabled'],
    ['auth/user-not-found', 'deleted'],
    ['auth/argument-error', 'malformed'],
  ])('%s becomes %s, with the library error as its cause and a message of its own', (code, expected) => {
    const original = adminError(code, 'Firebase says something about user secret@example.com');
    const error = classify(original);
    expect(error.code).toBe(expected);
    expect(error.cause).toBe(original);
    expect(error.message).not.toContain('secret@example.com');
  });

  it.each([
    ['auth/argument-error', 'Error fetching public keys for Google certs: backendError'],
    ['auth/argument-error', 'getaddrinfo ENOTFOUND www.googleapis.com'],
    ['auth/argument-error', 'getaddrinfo EAI_AGAIN www.googleapis.com'],
    ['auth/argument-error', 'connect ECONNREFUSED 142.250.74.10:443'],
    ['app/network-error', 'Error while making request: socket hang up.'],
    ['auth/internal-error', 'An internal error has occurred.'],
    ['app/network-timeout', 'Error while making request: timeout of 10000ms exceeded.'],
  ])('%s (%s) is the service being unavailable', (code, message) => {
    const error = classify(adminError(code, message));
    expect(error.code).toBe('unavailable');
    expect(error.signsOut).toBe(false);
  });

  it('treats errors without a code as unavailable', () => {
    expect(classify(new Error('boom')).code).toBe('unavailable');
    expect(classify('boom').code).toBe('unavailable');
  });

  it('passes its own errors through unchanged', () => {
    const error = new AuthError('no-access', { email: 'a@b.example' });
    expect(classify(error)).toBe(error);
    expect(error.email).toBe('a@b.example');
  });
});
