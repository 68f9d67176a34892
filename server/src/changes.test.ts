import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startRedis, type RunningRedis } from '../../tools/lib/redis.mjs';
import { freshPostgresUrl } from './test/databases.js';
import { ORIGIN, readyTestApp, signInCookie } from './test/harness.js';
import type { EmulatorReaders } from './test/readers.js';
import { makeTestSite, PRIVATE_CANARY } from './test/test-site.js';

/**
 * Replicas as they are deployed: two gates on one PostgreSQL server and one Redis. What one
 * changes reaches the other through the change feed in the database, which each reads twice a
 * second; Redis only hurries it. So a change is never lost to a stalled Redis, nor waits on it.
 */
describe('replicas on one database', () => {
  let redis: RunningRedis;
  let databaseUrl: string;
  let one: FastifyInstance;
  let two: FastifyInstance;
  let readers: EmulatorReaders;
  let admin: string;
  const suffix = randomUUID().slice(0, 8);

  beforeAll(async () => {
    redis = await startRedis();
    databaseUrl = await freshPostgresUrl();
    const site = await makeTestSite();
    // A long verification cache, so only the feed can change what the other replica grants in time.
    const env = { DATABASE_URL: databaseUrl, REDIS_URL: redis.url, SESSION_CACHE_TTL_SECONDS: '60' };
    ({ app: one, readers } = await readyTestApp(site, env));
    ({ app: two } = await readyTestApp(site, env));
    await Promise.all([one.changes.feed, two.changes.feed]);
    const account = await readers.create({ groups: ['admin'] });
    admin = await signInCookie(one, await readers.signIn(account.email, account.password));
  });
  afterAll(async () => {
    await redis?.thaw();
    await one?.close();
    await two?.close();
    await redis?.stop();
  });

  const call = (method: 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    one.inject({ method, url, headers: { cookie: admin, origin: ORIGIN }, ...(payload ? { payload } : {}) });
  const status = async (app: FastifyInstance, cookie: string) =>
    (await app.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode;

  /** An organisation with a licence for the layout engine, and a member's session on replica two. */
  async function licensedReader(name: string): Promise<{ licence: string; cookie: string; domain: string }> {
    const id = `${name}-${suffix}`;
    const domain = `${id}.example`;
    expect((await call('POST', '/api/admin/organisations', { id, name, domains: [domain] })).statusCode).toBe(201);
    const granted = await call('POST', `/api/admin/organisations/${id}/licences`, { units: ['layout'] });
    expect(granted.statusCode, granted.body).toBe(201);
    const member = await readers.create({ groups: [], email: `dev@${domain}` });
    // Signed in on two, which learned of the licence from the feed.
    let cookie = '';
    await expect
      .poll(
        async () => {
          cookie = await signInCookie(two, await readers.signIn(member.email, member.password)).catch(() => '');
          return cookie;
        },
        { timeout: 3000 },
      )
      .not.toBe('');
    const page = await two.inject({ url: '/docs/layout-engine/', headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(PRIVATE_CANARY);
    return { licence: (granted.json() as { id: string }).id, cookie, domain };
  }

  it('withdraw a licence on every replica within 3 s while Redis is stalled, and never keep the administrator waiting on it', async () => {
    const { licence, cookie } = await licensedReader('stalled');
    await redis.freeze();
    try {
      const asked = Date.now();
      const withdrawn = await call('DELETE', `/api/admin/licences/${licence}`);
      const answeredIn = Date.now() - asked;
      expect(withdrawn.statusCode, withdrawn.body).toBe(204);
      expect(answeredIn).toBeLessThan(2000);
      await expect.poll(() => status(two, cookie), { timeout: 3000, interval: 100 }).not.toBe(200);
      expect(Date.now() - asked).toBeLessThan(3000);
    } finally {
      await redis.thaw();
    }
  });

  it('end a disabled reader’s session on every replica within 3 s while Redis is stalled', async () => {
    const member = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(two, await readers.signIn(member.email, member.password));
    expect(await status(two, cookie)).toBe(200);
    await redis.freeze();
    try {
      const asked = Date.now();
      const disabled = await one.inject({
        method: 'POST',
        url: `/api/admin/readers/${member.uid}/disable`,
        headers: { cookie: admin, origin: ORIGIN },
      });
      expect(disabled.statusCode, disabled.body).toBe(200);
      await expect.poll(() => status(two, cookie), { timeout: 3000, interval: 100 }).toBe(302);
      expect(Date.now() - asked).toBeLessThan(3000);
    } finally {
      await redis.thaw();
    }
  });

  it('take a licence withdrawn by SQL by hand on every replica, with no message at all', async () => {
    const { licence, cookie } = await licensedReader('by-hand');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const asked = Date.now();
      await client.query('delete from licences where id = $1', [licence]);
      for (const app of [one, two])
        await expect.poll(() => status(app, cookie), { timeout: 2000, interval: 100 }).not.toBe(200);
      expect(Date.now() - asked).toBeLessThan(2000);
    } finally {
      await client.end();
    }
  });

  it('take a change whose transaction commits after a later one’s, which reading in order of numbers would pass over', async () => {
    const first = await licensedReader('first');
    const second = await licensedReader('second');
    const slow = new pg.Client({ connectionString: databaseUrl });
    const quick = new pg.Client({ connectionString: databaseUrl });
    await Promise.all([slow.connect(), quick.connect()]);
    try {
      await slow.query('begin');
      await slow.query('delete from licences where id = $1', [first.licence]);
      // Numbered after the slow one's event, committed before it, and read by the replicas meanwhile.
      await quick.query('delete from licences where id = $1', [second.licence]);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      await slow.query('commit');
      const committed = Date.now();
      await expect.poll(() => status(two, first.cookie), { timeout: 2000, interval: 100 }).not.toBe(200);
      await expect.poll(() => status(two, second.cookie), { timeout: 2000, interval: 100 }).not.toBe(200);
      expect(Date.now() - committed).toBeLessThan(2000);
    } finally {
      await Promise.all([slow.end(), quick.end()]);
    }
  });

  it('never hand on a change that was rolled back', async () => {
    const { licence, cookie } = await licensedReader('rolled-back');
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const count = async () => Number((await client.query('select count(*) as n from change_events')).rows[0].n);
      const before = await count();
      await client.query('begin');
      await client.query('delete from licences where id = $1', [licence]);
      await client.query('rollback');
      expect(await count()).toBe(before);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect(await status(two, cookie)).toBe(200);
    } finally {
      await client.end();
    }
  });
});
