import { describe, expect, it } from 'vitest';

import { parseAuthConfig } from './firebase-sign-in';

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
