import { BaseAuth } from 'firebase-admin/auth';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { startRedis, type RunningRedis } from '../../tools/lib/redis.mjs';
import { ORIGIN, readyTestApp, signInCookie, storeReady, testApp } from './test/harness.js';
import { registration } from './test/oauth-flow.js';
import type { EmulatorReaders } from './test/readers.js';
import { makeTestSite } from './test/test-site.js';
import { REQUEST_ID } from './request-id.js';

describe('operations', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(await makeTestSite()));
  });
  afterAll(() => app.close());

  it('/readyz checks the manifest, the identity service, the database and the shared state', async () => {
    const response = await app.inject({ url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ready',
      checks: { manifest: true, identity: true, database: true, redis: true },
      redis: 'memory',
    });
  });

  it('/readyz asks the identity service at most once in ten seconds, however often it is probed', async () => {
    let now = Date.parse('2026-01-05T09:00:00Z');
    const { app: probed } = await testApp(await makeTestSite(), {}, undefined, () => now);
    // Counts the Admin SDK's calls and lets each through to the emulator.
    const getUser = vi.spyOn(BaseAuth.prototype, 'getUser');
    const identityCalls = (): number => getUser.mock.calls.filter(([uid]) => uid === 'portal-readiness-probe').length;
    try {
      // Thirty seconds of a busy prober: a probe every half second.
      for (let probe = 0; probe < 60; probe++) {
        const answer = await probed.inject({ url: '/readyz' });
        expect(answer.json()).toMatchObject({ status: 'ready', checks: { identity: true } });
        now += 500;
      }
      expect(identityCalls()).toBe(3);
    } finally {
      getUser.mockRestore();
      await probed.close();
    }
  });

  it('/metrics counts requests by surface, access and status, and session-cache hits, for this machine only', async () => {
    const account = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(app, await readers.signIn(account.email, account.password));
    await app.inject({ url: '/docs/layout-engine/', headers: { cookie } });
    await app.inject({ url: '/docs/layout-engine/', headers: { cookie } });
    await app.inject({ url: '/docs/' });
    await app.inject({ url: '/docs/layout-engine.md', headers: { cookie } });
    await app.inject({ url: '/docs/', headers: { accept: 'text/markdown' } });
    await app.inject({ url: '/assets/js/main.0f3c9a77.js' });
    await app.inject({ url: '/llms.txt' });
    await app.inject({ url: '/api/search?q=layout', headers: { cookie } });
    await app.inject({ method: 'POST', url: '/mcp', payload: {} });
    await app.inject({ url: '/api/session', headers: { cookie } });
    await app.inject({ url: '/api/admin/readers', headers: { cookie } });
    const metrics = await app.inject({ url: '/metrics' });
    expect(metrics.statusCode).toBe(200);
    const count = (labels: string): number =>
      Number(new RegExp(`^portal_http_requests_total\\{${labels}\\} (\\d+)$`, 'm').exec(metrics.body)?.[1] ?? 0);
    expect(count('surface="page",access="private",status="200"')).toBeGreaterThanOrEqual(2);
    expect(count('surface="page",access="public",status="200"')).toBeGreaterThanOrEqual(1);
    expect(count('surface="markdown",access="private",status="200"')).toBeGreaterThanOrEqual(1);
    expect(count('surface="markdown",access="public",status="200"')).toBeGreaterThanOrEqual(1);
    expect(count('surface="asset",access="public",status="200"')).toBeGreaterThanOrEqual(1);
    expect(count('surface="llms",access="none",status="200"')).toBeGreaterThanOrEqual(1);
    expect(count('surface="session",access="none",status="200"')).toBeGreaterThanOrEqual(2);
    expect(count('surface="admin",access="none",status="403"')).toBeGreaterThanOrEqual(1);
    for (const surface of ['search', 'mcp'])
      expect(metrics.body).toMatch(
        new RegExp(`^portal_http_requests_total\\{surface="${surface}",access="none",status="\\d+"\\} [1-9]`, 'm'),
      );
    // No request is lumped into one "api" class any more.
    expect(metrics.body).not.toMatch(/(class|surface)="api"/);
    expect(metrics.body).toMatch(/portal_session_checks_total\{result="hit"\} [1-9]/);
    expect(metrics.body).toContain(
      'portal_http_request_duration_seconds_bucket{le="0.0005",surface="page",access="private"}',
    );
    expect(metrics.body).toContain('portal_audit_dropped_events_total 0');
    expect(metrics.body).toContain('# TYPE portal_audit_dropped_events_total counter');
    expect(metrics.body).toContain('# TYPE process_cpu_user_seconds_total counter');
    // Through a proxy, or from another machine, there is nothing here.
    expect((await app.inject({ url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.7' } })).statusCode).toBe(404);
    expect((await app.inject({ url: '/metrics', remoteAddress: '10.1.2.3' })).statusCode).toBe(404);
  });

  it('/metrics with METRICS_TOKEN wants it as a bearer token', async () => {
    const { app: guarded } = await testApp(await makeTestSite(), { METRICS_TOKEN: 'scrape-me-please-1234' });
    try {
      expect((await guarded.inject({ url: '/metrics' })).statusCode).toBe(404);
      const ok = await guarded.inject({
        url: '/metrics',
        remoteAddress: '10.1.2.3',
        headers: { authorization: 'Bearer scrape-me-please-1234' },
      });
      expect(ok.statusCode).toBe(200);
    } finally {
      await guarded.close();
    }
  });

  it('names every request: the proxy’s X-Request-Id, or one of its own', async () => {
    expect((await app.inject({ url: '/', headers: { 'x-request-id': 'lb-7f3a' } })).headers['x-request-id']).toBe(
      'lb-7f3a',
    );
    expect((await app.inject({ url: '/' })).headers['x-request-id']).toMatch(REQUEST_ID);
  });
});

describe('replicas sharing Redis', () => {
  let redis: RunningRedis;
  let one: FastifyInstance;
  let two: FastifyInstance;
  let readers: EmulatorReaders;

  beforeAll(async () => {
    redis = await startRedis();
    const site = await makeTestSite();
    // A long verification cache, so only the broadcast can end a session on the other replica in time.
    const env = {
      REDIS_URL: redis.url,
      SESSION_CACHE_TTL_SECONDS: '60',
      SESSION_RATE_LIMIT: '4',
      OAUTH_REGISTRATION_RATE_LIMIT: '3',
    };
    ({ app: one, readers } = await testApp(site, env));
    ({ app: two } = await testApp(site, env));
    await storeReady(one);
    await storeReady(two);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await redis?.stop();
  });

  const attempt = (app: FastifyInstance) =>
    app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { origin: ORIGIN },
      payload: { idToken: 'x' },
      remoteAddress: '198.51.100.4',
    });

  it('share one session: made on one, read on both; a logout on one ends it on both at once', async () => {
    const account = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(one, await readers.signIn(account.email, account.password));
    expect((await two.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode).toBe(200);
    await one.inject({ method: 'POST', url: '/api/logout', headers: { cookie, origin: ORIGIN } });
    // `two` had the session cached for a minute; the broadcast dropped it.
    await expect
      .poll(async () => (await two.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode, {
        timeout: 1000,
      })
      .toBe(302);
  });

  it("end a disabled reader's session on every replica within a second", async () => {
    const admin = await readers.create({ groups: ['admin'] });
    const adminCookie = await signInCookie(one, await readers.signIn(admin.email, admin.password));
    const account = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(two, await readers.signIn(account.email, account.password));
    expect((await two.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode).toBe(200);
    const disabled = await one.inject({
      method: 'POST',
      url: `/api/admin/readers/${account.uid}/disable`,
      headers: { cookie: adminCookie, origin: ORIGIN },
    });
    expect(disabled.statusCode, disabled.body).toBe(200);
    const started = Date.now();
    await expect
      .poll(async () => (await two.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode, {
        timeout: 1000,
      })
      .toBe(302);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('count the sign-in limit together', async () => {
    const statuses = [];
    for (const app of [one, two, one, two, one, two]) statuses.push((await attempt(app)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
  });

  it('count OAuth client registrations from every address together', async () => {
    const statuses = [];
    for (const [app, address] of [
      [one, '192.0.2.21'],
      [two, '192.0.2.22'],
      [one, '192.0.2.23'],
      [two, '192.0.2.24'],
    ] as const)
      statuses.push((await registration(app, address)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429]);
  });

  it('keep working from their own memory while Redis is down, and share again when it is back', async () => {
    await redis.pause();
    const account = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(one, await readers.signIn(account.email, account.password));
    expect((await one.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode).toBe(200);
    expect((await two.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode).toBe(200);
    // Degraded, not out of the load balancer: Redis is every replica's, not this one's.
    const degraded = await one.inject({ url: '/readyz' });
    expect(degraded.statusCode).toBe(200);
    expect(degraded.json()).toMatchObject({ status: 'degraded', checks: { redis: false, manifest: true } });
    await redis.resume();
    await expect
      .poll(async () => (await one.inject({ url: '/readyz' })).json().checks.redis, { timeout: 15_000 })
      .toBe(true);
    await one.inject({ method: 'POST', url: '/api/logout', headers: { cookie, origin: ORIGIN } });
    await expect
      .poll(async () => (await two.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode, {
        timeout: 3000,
      })
      .toBe(302);
  });
});
