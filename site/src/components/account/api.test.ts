import { afterEach, describe, expect, it, vi } from 'vitest';

import { stubApi } from '@site/src/api/fetch-stub';

import { failureMessage, tokenApi, TokenApiError } from './api';

afterEach(() => vi.unstubAllGlobals());

const tokenRoutes = stubApi;

describe('the account page’s token calls', () => {
  it('lists, creates and revokes at /api/tokens', async () => {
    const calls = tokenRoutes(200, { tokens: [], maxDays: 90 });
    await expect(tokenApi.list()).resolves.toEqual({ tokens: [], maxDays: 90 });
    await tokenApi.create('CI runner', 7);
    await tokenApi.create('Nightly import', 30, 'admin');
    expect(calls).toEqual([
      { method: 'GET', url: '/api/tokens', body: undefined },
      // A token reads the docs unless an administrator makes it for the administration API.
      { method: 'POST', url: '/api/tokens', body: { name: 'CI runner', days: 7, scope: 'read' } },
      { method: 'POST', url: '/api/tokens', body: { name: 'Nightly import', days: 30, scope: 'admin' } },
    ]);
  });

  it('revokes a token by its id, encoded into the path', async () => {
    const calls = tokenRoutes(204, null);
    await expect(tokenApi.revoke('a/b?c')).resolves.toBeUndefined();
    expect(calls).toEqual([{ method: 'DELETE', url: '/api/tokens/a%2Fb%3Fc', body: undefined }]);
  });

  it('fails with the server’s reason for a refused token', async () => {
    tokenRoutes(400, { error: 'name must be 1 to 60 characters' });
    const failure = await tokenApi.create('', 7).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(TokenApiError);
    expect(failure).toMatchObject({ status: 400, message: 'name must be 1 to 60 characters' });
  });
});

describe('the words for a failed token call', () => {
  it('tells a reader whose session ended to sign in again, whatever the server said', () => {
    expect(failureMessage(401, { error: 'no session' })).toBe(
      'Your session has ended. Sign in again to manage your tokens.',
    );
  });

  it('prefers the server’s reason to the status', () => {
    expect(failureMessage(429, { error: 'at most 20 live tokens' })).toBe('at most 20 live tokens');
  });

  it('explains a rate limit, a server failure and any other status', () => {
    expect(failureMessage(429, null)).toBe('Too many tokens made in a minute. Wait a moment, then try again.');
    expect(failureMessage(503, null)).toBe(
      'The portal could not do that right now. Nothing was changed; try again shortly.',
    );
    expect(failureMessage(418, 'text')).toBe('The portal answered 418.');
  });
});
