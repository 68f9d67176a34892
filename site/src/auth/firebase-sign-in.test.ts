import { describe, expect, it } from 'vitest';

import { NoAccessError, PortalSignInError } from './errors';
import {
  domainOf,
  emulatorMailboxUrl,
  parseAuthConfig,
  parseSessionRefusal,
  parseSignInOptions,
} from './firebase-sign-in';

const config = { apiKey: 'demo-key', authDomain: 'demo-portal.firebaseapp.com', projectId: 'demo-portal' };

describe('parseAuthConfig', () => {
  it('reads the emulator URL when the server gives one', () => {
    expect(parseAuthConfig({ ...config, emulatorUrl: 'http://127.0.0.1:9099' })).toEqual({
      ...config,
      emulatorUrl: 'http://127.0.0.1:9099',
    });
  });

  it('reads a production config, where the emulator URL is null', () => {
    expect(parseAuthConfig({ ...config, emulatorUrl: null })).toEqual({ ...config, emulatorUrl: null });
  });

  it('refuses an answer without an API key, an auth domain or a project id', () => {
    expect(parseAuthConfig({ ...config, apiKey: '' })).toBeNull();
    expect(parseAuthConfig({ authDomain: config.authDomain, projectId: config.projectId })).toBeNull();
    expect(parseAuthConfig({ ...config, projectId: 42 })).toBeNull();
    expect(parseAuthConfig('<!doctype html>')).toBeNull();
    expect(parseAuthConfig(null)).toBeNull();
  });

  it('refuses an emulator URL that is not a string', () => {
    expect(parseAuthConfig({ ...config, emulatorUrl: 9099 })).toBeNull();
  });
});

describe('parseSessionRefusal', () => {
  it('reads a 403 "no-access" as an account without reader groups, with its e-mail', () => {
    const refusal = parseSessionRefusal(403, {
      error: 'this account has no access',
      code: 'no-access',
      email: 'someone@example.com',
    });
    expect(refusal).toBeInstanceOf(NoAccessError);
    expect((refusal as NoAccessError).email).toBe('someone@example.com');
  });

  it('reads a "no-access" refusal without an e-mail (an unknown GitHub user) as one without a name', () => {
    const refusal = parseSessionRefusal(403, { error: 'no access', code: 'no-access', email: null });
    expect(refusal).toBeInstanceOf(NoAccessError);
    expect((refusal as NoAccessError).email).toBeNull();
  });

  it('does not show an e-mail that is not one', () => {
    for (const email of [42, '', 'not an address', 'a@b.c\nSubject: x', `${'x'.repeat(300)}@example.com`]) {
      const refusal = parseSessionRefusal(403, { error: 'no access', code: 'no-access', email });
      expect((refusal as NoAccessError).email).toBeNull();
    }
  });

  it('treats another 403, such as a refused Origin, as an ordinary refusal', () => {
    const refusal = parseSessionRefusal(403, { error: 'cross-site request refused' });
    expect(refusal).not.toBeInstanceOf(NoAccessError);
    expect(refusal.message).toBe('Sign-in was refused: cross-site request refused');
    expect(parseSessionRefusal(401, { error: 'x', code: 'no-access' })).not.toBeInstanceOf(NoAccessError);
  });

  it('still explains the other refusals as before', () => {
    expect(parseSessionRefusal(429, null).message).toBe('Too many sign-in attempts. Wait a minute, then try again.');
    expect(parseSessionRefusal(401, '<html>').message).toBe('Sign-in could not be confirmed. Sign in again.');
    const unavailable = parseSessionRefusal(503, null);
    expect(unavailable).toBeInstanceOf(PortalSignInError);
    expect(unavailable.status).toBe(503);
  });
});

describe('emulatorMailboxUrl', () => {
  it('points at the emulator’s list of the e-mails it would have sent', () => {
    expect(
      emulatorMailboxUrl({
        apiKey: 'demo-api-key',
        authDomain: 'demo.example',
        projectId: 'demo-norigin-portal',
        emulatorUrl: 'http://127.0.0.1:9099/',
      }),
    ).toBe('http://127.0.0.1:9099/emulator/v1/projects/demo-norigin-portal/oobCodes');
  });

  it('is null against a real project, which sends the e-mail', () => {
    expect(
      emulatorMailboxUrl({
        apiKey: 'key',
        authDomain: 'norigin.firebaseapp.com',
        projectId: 'norigin',
        emulatorUrl: null,
      }),
    ).toBeNull();
  });
});

describe('parseSignInOptions', () => {
  it('reads an organisation’s provider and whether a password may be used', () => {
    expect(parseSignInOptions({ provider: { id: 'oidc.aurora-okta', name: 'Aurora Okta' }, password: false })).toEqual({
      provider: { id: 'oidc.aurora-okta', name: 'Aurora Okta' },
      password: false,
    });
    expect(parseSignInOptions({ provider: { id: 'saml.entra', name: 'Entra' }, password: true })?.provider?.id).toBe(
      'saml.entra',
    );
    expect(parseSignInOptions({ provider: null, password: true })).toEqual({ provider: null, password: true });
  });

  it('refuses an answer that is not the shape, or a provider that is no OIDC or SAML provider', () => {
    expect(parseSignInOptions({ provider: null })).toBeNull();
    expect(parseSignInOptions({ provider: { id: 'google.com', name: 'Google' }, password: true })).toBeNull();
    expect(parseSignInOptions({ provider: { id: 'oidc.x', name: '' }, password: true })).toBeNull();
    expect(parseSignInOptions({ provider: 'oidc.x', password: true })).toBeNull();
    expect(parseSignInOptions('<!doctype html>')).toBeNull();
  });
});

describe('domainOf', () => {
  it('is the lower-case domain of a whole address, and null while the address is not whole', () => {
    expect(domainOf(' Dev@Aurora-Broadcast.Example ')).toBe('aurora-broadcast.example');
    expect(domainOf('dev@aurora')).toBeNull();
    expect(domainOf('dev@')).toBeNull();
    expect(domainOf('aurora-broadcast.example')).toBeNull();
    expect(domainOf('a b@c.example')).toBeNull();
  });
});
