import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeToken, readyTestApp, signInCookie } from '../../test/harness.js';
import type { EmulatorReaders } from '../../test/readers.js';
import { makeTestSite } from '../../test/test-site.js';
import { titleOfHtml } from '../../page-descriptions.js';

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

describe('a page’s title from its HTML', () => {
  it('takes the page’s part of "Page | Site", decoding entities', () => {
    expect(titleOfHtml('<title data-rh="true">Layout &amp; focus | Norigin Developer Docs</title>')).toBe(
      'Layout & focus',
    );
    expect(titleOfHtml('<title>Norigin Developer Docs</title>')).toBe('Norigin Developer Docs');
    expect(titleOfHtml('<title>A &#x27;b&#39; | c | Site</title>')).toBe("A 'b' | c");
    expect(titleOfHtml('<p>no title</p>')).toBeNull();
    expect(titleOfHtml('<title></title>')).toBeNull();
  });
});

describe('the insights', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let admin: string;
  let partner: string;

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(await makeTestSite(), { SESSION_CACHE_TTL_SECONDS: '0' }));
    const session = async (group: string): Promise<string> => {
      const account = await readers.create({ groups: [group] });
      return signInCookie(app, await readers.signIn(account.email, account.password));
    };
    [admin, partner] = await Promise.all([session('admin'), session('partner')]);
  });
  afterAll(() => app.close());

  it('name each page by its title and unit, for administrators only', async () => {
    const url = '/api/admin/insights/pages';
    expect((await app.inject({ url })).statusCode).toBe(401);
    const refused = await app.inject({ url, headers: { cookie: partner } });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('Layout Engine');
    const answer = await app.inject({ url, headers: { cookie: admin } });
    expect(answer.statusCode).toBe(200);
    const pages = (answer.json() as { pages: { path: string }[] }).pages;
    expect(pages).toContainEqual({
      path: '/docs/layout-engine/',
      title: 'Layout Engine',
      unit: 'layout',
      unitLabel: 'Layout Engine',
    });
    expect(pages).toContainEqual({
      path: '/docs/',
      title: 'Getting Started',
      unit: 'public',
      unitLabel: 'Open to everyone',
    });
    expect(pages.find((page) => page.path === '/docs/frontend-guidelines/GitFlow/')).toMatchObject({
      unit: 'internal',
    });
    // Assistants' reads of the llms files are counted too: named, never by their path.
    expect(pages).toContainEqual({
      path: '/llms-full.txt',
      title: 'llms-full.txt: every page as text',
      unit: null,
      unitLabel: 'For coding assistants',
    });
  });

  it('show an MCP search made with a personal token as an assistant’s, with the token’s name', async () => {
    const name = `Claude Code ${Date.now()}`;
    const token = await makeToken(app, partner, name);
    const query = `zqxw nothing ${Date.now()}`;
    const call = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_docs', arguments: { query } } },
    });
    expect(call.statusCode, call.body).toBe(200);
    expect(call.body).toContain('No pages');
    // The same search through the API with the token, and once more with the session (the reader's own browser).
    const api = await app.inject({
      url: `/api/search?q=${encodeURIComponent(query)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(api.statusCode).toBe(200);
    expect(
      (await app.inject({ url: `/api/search?q=${encodeURIComponent(query)}`, headers: { cookie: partner } }))
        .statusCode,
    ).toBe(200);

    // Searches are written in batches, about once a second.
    let insights: {
      assistants: {
        clients: { name: string; searches: number }[];
        failed: { query: string; times: number; clients: string[] }[];
      };
      searches: { failed: { query: string }[] };
    } | null = null;
    for (let tries = 0; tries < 50; tries++) {
      const answer = await app.inject({ url: '/api/admin/insights?group=partner&days=1', headers: { cookie: admin } });
      expect(answer.statusCode).toBe(200);
      insights = answer.json();
      // The two searches may land in different batches: wait for both.
      if (insights?.assistants.failed.some((row) => row.query === query && row.times === 2)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(insights?.assistants.failed.find((row) => row.query === query)).toEqual({
      query,
      times: 2,
      lastAt: expect.any(String),
      clients: [name],
    });
    expect(insights?.assistants.clients.find((client) => client.name === name)).toMatchObject({
      kind: 'token',
      searches: 2,
      withoutResults: 2,
    });
    // Neither is counted among the readers' own searches, nor is the session's API call an assistant's.
    expect(insights?.searches.failed.map((row) => row.query)).not.toContain(query);
  });
  it("filter by organisation: one organisation's readers' views, never another's, and a clear answer for an unknown one", async () => {
    const suffix = Date.now().toString(36);
    const cookies: Record<string, string> = {};
    for (const name of ['kite', 'wren']) {
      const id = `${name}-${suffix}`;
      const post = (url: string, payload: object) =>
        app.inject({ method: 'POST', url, headers: { cookie: admin, origin: 'http://localhost:80' }, payload });
      expect((await post('/api/admin/organisations', { id, name, domains: [`${id}.example`] })).statusCode).toBe(201);
      expect((await post(`/api/admin/organisations/${id}/licences`, { units: ['layout'] })).statusCode).toBe(201);
      const account = await readers.create({ groups: [], email: `dev@${id}.example` });
      cookies[name] = await signInCookie(app, await readers.signIn(account.email, account.password));
    }
    for (const [name, times] of [
      ['kite', 3],
      ['wren', 1],
    ] as const)
      for (let n = 0; n < times; n++)
        expect((await app.inject({ url: '/docs/layout-engine/', headers: { cookie: cookies[name] } })).statusCode).toBe(
          200,
        );
    type Answer = {
      period: { organisation: string | null };
      views: { total: number; readers: number };
      organisations: { id: string }[];
      neverRead: string[];
    };
    const of = async (organisation: string): Promise<Answer> =>
      (
        await app.inject({ url: `/api/admin/insights?organisation=${organisation}&days=1`, headers: { cookie: admin } })
      ).json();
    // Views are written in batches, about once a second.
    let kite: Answer | null = null;
    for (let tries = 0; tries < 50 && (kite?.views.total ?? 0) < 3; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      kite = await of(`kite-${suffix}`);
    }
    expect(kite?.period.organisation).toBe(`kite-${suffix}`);
    expect(kite?.views).toMatchObject({ total: 3, readers: 1 });
    expect(kite?.organisations.map((organisation) => organisation.id)).toEqual(
      expect.arrayContaining([`kite-${suffix}`, `wren-${suffix}`]),
    );
    // The pages never read are those its licence gives: the layout engine's, which it read.
    expect(kite?.neverRead).not.toContain('/docs/layout-engine/');
    expect((await of(`wren-${suffix}`)).views).toMatchObject({ total: 1, readers: 1 });
    const unknown = await app.inject({
      url: '/api/admin/insights?organisation=nobody-here',
      headers: { cookie: admin },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'No organisation "nobody-here"' });
  });
});
