import type { AddressInfo } from 'node:net';

import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { fastifyInject, sharedStore, signInCookie, testApp } from './test/harness.js';
import type { EmulatorReaders } from './test/readers.js';
import { makeTestSite, PRIVATE_CANARY, STAFF_CANARY } from './test/test-site.js';
import { cookieReader, PLAIN_PATH } from './fast-path.js';
import { REQUEST_ID } from './request-id.js';
import { queryAudit } from './db/audit.js';

const PRIVATE_PAGE = '/docs/layout-engine/';
const STAFF_PAGE = '/docs/frontend-guidelines/GitFlow/';

/** The headers of an answer that should be the same however it was made (not the moment, not the id). */
function comparable(response: LightMyRequestResponse): Record<string, unknown> {
  expect(response.headers['x-request-id']).toBeTruthy();
  return Object.fromEntries(
    Object.entries(response.headers).filter(([name]) => !['date', 'x-request-id', 'connection'].includes(name)),
  );
}

describe("the gate's fast path", () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  /** Fastify's own inject: Fastify's request cycle only, never the fast path. */
  let viaFastify: FastifyInstance['inject'];
  let fastAnswers: () => Promise<number>;

  beforeAll(async () => {
    ({ app, readers } = await testApp(await makeTestSite()));
    viaFastify = fastifyInject(app);
    fastAnswers = async () => {
      const text = (await app.inject({ url: '/metrics' })).body;
      return Number(/^portal_http_fast_path_requests_total (\d+)/m.exec(text)?.[1] ?? NaN);
    };
  });
  afterAll(() => app.close());

  const partner = async (): Promise<{ cookie: string; email: string }> => {
    const reader = await readers.create({ groups: ['partner'] });
    return {
      cookie: await signInCookie(app, await readers.signIn(reader.email, reader.password)),
      email: reader.email,
    };
  };

  it('answers a public page with the very headers and bytes Fastify sends', async () => {
    for (const encoding of ['br', 'gzip', 'identity']) {
      const headers = { 'accept-encoding': encoding };
      const before = await fastAnswers();
      const fast = await app.inject({ url: '/docs/', headers });
      expect(await fastAnswers(), encoding).toBe(before + 1);
      const full = await viaFastify({ url: '/docs/', headers });
      expect(fast.statusCode).toBe(200);
      expect(comparable(fast)).toEqual(comparable(full));
      expect(fast.rawPayload.equals(full.rawPayload)).toBe(true);
      expect(fast.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
  });

  it('answers a private page to a reader whose session is cached, records the view, and matches Fastify', async () => {
    const { cookie, email } = await partner();
    const headers = { cookie, 'accept-encoding': 'gzip' };
    // The first request verifies the session (Fastify's way); later ones find it cached.
    const full = await viaFastify({ url: PRIVATE_PAGE, headers });
    const before = await fastAnswers();
    const fast = await app.inject({ url: PRIVATE_PAGE, headers });
    expect(await fastAnswers()).toBe(before + 1);
    expect(fast.statusCode).toBe(200);
    expect(comparable(fast)).toEqual(comparable(full));
    expect(fast.rawPayload.equals(full.rawPayload)).toBe(true);
    expect(fast.headers['cache-control']).toBe('private, no-store');
    expect(fast.headers.vary).toBe('Accept-Encoding, Accept, Cookie');

    const store = await sharedStore();
    await store.whenReady();
    await store.flush();
    const views = await queryAudit(store.db, { kinds: ['page.view'], reader: email });
    // Both views, Fastify's and the fast path's, in the one row of the reader, page and hour.
    expect(views.map((view) => [view.path, view.detail.views])).toEqual([[PRIVATE_PAGE, 2]]);
    expect(views[0]?.groups).toEqual(['partner']);
  });

  it('leaves to Fastify every request it does not fully answer, with the same outcome as before', async () => {
    const { cookie } = await partner();
    await app.inject({ url: PRIVATE_PAGE, headers: { cookie } });
    // The session cache finds a cookie by the gate's signature at its end (identity.ts); this
    // one keeps the cached cookie's signatures over other claims, so only the whole cookie tells.
    const sent = cookie.slice(cookie.indexOf('=') + 1);
    const parts = sent.split('.');
    const claims = JSON.parse(Buffer.from(parts[1] as string, 'base64url').toString()) as Record<string, unknown>;
    claims.email = 'staff@norigin.example';
    parts[1] = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const sameSignature = `__session=${parts.join('.')}`;
    expect(sameSignature.slice(sameSignature.lastIndexOf('.'))).toBe(cookie.slice(cookie.lastIndexOf('.')));
    const cases: {
      name: string;
      url: string;
      method?: 'GET' | 'HEAD';
      headers?: Record<string, string>;
      status: number;
    }[] = [
      { name: 'signed out', url: PRIVATE_PAGE, status: 302 },
      {
        name: 'a cookie the gate never made',
        url: PRIVATE_PAGE,
        headers: { cookie: '__session=forged.value' },
        status: 302,
      },
      {
        name: "a cached session's signature on another cookie",
        url: PRIVATE_PAGE,
        headers: { cookie: sameSignature },
        status: 302,
      },
      { name: 'outside the groups', url: STAFF_PAGE, headers: { cookie }, status: 403 },
      { name: 'unknown path', url: '/docs/no-such-page/', headers: { cookie }, status: 404 },
      { name: 'query string', url: `${PRIVATE_PAGE}?tab=tizen`, headers: { cookie }, status: 200 },
      { name: 'percent-encoding', url: '/docs/layout%2Dengine/', headers: { cookie }, status: 200 },
      { name: 'dot segment', url: '/docs/frontend-guidelines/../layout-engine/', status: 302 },
      { name: 'conditional', url: PRIVATE_PAGE, headers: { cookie, 'if-none-match': '*' }, status: 304 },
      { name: 'Markdown', url: PRIVATE_PAGE, headers: { cookie, accept: 'text/markdown' }, status: 200 },
      { name: 'a token', url: '/docs/layout-engine.md', headers: { authorization: 'Bearer nope' }, status: 401 },
      { name: 'HEAD', url: PRIVATE_PAGE, method: 'HEAD', headers: { cookie }, status: 200 },
    ];
    for (const { name, url, method, headers, status } of cases) {
      const before = await fastAnswers();
      const answer = await app.inject({ url, method, headers });
      expect(await fastAnswers(), name).toBe(before);
      expect(answer.statusCode, name).toBe(status);
      const full = await viaFastify({ url, method, headers });
      expect(answer.statusCode, name).toBe(full.statusCode);
      if (status !== 200) {
        expect(answer.body, name).not.toContain(PRIVATE_CANARY);
        expect(answer.body, name).not.toContain(STAFF_CANARY);
      }
    }
  });

  it('tells plain paths apart in time linear in their length, whatever is sent', { timeout: 5000 }, () => {
    for (const path of ['/', '/docs/', '/docs/layout-engine', '/docs/player-adapter-dash.js/', '/a_b~c/d']) {
      expect(PLAIN_PATH.test(path), path).toBe(true);
    }
    for (const path of ['', 'docs', '//docs', '/docs//x', '/docs/../x', '/docs/./x', '/.env', '/docs?x=1', '/a%2fb']) {
      expect(PLAIN_PATH.test(path), path).toBe(false);
    }
    // Long runs of segment characters ending in one that is not: the shape that makes a
    // regular expression with nested repetition backtrack for ever.
    for (const tail of ['%', '?', '//', '/..']) {
      expect(PLAIN_PATH.test(`/${'docs-page-'.repeat(10_000)}${tail}`)).toBe(false);
      expect(PLAIN_PATH.test(`/${'a/'.repeat(10_000)}${tail}`)).toBe(false);
    }
  });

  it("serves over a real connection, with the proxy's request id when it sends one", async () => {
    const { app: served } = await testApp(await makeTestSite());
    await served.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(served.server.address() as AddressInfo).port}`;
    const response = await fetch(`${base}/docs/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-request-id')).toMatch(REQUEST_ID);
    const given = await fetch(`${base}/docs/`, { headers: { 'x-request-id': 'from-the-proxy-1' } });
    expect(given.headers.get('x-request-id')).toBe('from-the-proxy-1');
    await served.close();
  });
});

