import { connect, type AddressInfo } from 'node:net';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { unitsOfGroups } from '@portal/access';
import { GROUPS_HINT_COOKIE, SESSION_COOKIE } from '@portal/contract/names';

import { loggerOptions } from './logging.js';
import { ORIGIN, signInCookie, testApp } from './test/harness.js';
import type { EmulatorReaders } from './test/readers.js';
import { makeTestSite, PRIVATE_CANARY, STAFF_CANARY } from './test/test-site.js';

/** Read by partners and staff. */
const PRIVATE_PAGE = '/docs/layout-engine/';
const PRIVATE_ASSET = '/assets/js/1a2b3c4d.5e6f7a8b.js';
/** Read by staff (and admins) only. */
const STAFF_PAGE = '/docs/frontend-guidelines/GitFlow';
const STAFF_ASSET = '/assets/js/9f8e7d6c.5b4a3f2e.js';

describe('the gate server', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let siteDir: string;

  beforeAll(async () => {
    siteDir = await makeTestSite();
    ({ app, readers } = await testApp(siteDir));
  });
  afterAll(() => app.close());

  const signedIn = async (groups = ['staff']): Promise<{ cookie: string; uid: string }> => {
    const reader = await readers.create({ groups });
    const cookie = await signInCookie(app, await readers.signIn(reader.email, reader.password));
    return { cookie, uid: reader.uid };
  };

  describe('anonymous readers', () => {
    it.each(['/', '/login', '/docs/', '/DOCS', '/docs/norigin-spatial-navigation', '/img/logo.svg', '/robots.txt'])(
      'get the public file %s',
      async (url) => {
        const response = await app.inject({ url });
        expect(response.statusCode).toBe(200);
        expect(response.headers['cache-control']).not.toContain('private');
      },
    );

    it('are sent to the login page for a private page, with the page in next', async () => {
      const response = await app.inject({ url: '/DOCS/Layout-Engine?tab=tizen' });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/login?next=%2FDOCS%2FLayout-Engine%3Ftab%3Dtizen');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.vary).toContain('Cookie');
      expect(response.body).toBe('');
    });

    it('get an empty 401 for private files that are not pages', async () => {
      for (const url of [PRIVATE_ASSET, '/blog/rss.xml']) {
        const response = await app.inject({ url });
        expect(response.statusCode, url).toBe(401);
        expect(response.body, url).toBe('');
      }
    });

    it('get the not-found page with 404 for unknown paths, public or private-looking', async () => {
      for (const url of ['/docs/no-such-page', '/docs/Norigin-Spatial-Navigation-internal', '/nope.js']) {
        const response = await app.inject({ url });
        expect(response.statusCode, url).toBe(404);
        expect(response.body).toContain('<h1>Page Not Found</h1>');
      }
    });

    it('never see private bytes through HEAD, Range or conditional requests', async () => {
      // The real ETag, as a signed-in reader gets it: a conditional request with it must not confirm the file.
      const { cookie } = await signedIn();
      const etag = (await app.inject({ url: PRIVATE_ASSET, headers: { cookie } })).headers.etag;
      expect(etag).toMatch(/^"[\w-]{22}"$/);
      for (const headers of [
        { range: 'bytes=0-10' },
        { 'if-none-match': '*' },
        { 'if-none-match': String(etag) },
        { 'if-modified-since': new Date(0).toUTCString() },
        { 'if-range': 'x', range: 'bytes=0-' },
      ]) {
        const response = await app.inject({ url: PRIVATE_ASSET, headers });
        expect(response.statusCode, JSON.stringify(headers)).toBe(401);
        expect(response.body).toBe('');
        expect(response.headers.etag).toBeUndefined();
      }
      const head = await app.inject({ method: 'HEAD', url: PRIVATE_PAGE });
      expect(head.statusCode).toBe(302);
      expect(head.headers['content-length'] ?? '0').toBe('0');
    });

    it('cannot climb out of the open section', async () => {
      for (const url of [
        '/docs/Norigin-Spatial-Navigation/../layout-engine/',
        '/docs/Norigin-Spatial-Navigation/%2e%2e/layout-engine/',
        '/docs/Norigin-Spatial-Navigation%2f..%2flayout-engine',
        '/docs/norigin-spatial-navigation/..%5clayout-engine',
      ]) {
        const response = await app.inject({ url });
        expect(response.body, url).not.toContain(PRIVATE_CANARY);
        expect([302, 400, 404], url).toContain(response.statusCode);
      }
    });
  });

  describe('signed-in readers', () => {
    it('read private pages and files, marked private and uncacheable by shared caches', async () => {
      const { cookie } = await signedIn();
      const response = await app.inject({ url: '/docs/Layout-Engine', headers: { cookie } });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain(PRIVATE_CANARY);
      expect(response.headers['cache-control']).toBe('private, no-store');
      expect(response.headers.vary).toBe('Accept-Encoding, Accept, Cookie');
      const asset = await app.inject({ url: PRIVATE_ASSET, headers: { cookie } });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    });

    it('see their e-mail and groups at GET /api/session, with the groups hint cookie; anonymous readers get 401', async () => {
      const reader = await readers.create({ groups: ['partner', 'admin'] });
      const cookie = await signInCookie(app, await readers.signIn(reader.email, reader.password));
      const me = await app.inject({ url: '/api/session', headers: { cookie } });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual({
        email: reader.email,
        groups: ['partner', 'admin'],
        units: unitsOfGroups(['partner', 'admin']),
      });
      const hint = me.cookies.find((c) => c.name === GROUPS_HINT_COOKIE);
      expect(hint).toMatchObject({ value: 'partner.admin', path: '/', sameSite: 'Lax' });
      expect(hint?.httpOnly).toBeFalsy();
      expect((await app.inject({ url: '/api/session' })).statusCode).toBe(401);
    });

    it('get a session cookie that is HttpOnly, SameSite=Lax, 5 days, not Secure on localhost', async () => {
      const reader = await readers.create();
      const response = await app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { origin: ORIGIN },
        payload: { idToken: await readers.signIn(reader.email, reader.password) },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ email: reader.email, groups: ['staff'], units: unitsOfGroups(['staff']) });
      const setCookie = String(
        [response.headers['set-cookie']].flat().find((header) => header?.startsWith(`${SESSION_COOKIE}=`)),
      );
      expect(setCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
      expect(setCookie).toContain('HttpOnly');
      expect(setCookie).toContain('SameSite=Lax');
      expect(setCookie).toContain('Max-Age=432000');
      expect(setCookie).toContain('Path=/');
      expect(setCookie).not.toContain('Secure');
    });

    it('get a Secure cookie off localhost', async () => {
      const reader = await readers.create();
      const response = await app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { origin: 'http://docs.example.com', host: 'docs.example.com' },
        payload: { idToken: await readers.signIn(reader.email, reader.password) },
      });
      expect(response.statusCode).toBe(200);
      expect(String(response.headers['set-cookie'])).toContain('Secure');
    });

    it('are signed out by logout: cookie cleared, the old cookie refused at once', async () => {
      const { cookie } = await signedIn();
      expect((await app.inject({ url: PRIVATE_PAGE, headers: { cookie } })).statusCode).toBe(200);
      const logout = await app.inject({ method: 'POST', url: '/api/logout', headers: { cookie, origin: ORIGIN } });
      expect(logout.statusCode).toBe(204);
      expect(String(logout.headers['set-cookie'])).toMatch(
        new RegExp(`^${SESSION_COOKIE}=;.*Expires=Thu, 01 Jan 1970`),
      );
      const after = await app.inject({ url: PRIVATE_PAGE, headers: { cookie } });
      expect(after.statusCode).toBe(302);
      expect(after.body).not.toContain(PRIVATE_CANARY);
    });

    it('have their refresh tokens revoked at logout, so other servers refuse the cookie too', async () => {
      const reader = await readers.create();
      const cookie = await signInCookie(app, await readers.signIn(reader.email, reader.password));
      await new Promise((resolve) => setTimeout(resolve, 1100)); // revocation works in whole seconds
      await app.inject({ method: 'POST', url: '/api/logout', headers: { cookie, origin: ORIGIN } });
      const { app: other } = await testApp(siteDir);
      try {
        expect((await other.inject({ url: PRIVATE_PAGE, headers: { cookie } })).statusCode).toBe(302);
      } finally {
        await other.close();
      }
    });
  });

  describe('readers the identity service no longer vouches for are signed out', () => {
    // A server without the verification cache, so each check asks the emulator.
    let fresh: FastifyInstance;
    beforeAll(async () => {
      ({ app: fresh } = await testApp(siteDir, { SESSION_CACHE_TTL_SECONDS: '0' }));
    });
    afterAll(() => fresh.close());

    it.each([
      ['disabled', (r: EmulatorReaders, uid: string) => r.disable(uid)],
      ['deleted', (r: EmulatorReaders, uid: string) => r.remove(uid)],
      ['revoked', (r: EmulatorReaders, uid: string) => r.revoke(uid)],
    ])('%s: the cookie is cleared and private pages redirect to login', async (_name, change) => {
      const reader = await readers.create();
      const cookie = await signInCookie(fresh, await readers.signIn(reader.email, reader.password));
      expect((await fresh.inject({ url: PRIVATE_PAGE, headers: { cookie } })).statusCode).toBe(200);
      await change(readers, reader.uid);
      const response = await fresh.inject({ url: PRIVATE_PAGE, headers: { cookie } });
      expect(response.statusCode).toBe(302);
      expect(String(response.headers['set-cookie'])).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
      expect((await fresh.inject({ url: '/api/session', headers: { cookie } })).statusCode).toBe(401);
    });

    it('a reader disabled after signing in cannot start a session with that token', async () => {
      const reader = await readers.create();
      const idToken = await readers.signIn(reader.email, reader.password);
      await readers.disable(reader.uid);
      const response = await fresh.inject({
        method: 'POST',
        url: '/api/session',
        headers: { origin: ORIGIN },
        payload: { idToken },
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'This account has been disabled.', code: 'disabled' });
      await expect(readers.signIn(reader.email, reader.password)).rejects.toThrow(/USER_DISABLED/);
    });

    it('the verification cache keeps a verified cookie at most its TTL, by the injected clock', async () => {
      let now = Date.now();
      const { app: timed } = await testApp(siteDir, {}, undefined, () => now);
      try {
        const reader = await readers.create();
        const cookie = await signInCookie(timed, await readers.signIn(reader.email, reader.password));
        expect((await timed.inject({ url: PRIVATE_PAGE, headers: { cookie } })).statusCode).toBe(200);
        await readers.disable(reader.uid);
        // Within the TTL (60 s) the cached verdict stands…
        now += 59_000;
        expect((await timed.inject({ url: PRIVATE_PAGE, headers: { cookie } })).statusCode).toBe(200);
        // …and once it has passed, the next request asks the identity service and is signed out.
        now += 2_000;
        const after = await timed.inject({ url: PRIVATE_PAGE, headers: { cookie } });
        expect(after.statusCode).toBe(302);
        expect(String(after.headers['set-cookie'])).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
      } finally {
        await timed.close();
      }
    });

    it('a group removed by an administrator closes its pages once the cached verdict expires', async () => {
      const reader = await readers.create({ groups: ['partner'] });
      const cookie = await signInCookie(fresh, await readers.signIn(reader.email, reader.password));
      expect((await fresh.inject({ url: PRIVATE_PAGE, headers: { cookie } })).statusCode).toBe(200);
      await readers.setGroups(reader.uid, ['partner', 'staff']);
      expect((await fresh.inject({ url: STAFF_PAGE, headers: { cookie } })).statusCode).toBe(200);
      await readers.setGroups(reader.uid, []);
      // No group left: the session ends (the door is closed), not just the page.
      const response = await fresh.inject({ url: PRIVATE_PAGE, headers: { cookie } });
      expect(response.statusCode).toBe(302);
      expect(String(response.headers['set-cookie'])).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    });
  });

  describe('bad cookies are anonymous', () => {
    it.each([
      ['garbage', 'not-a-jwt'],
      ['empty', ''],
      ['tampered payload', 'TAMPER'],
      ['an ID token instead of a session cookie', 'IDTOKEN'],
      ['a valid Firebase session cookie without the gate signature', 'UNSIGNED'],
    ])('%s', async (_name, kind) => {
      let value = kind;
      if (kind === 'UNSIGNED') {
        const reader = await readers.create();
        const real = decodeURIComponent(
          (await signInCookie(app, await readers.signIn(reader.email, reader.password))).slice(
            SESSION_COOKIE.length + 1,
          ),
        );
        value = real.slice(0, real.lastIndexOf('.'));
      }
      if (kind === 'TAMPER' || kind === 'IDTOKEN') {
        const reader = await readers.create();
        const idToken = await readers.signIn(reader.email, reader.password);
        if (kind === 'IDTOKEN') value = idToken;
        else {
          // The gate's cookie is `<Firebase session cookie>.<HMAC>`; change the claims, keep both signatures.
          const real = decodeURIComponent((await signInCookie(app, idToken)).slice(SESSION_COOKIE.length + 1));
          const parts = real.split('.');
          const claims = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString()) as Record<string, unknown>;
          claims.email = 'reader@norigin.example';
          claims.sub = claims.user_id = 'demo-reader';
          parts[1] = Buffer.from(JSON.stringify(claims)).toString('base64url');
          value = encodeURIComponent(parts.join('.'));
        }
      }
      const response = await app.inject({ url: PRIVATE_PAGE, headers: { cookie: `${SESSION_COOKIE}=${value}` } });
      expect(response.statusCode).toBe(302);
      expect(response.body).not.toContain(PRIVATE_CANARY);
    });
  });

  describe('POST /api/session', () => {
    it.each([
      ['no Origin', {}],
      ['another origin', { origin: 'https://evil.example' }],
      ['a look-alike origin', { origin: 'http://localhost:80.evil.example' }],
      ['the null origin', { origin: 'null' }],
    ])('refuses %s with 403 and sets no cookie', async (_name, headers) => {
      const reader = await readers.create();
      const response = await app.inject({
        method: 'POST',
        url: '/api/session',
        headers,
        payload: { idToken: await readers.signIn(reader.email, reader.password) },
      });
      expect(response.statusCode).toBe(403);
      expect(response.headers['set-cookie']).toBeUndefined();
      expect(response.json()).toEqual({ error: 'Cross-origin requests are not allowed' });
    });

    it.each([
      ['bad JSON', 400, '{"idToken":', 'application/json'],
      ['no idToken', 400, '{}', 'application/json'],
      ['an empty idToken', 400, '{"idToken":""}', 'application/json'],
      ['a number', 400, '{"idToken":42}', 'application/json'],
      ['extra fields', 400, '{"idToken":"x","admin":true}', 'application/json'],
      ['a form post', 415, 'idToken=x', 'application/x-www-form-urlencoded'],
      ['a huge body', 413, JSON.stringify({ idToken: 'x'.repeat(20_000) }), 'application/json'],
      ['a garbage token', 401, '{"idToken":"garbage"}', 'application/json'],
    ])('answers %s with %i and a short reason', async (_name, status, payload, type) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { origin: ORIGIN, 'content-type': type },
        payload,
      });
      expect(response.statusCode).toBe(status);
      expect(typeof response.json().error).toBe('string');
      expect(response.json().error.length).toBeLessThan(200);
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('refuses an old sign-in, saying so', async () => {
      // The gate's clock six minutes ahead: the sign-in behind the token is no longer recent.
      const { app: later } = await testApp(siteDir, {}, undefined, () => Date.now() + 6 * 60 * 1000);
      const reader = await readers.create();
      const idToken = await readers.signIn(reader.email, reader.password);
      try {
        const response = await later.inject({
          method: 'POST',
          url: '/api/session',
          headers: { origin: ORIGIN },
          payload: { idToken },
        });
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ error: 'Sign in again: the sign-in is not recent.', code: 'not-recent' });
        expect(response.headers['set-cookie']).toBeUndefined();
      } finally {
        await later.close();
      }
    });

    it('is rate limited per client', async () => {
      const { app: limited } = await testApp(siteDir, { SESSION_RATE_LIMIT: '3' });
      try {
        const statuses = [];
        for (let i = 0; i < 5; i++) {
          statuses.push(
            (
              await limited.inject({
                method: 'POST',
                url: '/api/session',
                headers: { origin: ORIGIN },
                payload: { idToken: 'x' },
              })
            ).statusCode,
          );
        }
        expect(statuses).toEqual([401, 401, 401, 429, 429]);
      } finally {
        await limited.close();
      }
    });
  });

  describe('readers in groups', () => {
    it('a partner reads partner pages and chunks, and gets the no-access page for staff-only pages', async () => {
      const reader = await readers.create({ groups: ['partner'] });
      const cookie = await signInCookie(app, await readers.signIn(reader.email, reader.password));
      const partnerPage = await app.inject({ url: PRIVATE_PAGE, headers: { cookie } });
      expect(partnerPage.statusCode).toBe(200);
      expect(partnerPage.body).toContain(PRIVATE_CANARY);
      expect((await app.inject({ url: PRIVATE_ASSET, headers: { cookie } })).statusCode).toBe(200);

      const staffPage = await app.inject({ url: '/DOCS/frontend-guidelines/gitflow/', headers: { cookie } });
      expect(staffPage.statusCode).toBe(403);
      expect(staffPage.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(staffPage.headers['cache-control']).toBe('no-store');
      expect(staffPage.headers.vary).toContain('Cookie');
      expect(staffPage.body).toContain('You do not have access to this page');
      expect(staffPage.body).toContain(reader.email);
      expect(staffPage.body).toContain('mailto:developer-access@norigin.example?subject=Access%20to%20');
      expect(staffPage.body).toContain('href="/"');
      expect(staffPage.body).not.toContain(STAFF_CANARY);
      // Still signed in: the no-access page ends nothing.
      expect(staffPage.headers['set-cookie']).toBeUndefined();

      for (const headers of [{}, { range: 'bytes=0-10' }, { 'if-none-match': '*' }]) {
        const asset = await app.inject({ url: STAFF_ASSET, headers: { cookie, ...headers } });
        expect(asset.statusCode, JSON.stringify(headers)).toBe(403);
        expect(asset.body).toBe('');
        expect(asset.headers.etag).toBeUndefined();
      }
    });

    it('staff read the staff-only page and chunk', async () => {
      const { cookie } = await signedIn(['staff']);
      const page = await app.inject({ url: STAFF_PAGE, headers: { cookie } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(STAFF_CANARY);
      expect((await app.inject({ url: STAFF_ASSET, headers: { cookie } })).statusCode).toBe(200);
    });

    it('a verified company address is staff by its domain, without a claim', async () => {
      const reader = await readers.create({ groups: [], email: `dev-${Date.now()}@norigin.example` });
      const response = await app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { origin: ORIGIN },
        payload: { idToken: await readers.signIn(reader.email, reader.password) },
      });
      expect(response.json()).toEqual({ email: reader.email, groups: ['staff'], units: unitsOfGroups(['staff']) });
    });

    /** An account made the way anyone can: the public sign-up call with the web API key. */
    const selfMade = async (email?: string): Promise<string> => {
      const response = await fetch(
        `http://${readers.host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(
            email ? { email, password: 'let-me-in-123', returnSecureToken: true } : { returnSecureToken: true },
          ),
        },
      );
      const json = (await response.json()) as { idToken: string };
      return json.idToken;
    };

    it.each([
      ['a self-made account at another domain', () => selfMade(`someone-${Date.now()}@gmail.example`), true],
      [
        'a self-made account at the company domain, unverified',
        () => selfMade(`fake-${Date.now()}@norigin.example`),
        true,
      ],
      ['an account without an e-mail address', () => selfMade(), false],
    ])('%s gets no session: 403 with the reason, and no cookie', async (_name, token, hasEmail) => {
      const response = await app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { origin: ORIGIN },
        payload: { idToken: await token() },
      });
      expect(response.statusCode).toBe(403);
      expect(response.headers['set-cookie']).toBeUndefined();
      const body = response.json() as { code: string; email: string | null; requestAccess: string; error: string };
      expect(body.code).toBe(hasEmail ? 'no-access' : 'no-email');
      expect(body.requestAccess).toBe('developer-access@norigin.example');
      if (hasEmail) expect(body.email).toMatch(/@/);
      expect(body.error.length).toBeLessThan(200);
    });

    it('refuses a token or a cookie issued in the same second as a logout', async () => {
      const second = (): number => Math.floor(Date.now() / 1000);
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const reader = await readers.create();
        // Past the second the account was created in, so only the logout can matter.
        await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 10));
        const started = second();
        const idToken = await readers.signIn(reader.email, reader.password);
        const cookie = await signInCookie(app, idToken);
        await app.inject({ method: 'POST', url: '/api/logout', headers: { cookie, origin: ORIGIN } });
        if (second() !== started) continue; // not within one second; try again with a new reader
        const again = await app.inject({
          method: 'POST',
          url: '/api/session',
          headers: { origin: ORIGIN },
          payload: { idToken },
        });
        expect(again.statusCode).toBe(401);
        expect(again.json()).toMatchObject({ code: 'revoked' });
        expect((await app.inject({ url: PRIVATE_PAGE, headers: { cookie } })).statusCode).toBe(302);
        return;
      }
      throw new Error('could not sign in and out within one second in five attempts');
    });
  });

  describe('the client address', () => {
    const attempt = (target: FastifyInstance, headers: Record<string, string>) =>
      target.inject({
        method: 'POST',
        url: '/api/session',
        headers: { origin: ORIGIN, ...headers },
        payload: { idToken: 'x' },
        remoteAddress: '10.0.0.5',
      });

    it('behind a trusted proxy, the sign-in limit counts each client, not the proxy', async () => {
      const { app: proxied } = await testApp(siteDir, { SESSION_RATE_LIMIT: '2', TRUST_PROXY: '10.0.0.0/8' });
      try {
        const statuses = [];
        for (const client of ['203.0.113.1', '203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.3'])
          statuses.push((await attempt(proxied, { 'x-forwarded-for': client })).statusCode);
        // One client's bad tokens block that client only.
        expect(statuses).toEqual([401, 401, 429, 401, 401]);
      } finally {
        await proxied.close();
      }
    });

    it('without TRUST_PROXY, X-Forwarded-For is ignored, so it cannot dodge the limit', async () => {
      const { app: direct } = await testApp(siteDir, { SESSION_RATE_LIMIT: '2' });
      try {
        const statuses = [];
        for (const client of ['203.0.113.1', '203.0.113.2', '203.0.113.3'])
          statuses.push((await attempt(direct, { 'x-forwarded-for': client })).statusCode);
        expect(statuses).toEqual([401, 401, 429]);
      } finally {
        await direct.close();
      }
    });

    it('answers a malformed chunked body with 400 and logs no error', async () => {
      const lines: string[] = [];
      // At "warn", as under npm start: nothing reads the peer's address before the body
      // fails, so the closed socket has none left when the rate limiter asks for it.
      const { app: logged } = await testApp(siteDir, {}, loggerOptions('warn', { write: (line) => lines.push(line) }));
      try {
        await logged.listen({ port: 0, host: '127.0.0.1' });
        const { port } = logged.server.address() as AddressInfo;
        const answers: string[] = [];
        for (let i = 0; i < 3; i++) {
          answers.push(
            await new Promise<string>((resolve) => {
              const socket = connect(port, '127.0.0.1', () => {
                socket.write(
                  'POST /api/session HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\n' +
                    'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{"idToken":1}\r\n0\r\n\r\n',
                );
              });
              let received = '';
              socket.on('data', (chunk) => (received += chunk.toString()));
              socket.on('close', () => resolve(received.split('\r\n')[0] ?? ''));
              socket.on('error', () => resolve(received.split('\r\n')[0] ?? ''));
            }),
          );
        }
        expect(answers).toEqual(['HTTP/1.1 400 Bad Request', 'HTTP/1.1 400 Bad Request', 'HTTP/1.1 400 Bad Request']);
        const errors = lines
          .map((line) => JSON.parse(line) as { level: string; msg: string })
          .filter((r) => r.level === 'error' || r.level === 'fatal');
        expect(errors).toEqual([]);
      } finally {
        await logged.close();
      }
    });
  });

  describe('POST /api/logout', () => {
    it('refuses other origins and keeps the session', async () => {
      const { cookie } = await signedIn();
      const response = await app.inject({
        method: 'POST',
        url: '/api/logout',
        headers: { cookie, origin: 'https://evil.example' },
      });
      expect(response.statusCode).toBe(403);
      expect((await app.inject({ url: PRIVATE_PAGE, headers: { cookie } })).statusCode).toBe(200);
    });

    it('answers 204 without a session', async () => {
      expect((await app.inject({ method: 'POST', url: '/api/logout', headers: { origin: ORIGIN } })).statusCode).toBe(
        204,
      );
    });
  });

  describe('logs', () => {
    it('record requests and sessions as JSON lines without cookies or tokens', async () => {
      const lines: string[] = [];
      const { app: logged } = await testApp(siteDir, {}, loggerOptions('debug', { write: (line) => lines.push(line) }));
      try {
        const reader = await readers.create();
        const idToken = await readers.signIn(reader.email, reader.password);
        const cookie = await signInCookie(logged, idToken);
        await logged.inject({ url: PRIVATE_PAGE, headers: { cookie } });
        await logged.inject({ url: PRIVATE_PAGE, headers: { cookie: `${SESSION_COOKIE}=tampered` } });
        await logged.inject({ method: 'POST', url: '/api/logout', headers: { cookie, origin: ORIGIN } });
        const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
        expect(records.some((record) => record.msg === 'session started')).toBe(true);
        expect(records.some((record) => record.msg === 'incoming request')).toBe(true);
        // Levels by name with Cloud Logging's severity, from Fastify's lines and the fast path's alike.
        expect(records.find((record) => record.msg === 'session started')).toMatchObject({
          level: 'info',
          severity: 'INFO',
        });
        expect(records.filter((record) => typeof record.level !== 'string' || !record.severity)).toEqual([]);
        const all = lines.join('\n');
        const cookieValue = decodeURIComponent(cookie.slice(SESSION_COOKIE.length + 1));
        for (const secret of [idToken, cookieValue, cookieValue.split('.')[1] as string, 'tampered']) {
          expect(all).not.toContain(secret);
        }
      } finally {
        await logged.close();
      }
    });
  });

  describe('responses', () => {
    it('carry the security headers', async () => {
      const response = await app.inject({ url: '/' });
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toMatch(/script-src 'self' 'sha256-[\w+/=]+'/);
      expect(csp).not.toContain("'unsafe-eval'");
      expect(csp).toContain(`http://${String(process.env.FIREBASE_AUTH_EMULATOR_HOST)}`);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(response.headers['x-frame-options']).toBe('DENY');
      expect(response.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    });

    it('are precompressed when the client accepts it, and revalidate with ETag', async () => {
      const br = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      const gzip = await app.inject({ url: '/', headers: { 'accept-encoding': 'gzip;q=1, br;q=0' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      const plain = await app.inject({ url: '/' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toContain('<h1>Home</h1>');
      const again = await app.inject({ url: '/', headers: { 'if-none-match': String(plain.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
    });

    it('cache hashed public assets for a year', async () => {
      const response = await app.inject({ url: '/assets/js/main.0f3c9a77.js' });
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    });

    it('answer other methods with 405 and unknown API paths with 404', async () => {
      for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'] as const) {
        const response = await app.inject({ method, url: PRIVATE_PAGE });
        expect(response.statusCode, method).toBe(405);
        expect(response.body).not.toContain(PRIVATE_CANARY);
      }
      expect((await app.inject({ url: '/api/nothing' })).statusCode).toBe(404);
    });

    it('answer /healthz with liveness only (nothing an outsider could watch reading by) and /api/auth-config', async () => {
      const health = await app.inject({ url: '/healthz' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });
      expect((await app.inject({ url: '/api/auth-config' })).json()).toEqual({
        apiKey: 'demo-api-key',
        authDomain: 'demo-norigin-portal.firebaseapp.com',
        projectId: 'demo-norigin-portal',
        emulatorUrl: `http://${String(process.env.FIREBASE_AUTH_EMULATOR_HOST)}`,
      });
    });
  });
});
