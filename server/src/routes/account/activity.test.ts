import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ORIGIN, signInCookie, storeReady, testApp } from '../../test/harness.js';
import type { EmulatorReaders } from '../../test/readers.js';
import { makeTestSite } from '../../test/test-site.js';

describe('"Was this page helpful?"', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let partner: string;

  beforeAll(async () => {
    ({ app, readers } = await testApp(await makeTestSite()));
    const account = await readers.create({ groups: ['partner'] });
    partner = await signInCookie(app, await readers.signIn(account.email, account.password));
    await storeReady(app);
  });
  afterAll(() => app.close());

  const answer = (cookie: string | null, payload: unknown, origin: string | null = ORIGIN) =>
    app.inject({
      method: 'PUT',
      url: '/api/feedback',
      headers: { ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}) },
      payload: payload as Record<string, unknown>,
    });

  it('keeps one answer per reader and page, which the reader can change', async () => {
    const first = await answer(partner, {
      path: '/docs/layout-engine/',
      helpful: false,
      comment: '  No virtualisation example ',
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({
      feedback: { path: '/docs/layout-engine/', helpful: false, comment: 'No virtualisation example' },
    });
    await answer(partner, { path: '/DOCS/Layout-Engine', helpful: true, comment: null });
    const mine = await app.inject({
      url: '/api/feedback?path=%2Fdocs%2Flayout-engine%2F',
      headers: { cookie: partner },
    });
    expect(mine.json()).toMatchObject({ feedback: { path: '/docs/layout-engine/', helpful: true, comment: null } });
  });

  it("answers a page outside the reader's groups as one that does not exist", async () => {
    const response = await answer(partner, { path: '/docs/frontend-guidelines/GitFlow', helpful: true });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'No such page' });
    expect((await answer(partner, { path: '/docs/no-such-page', helpful: true })).statusCode).toBe(404);
  });

  it('refuses anonymous readers, other origins and bad bodies', async () => {
    expect((await answer(null, { path: '/docs/layout-engine/', helpful: true })).statusCode).toBe(401);
    expect(
      (await answer(partner, { path: '/docs/layout-engine/', helpful: true }, 'https://evil.example')).statusCode,
    ).toBe(403);
    for (const payload of [
      { path: '/docs/layout-engine/', helpful: 'yes' },
      { path: 'docs/layout-engine/', helpful: true },
      { path: '/docs/layout-engine/', helpful: true, comment: 'x'.repeat(2001) },
      { path: '/docs/layout-engine/', helpful: true, rating: 5 },
    ]) {
      const response = await answer(partner, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(typeof response.json().error).toBe('string');
    }
  });

  it('takes a finished search from a signed-in reader only', async () => {
    const report = (cookie: string | null) =>
      app.inject({
        method: 'POST',
        url: '/api/search-events',
        headers: { ...(cookie ? { cookie } : {}), origin: ORIGIN },
        payload: { query: 'ssai', results: 0 },
      });
    expect((await report(null)).statusCode).toBe(401);
    expect((await report(partner)).statusCode).toBe(202);
  });
});