describe("the fast path's session cookie reader", () => {
  const read = cookieReader('__session');
  const session = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwYXJ0bmVyIn0.c2lnbmF0dXJl.AbC+d/EfG_h-i';
  /** The parse the Fastify path uses (@fastify/cookie, as the gate registers it). */
  let parseCookie: (header: string) => Record<string, string | undefined>;
  beforeAll(async () => {
    const plain = Fastify();
    await plain.register(fastifyCookie);
    await plain.ready();
    parseCookie = (header) => plain.parseCookie(header);
  });

  it('finds the cookie where browsers put it, as the full parse does', () => {
    for (const header of [
      `__session=${session}`,
      `__session=${session}; theme=dark`,
      `theme=dark; __session=${session}`,
      `a=1; b=2; __session=${session}; c=3`,
      `noequals; __session=${session}`,
      `__session=${session}; __session=older`,
    ]) {
      expect(read(header), header).toBe(session);
      expect(parseCookie(header).__session, header).toBe(session);
    }
  });

  it('leaves to Fastify every header it cannot read the same way (never another value)', () => {
    const headers = [
      `x__session=other; __session=${session}`,
      `__session =other; __session=${session}`,
      `theme="a __session=other"; __session=${session}`,
      `a=1;__session=${session}`,
      `a=1;  __session=${session}`,
      `a=1 ; __session=${session}`,
      'theme=dark',
      '',
      '__sessionx=1',
      `__session =${session}`,
    ];
    for (const header of headers) {
      const value = read(header);
      // Undefined sends the request to Fastify; a value must be the one the full parse gives.
      if (value !== undefined) expect(value, header).toBe(parseCookie(header).__session);
    }
    expect(headers.slice(0, 5).map(read)).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('agrees with the full parse on every value it gives, over random headers', () => {
    const parts = [
      '__session',
      '__session=',
      'x__session=',
      ';',
      '; ',
      ' ',
      '=',
      'a',
      '"',
      '%41',
      session,
      'theme=dark',
    ];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let found = 0;
    for (let i = 0; i < 20_000; i++) {
      let header = '';
      for (let n = 1 + Math.floor(random() * 8); n > 0; n--) header += parts[Math.floor(random() * parts.length)];
      const value = read(header);
      if (value === undefined) continue;
      found++;
      // A value with a quote, percent sign or space is never a session the gate signed, so
      // it can only miss the session cache; every other value must be the full parse's.
      if (!/["% ]/.test(value)) expect(value, header).toBe(parseCookie(header).__session);
    }
    expect(found).toBeGreaterThan(1000);
  });
});
