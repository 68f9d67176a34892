import { describe, expect, it } from 'vitest';

import { classify, IdentityUnavailableError, RejectedTokenError } from './identity.js';

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
    expect(classify(adminError(code, message))).toBeInstanceOf(RejectedTokenError);
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
    expect(classify(adminError(code, message))).toBeInstanceOf(IdentityUnavailableError);
  });

  it('treats errors without a code as unavailable', () => {
    expect(classify(new Error('boom'))).toBeInstanceOf(IdentityUnavailableError);
    expect(classify('boom')).toBeInstanceOf(IdentityUnavailableError);
  });
});
