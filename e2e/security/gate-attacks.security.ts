import { expect, test } from '@playwright/test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { startSession } from '../../scripts/portal-client.mjs';
import { demoReader, emulatorReaders } from '../readers';
import { rawRequest, sessionClaims, signForGate, unsignedSessionCookie } from './lib';
import { recordFigure } from './record';

const PRIVATE_PAGE = '/docs/layout-engine/';
const PRIVATE_TEXT = 'Component registry'; // a heading of the private page
/** A private file that is not a page: the blog feed. */
const privateAsset = '/blog/rss.xml';
let cookie = '';
let baseURL = '';

// eslint-disable-next-line no-empty-pattern -- Playwright passes test info second; no fixture is needed
test.beforeAll(async ({}, testInfo) => {
  baseURL = String(testInfo.project.use.baseURL);
  cookie = await startSession(baseURL, await emulatorReaders.signIn(demoReader.email, demoReader.password));
  const html = (await rawRequest(baseURL, { path: PRIVATE_PAGE, headers: { cookie } })).body;
  expect(html).toContain(PRIVATE_TEXT);
});

test.describe('methods and headers', () => {
  test('no method reads a private page or file anonymously', async () => {
    const answers: string[] = [];
    for (const path of [PRIVATE_PAGE, privateAsset]) {
      for (const method of [
        'HEAD',
        'OPTIONS',
        'TRACE',
        'PUT',
        'DELETE',
        'PATCH',
        'POST',
        'PROPFIND',
        'SEARCH',
        'CONNECT',
      ]) {
        const response = await rawRequest(baseURL, { method, path }).catch((error: Error) => ({
          status: -1,
          body: error.message,
          headers: {},
        }));
        answers.push(`${method} ${path} ${response.status}`);
        expect(response.body, `${method} ${path}`).not.toContain(PRIVATE_TEXT);
        expect([302, 400, 401, 404, 405, -1], `${method} ${path}`).toContain(response.status);
        expect(response.status, `${method} ${path}`).not.toBe(200);
      }
    }
    recordFigure('methods', { requests: answers.length, answers });
  });

  test('Range, If-Range and conditional requests never reveal a private file', async () => {
    const signedIn = await rawRequest(baseURL, { path: PRIVATE_PAGE, headers: { cookie } });
    const etag = String(signedIn.headers.etag);
    for (const headers of [
      { range: 'bytes=0-99' } as Record<string, string>,
      { range: 'bytes=-500' },
      { range: 'bytes=0-0,10-20' },
      { 'if-range': etag, range: 'bytes=0-99' },
      { 'if-none-match': etag },
      { 'if-none-match': '*' },
      { 'if-modified-since': new Date().toUTCString() },
      { 'if-match': etag },
    ]) {
      for (const path of [PRIVATE_PAGE, privateAsset]) {
        const response = await rawRequest(baseURL, { path, headers });
        expect([302, 401], `${path} ${JSON.stringify(headers)}`).toContain(response.status);
        expect(response.body).toBe('');
        expect(response.headers.etag).toBeUndefined();
      }
    }
  });

  test('rewrite and forwarding headers do not change what is served', async () => {
    for (const headers of [
      { 'x-original-url': PRIVATE_PAGE } as Record<string, string>,
      { 'x-rewrite-url': PRIVATE_PAGE },
      { 'x-forwarded-prefix': '/docs/layout-engine' },
      { 'x-forwarded-host': 'localhost', 'x-forwarded-proto': 'https', 'x-forwarded-for': '127.0.0.1' },
      { 'x-http-method-override': 'GET', 'x-original-method': 'GET' },
    ]) {
      const home = await rawRequest(baseURL, { path: '/', headers });
      expect(home.status).toBe(200);
      expect(home.body).not.toContain(PRIVATE_TEXT);
      const page = await rawRequest(baseURL, { path: PRIVATE_PAGE, headers });
      expect(page.status, JSON.stringify(headers)).toBe(302);
    }
  });

  test('Host header tricks neither open private pages nor redirect off the site', async () => {
    for (const host of ['evil.example', 'localhost', '127.0.0.1:1', 'localhost@evil.example']) {
      const response = await rawRequest(baseURL, { path: PRIVATE_PAGE, headers: { host } });
      expect(response.status, host).toBe(302);
      // The redirect is a path, never an absolute URL built from the Host header.
      expect(String(response.headers.location), host).toMatch(/^\/login\?next=/);
    }
  });

  test('a signed-in answer can never be stored by a shared cache for someone else', async () => {
    for (const path of [PRIVATE_PAGE, privateAsset, '/api/session']) {
      const response = await rawRequest(baseURL, { path, headers: { cookie, 'accept-encoding': 'br' } });
      expect(response.status, path).toBe(200);
      expect(response.headers['cache-control'], path).toBe('private, no-store');
      expect(String(response.headers.vary), path).toContain('Cookie');
    }
    for (const path of [PRIVATE_PAGE, privateAsset]) {
      const anonymous = await rawRequest(baseURL, { path });
      expect(anonymous.headers['cache-control'], path).toBe('no-store');
      expect(String(anonymous.headers.vary), path).toContain('Cookie');
    }
    // Public pages are the same bytes for everyone: the reader's e-mail is filled in by the browser.
    const home = await rawRequest(baseURL, { path: '/', headers: { cookie } });
    expect(home.body).not.toContain(demoReader.email);
    expect(home.body).toBe((await rawRequest(baseURL, { path: '/' })).body);
  });
});

