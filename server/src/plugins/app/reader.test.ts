import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { Identity } from '../../auth/identity.js';
import { bearerToken } from '../../auth/reader.js';
import { TokenService } from '../../auth/tokens.js';
import { makeToken, ORIGIN, readyTestApp, signInCookie } from '../../test/harness.js';
import type { EmulatorReaders } from '../../test/readers.js';
import { makeTestSite } from '../../test/test-site.js';

describe('one reader per request', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  const calls = {
    cacheLookups: vi.spyOn(Identity.prototype, 'cachedReader'),
    verifications: vi.spyOn(Identity.prototype, 'verifySession'),
    tokenChecks: vi.spyOn(TokenService.prototype, 'check'),
  };
  const counted = () => ({
    cacheLookups: calls.cacheLookups.mock.calls.length,
    verifications: calls.verifications.mock.calls.length,
    tokenChecks: calls.tokenChecks.mock.calls.length,
  });

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(await makeTestSite()));
  });
  afterAll(() => app.close());
  beforeEach(() => {
    for (const spy of Object.values(calls)) spy.mockClear();
  });

  const session = async (groups: string[]): Promise<string> => {
    const account = await readers.create({ groups });
    const cookie = await signInCookie(app, await readers.signIn(account.email, account.password));
    for (const spy of Object.values(calls)) spy.mockClear();
    return cookie;
  };

  it('verifies a new session once: the fast path looks in the cache, Fastify does not look again', async () => {
    const cookie = await session(['partner']);
    expect((await app.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode).toBe(200);
    expect(counted()).toEqual({ cacheLookups: 1, verifications: 1, tokenChecks: 0 });
  });

  it('verifies a session once when requests bring it together: the others wait for that answer', async () => {
    const cookie = await session(['partner']);
    const together = await Promise.all(
      Array.from({ length: 6 }, () => app.inject({ url: '/docs/layout-engine/', headers: { cookie } })),
    );
    expect(together.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(counted()).toEqual({ cacheLookups: 6, verifications: 1, tokenChecks: 0 });
    // Once answered, the cookie is the cache's; a refused one is not kept: each later request asks again.
    expect((await app.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode).toBe(200);
    expect(counted().verifications).toBe(1);
    const forged = `__session=${'y'.repeat(80)}`;
    for (let time = 0; time < 2; time++)
      expect((await app.inject({ url: '/api/session', headers: { cookie: forged } })).statusCode).toBe(401);
    expect(counted().verifications).toBe(3);
  });

  it('answers a cached session from one look-up, also when it refuses (403)', async () => {
    const cookie = await session(['partner']);
    await app.inject({ url: '/docs/layout-engine/', headers: { cookie } });
    calls.cacheLookups.mockClear();
    calls.verifications.mockClear();
    expect((await app.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode).toBe(200);
    expect(counted()).toEqual({ cacheLookups: 1, verifications: 0, tokenChecks: 0 });
    calls.cacheLookups.mockClear();
    const refused = await app.inject({ url: '/assets/js/9f8e7d6c.5b4a3f2e.js', headers: { cookie } });
    expect(refused.statusCode).toBe(403);
    expect(counted()).toEqual({ cacheLookups: 1, verifications: 0, tokenChecks: 0 });
  });

  it('resolves the reader once when a guard and the route both need it', async () => {
    const cookie = await session(['partner']);
    const answer = await app.inject({
      method: 'PUT',
      url: '/api/feedback',
      headers: { cookie, origin: ORIGIN },
      payload: { path: '/docs/layout-engine/', helpful: true },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(counted()).toEqual({ cacheLookups: 1, verifications: 1, tokenChecks: 0 });
  });

  it('checks a token once and never the session cookie beside it', async () => {
    const cookie = await session(['partner']);
    const token = await makeToken(app, cookie, 'counted');
    for (const spy of Object.values(calls)) spy.mockClear();
    const markdown = await app.inject({
      url: '/docs/layout-engine.md',
      headers: { cookie, authorization: `Bearer ${token}` },
    });
    expect(markdown.statusCode).toBe(200);
    expect(counted()).toEqual({ cacheLookups: 0, verifications: 0, tokenChecks: 1 });
  });

  it('signs out a refused session in the route that decides: cookie cleared, no second verification', async () => {
    const cookie = `__session=${'x'.repeat(80)}`;
    const answer = await app.inject({ url: '/api/session', headers: { cookie } });
    expect(answer.statusCode).toBe(401);
    expect(answer.cookies.find((c) => c.name === '__session')?.value).toBe('');
    expect(counted()).toEqual({ cacheLookups: 1, verifications: 1, tokenChecks: 0 });
  });
});

describe('bearerToken', () => {
  it('reads the token whatever the spelling of the scheme and the spaces around it', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('bearer  abc ')).toBe('abc');
    expect(bearerToken('BEARER\tabc')).toBe('abc');
    expect(bearerToken('Basic abc')).toBeNull();
    expect(bearerToken('Bearer a b')).toBeNull();
    expect(bearerToken('Bearer')).toBeNull();
  });
});