test.describe('sessions', () => {
  const refused = async (value: string, what: string): Promise<void> => {
    const response = await rawRequest(baseURL, { path: PRIVATE_PAGE, headers: { cookie: `__session=${value}` } });
    expect(response.status, what).toBe(302);
    expect(response.body, what).not.toContain(PRIVATE_TEXT);
  };

  test('forged, expired, foreign and misused cookies are refused', async () => {
    const reader = await emulatorReaders.create();
    // Revocation works in whole seconds from the reader's creation: sign in a second later.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const claims = sessionClaims(reader.uid, reader.email);
    const idToken = await emulatorReaders.signIn(reader.email, reader.password);
    // Sanity: a correctly formed cookie for this reader, signed by the gate, is accepted.
    const good = await rawRequest(baseURL, {
      path: PRIVATE_PAGE,
      headers: { cookie: `__session=${signForGate(unsignedSessionCookie(claims))}` },
    });
    expect(good.status).toBe(200);

    const cases: [string, string][] = [
      ['expired', signForGate(unsignedSessionCookie({ ...claims, exp: Math.floor(Date.now() / 1000) - 60 }))],
      [
        'another project',
        signForGate(unsignedSessionCookie(sessionClaims(reader.uid, reader.email, 'demo-other-project'))),
      ],
      ['an ID token as the session cookie', signForGate(idToken)],
      [
        'an unknown reader',
        signForGate(unsignedSessionCookie(sessionClaims('no-such-reader', 'ghost@readers.example'))),
      ],
      ['no gate signature', encodeURIComponent(unsignedSessionCookie(claims))],
      ['signed with another key', signForGate(unsignedSessionCookie(claims), 'another-secret-of-at-least-32-chars')],
      ['garbage', 'x'.repeat(300)],
    ];
    for (const [what, value] of cases) await refused(value, what);
    recordFigure('forged_cookies', { cases: cases.length + 1 });
  });

  test('duplicate and oversized cookies', async () => {
    const [name, value] = cookie.split('=') as [string, string];
    const bad = await rawRequest(baseURL, {
      path: PRIVATE_PAGE,
      headers: { cookie: `${name}=garbage; ${name}=${value}` },
    });
    expect(bad.status).toBe(302); // the first one counts, and it is no good
    expect(bad.body).not.toContain(PRIVATE_TEXT);
    const huge = await rawRequest(baseURL, {
      path: PRIVATE_PAGE,
      headers: { cookie: `__session=${'a'.repeat(20_000)}` },
    });
    expect(huge.status).toBe(431);
    expect((await rawRequest(baseURL, { path: '/healthz' })).status).toBe(200);
  });

  test('session calls from another origin, or with none, are refused', async () => {
    const reader = await emulatorReaders.create();
    const idToken = await emulatorReaders.signIn(reader.email, reader.password);
    for (const origin of [
      undefined,
      'https://evil.example',
      'null',
      `${baseURL}.evil.example`,
      baseURL.replace('127.0.0.1', 'localhost'),
    ]) {
      for (const path of ['/api/session', '/api/logout']) {
        const response = await rawRequest(baseURL, {
          method: 'POST',
          path,
          headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}), cookie },
          body: JSON.stringify({ idToken }),
        });
        expect(response.status, `${path} from ${origin}`).toBe(403);
        expect(response.headers['set-cookie'], `${path} from ${origin}`).toBeUndefined();
      }
    }
    // The reader's session survived the cross-origin logout attempts.
    expect((await rawRequest(baseURL, { path: PRIVATE_PAGE, headers: { cookie } })).status).toBe(200);
  });

  test("an attacker's page cannot sign a visitor in as the attacker (login CSRF)", async ({ browser }) => {
    const attacker = await emulatorReaders.create();
    const idToken = await emulatorReaders.signIn(attacker.email, attacker.password);
    const evil: Server = createServer((_request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(`<!doctype html><form id=f method=post action="${baseURL}/api/session" enctype="text/plain">
<input name='{"idToken":"${idToken}","x":"' value='"}'></form>
<script>
fetch(${JSON.stringify(baseURL + '/api/session')}, { method: 'POST', mode: 'no-cors', credentials: 'include',
  headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ idToken: ${JSON.stringify(idToken)} }) })
  .finally(() => document.getElementById('f').submit());
</script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const evilURL = `http://127.0.0.1:${(evil.address() as AddressInfo).port}/`;
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const attempts: string[] = [];
      const answers: number[] = [];
      page.on('request', (req) => {
        if (req.url().endsWith('/api/session')) attempts.push(req.method());
      });
      page.on('response', (response) => {
        if (response.url().endsWith('/api/session') && response.status() > 0) answers.push(response.status());
      });
      await page.goto(evilURL);
      // The script's fetch and the form post both reached the gate.
      await expect.poll(() => attempts.length).toBeGreaterThanOrEqual(2);
      await expect.poll(() => answers.length).toBeGreaterThanOrEqual(1);
      expect(answers.every((status) => status === 403 || status === 415)).toBe(true);
      const cookies = await context.cookies(baseURL);
      expect(cookies.filter((c) => c.name === '__session')).toEqual([]);
    } finally {
      await context.close();
      evil.close();
    }
  });
});
