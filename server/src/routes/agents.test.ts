import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { REFUSALS_PER_MINUTE } from '../plugins/app/agent-meter.js';
import { REFUSALS } from '../plugins/app/refusals.js';
import { prefersMarkdown } from '../site.js';
import { MAX_LIVE_TOKENS } from '../auth/tokens.js';
import { queryAudit } from '../db/audit.js';
import { loggerOptions } from '../logging.js';
import { makeToken, ORIGIN, readyTestApp, sharedStore, signInCookie } from '../test/harness.js';
import type { EmulatorReaders } from '../test/readers.js';
import { makeTestSite, PRIVATE_CANARY, STAFF_CANARY } from '../test/test-site.js';

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
/** A JSON-RPC call of MCP's read_page tool. */
const readPage = (id: number, path = '/docs/layout-engine/') => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'read_page', arguments: { path } },
});

describe('personal access tokens and the Markdown of pages', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let siteDir: string;
  const lines: string[] = [];

  beforeAll(async () => {
    siteDir = await makeTestSite();
    ({ app, readers } = await readyTestApp(
      siteDir,
      { SESSION_CACHE_TTL_SECONDS: '0' },
      loggerOptions('info', { write: (line) => lines.push(line) }),
    ));
  });
  afterAll(() => app.close());

  const partnerSession = async (): Promise<{ cookie: string; uid: string; email: string }> => {
    const account = await readers.create({ groups: ['partner'] });
    return { cookie: await signInCookie(app, await readers.signIn(account.email, account.password)), ...account };
  };
  const createToken = async (cookie: string, days = 30): Promise<{ token: string; record: { id: string } }> => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { cookie, origin: ORIGIN },
      payload: { name: 'Claude Code on my laptop', days },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('are made once with a recognisable prefix, listed without their secret, and revoked at once', async () => {
    const { cookie } = await partnerSession();
    const { token, record } = await createToken(cookie);
    expect(token).toMatch(/^norigin_pat_[A-Za-z0-9_-]{43}$/);
    const list = await app.inject({ url: '/api/tokens', headers: { cookie } });
    expect(JSON.stringify(list.json())).not.toContain(token);
    expect(list.json().tokens[0]).toMatchObject({
      id: record.id,
      name: 'Claude Code on my laptop',
      hint: `${token.slice(0, 16)}…`,
    });
    expect((await app.inject({ url: '/docs/layout-engine.md', headers: bearer(token) })).statusCode).toBe(200);
    const revoked = await app.inject({
      method: 'DELETE',
      url: `/api/tokens/${record.id}`,
      headers: { cookie, origin: ORIGIN },
    });
    expect(revoked.statusCode).toBe(204);
    expect((await app.inject({ url: '/docs/layout-engine.md', headers: bearer(token) })).statusCode).toBe(401);
  });

  it("read exactly the reader's pages: a partner's token reads partner Markdown, not staff Markdown", async () => {
    const { cookie } = await partnerSession();
    const { token } = await createToken(cookie);
    const partnerPage = await app.inject({ url: '/DOCS/Layout-Engine.md', headers: bearer(token) });
    expect(partnerPage.statusCode).toBe(200);
    expect(partnerPage.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(partnerPage.body).toContain(PRIVATE_CANARY);
    const staffPage = await app.inject({ url: '/docs/frontend-guidelines/GitFlow.md', headers: bearer(token) });
    expect(staffPage.statusCode).toBe(403);
    expect(staffPage.json()).toEqual({ error: REFUSALS['no-access'] });
    for (const url of ['/llms.txt', '/llms-full.txt']) {
      const llms = await app.inject({ url, headers: bearer(token) });
      expect(llms.statusCode).toBe(200);
      expect(llms.body).toContain(url === '/llms.txt' ? '/docs/layout-engine.md' : PRIVATE_CANARY);
      expect(llms.body).not.toContain(url === '/llms.txt' ? 'GitFlow' : STAFF_CANARY);
    }
    // Never the HTML pages: a token is for the agent surfaces only.
    expect((await app.inject({ url: '/docs/layout-engine/', headers: bearer(token) })).statusCode).toBe(302);
  });

  it('are taken from the Authorization header only, never from the URL or a cookie', async () => {
    const { cookie } = await partnerSession();
    const { token } = await createToken(cookie);
    expect((await app.inject({ url: `/docs/layout-engine.md?token=${token}` })).statusCode).toBe(401);
    expect((await app.inject({ url: `/docs/layout-engine.md?access_token=${token}` })).statusCode).toBe(401);
    expect(
      (await app.inject({ url: '/docs/layout-engine.md', headers: { cookie: `__session=${token}` } })).statusCode,
    ).toBe(401);
    expect((await app.inject({ url: '/llms.txt', headers: { cookie: `token=${token}` } })).body).not.toContain(
      'layout-engine',
    );
    // And they never reach the logs.
    expect(lines.join('\n')).not.toContain(token);
  });

  it("follow the reader's account: a removed group or a disabled account ends their access", async () => {
    const session = await partnerSession();
    const { token } = await createToken(session.cookie);
    expect((await app.inject({ url: '/docs/layout-engine.md', headers: bearer(token) })).statusCode).toBe(200);
    await readers.setGroups(session.uid, []);
    expect((await app.inject({ url: '/docs/layout-engine.md', headers: bearer(token) })).statusCode).toBe(401);
    await readers.setGroups(session.uid, ['partner']);
    expect((await app.inject({ url: '/docs/layout-engine.md', headers: bearer(token) })).statusCode).toBe(200);
    await readers.disable(session.uid);
    expect((await app.inject({ url: '/docs/layout-engine.md', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('refuse bad requests for tokens with a reason', async () => {
    const { cookie } = await partnerSession();
    for (const payload of [{ name: 'x', days: 91 }, { name: '', days: 30 }, { name: 'x', days: 0 }, { name: 'x' }]) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/tokens',
        headers: { cookie, origin: ORIGIN },
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/tokens',
          headers: { origin: ORIGIN },
          payload: { name: 'x', days: 1 },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/api/tokens',
          headers: { cookie, origin: 'https://evil.example' },
          payload: { name: 'x', days: 1 },
        })
      ).statusCode,
    ).toBe(403);
    for (const authorization of ['Bearer nope', 'Basic abc', `Bearer norigin_pat_${'A'.repeat(43)}`]) {
      const response = await app.inject({ url: '/llms.txt', headers: { authorization } });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.headers['www-authenticate']).toContain('Bearer');
    }
  });

  it(`are at most ${MAX_LIVE_TOKENS} live ones per reader: one more is refused with a reason until one is revoked`, async () => {
    const { cookie } = await partnerSession();
    const made = [];
    for (let i = 0; i < MAX_LIVE_TOKENS; i++) made.push(await createToken(cookie));
    const oneMore = await app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { cookie, origin: ORIGIN },
      payload: { name: 'one too many', days: 30 },
    });
    expect(oneMore.statusCode).toBe(409);
    expect(oneMore.json().error).toMatch(/revoke one/);
    const revoked = await app.inject({
      method: 'DELETE',
      url: `/api/tokens/${made[0]?.record.id}`,
      headers: { cookie, origin: ORIGIN },
    });
    expect(revoked.statusCode).toBe(204);
    await createToken(cookie);
    expect((await app.inject({ url: '/api/tokens', headers: { cookie } })).json().maxLive).toBe(MAX_LIVE_TOKENS);
  });

  it('never write a token to the log, however its path is percent-encoded', async () => {
    const { cookie } = await partnerSession();
    const { token } = await createToken(cookie);
    const secret = token.slice('norigin_pat_'.length);
    for (const url of [
      `/docs/%6Eorigin_pat_${secret}`,
      `/docs/norigin%5Fpat%5F${secret}`,
      `/docs/%256Eorigin%255Fpat_${secret}`,
      `/docs/NORIGIN_PAT_${secret}`,
    ])
      await app.inject({ url });
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(secret);
  });

  it("record a reader's reloads and an assistant's loops once per page and hour, with the count beside", async () => {
    const { cookie, uid } = await partnerSession();
    const { token } = await createToken(cookie);
    for (let i = 0; i < 30; i++)
      expect((await app.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode).toBe(200);
    for (let i = 0; i < 10; i++)
      expect((await app.inject({ url: '/docs/layout-engine.md', headers: bearer(token) })).statusCode).toBe(200);
    const batch = await app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...bearer(token), ...MCP_HEADERS },
      payload: Array.from({ length: 20 }, (_, i) => readPage(i + 1)),
    });
    expect(batch.statusCode, batch.body).toBe(200);
    expect(batch.json()).toHaveLength(20);
    const store = await sharedStore();
    await store.flush();
    const views = await queryAudit(store.db, { kinds: ['page.view'], reader: uid });
    expect(
      views
        .map((view) => [view.path, view.detail.via ?? 'page', view.detail.views])
        .sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
    ).toEqual([
      ['/docs/layout-engine/', 'mcp', 20],
      ['/docs/layout-engine/', 'page', 30],
      ['/docs/layout-engine/', 'token', 10],
    ]);
  });

  it('serve a page as Markdown to an Accept: text/markdown request, gated like the page', async () => {
    const { cookie } = await partnerSession();
    const md = await app.inject({ url: '/docs/layout-engine/', headers: { cookie, accept: 'text/markdown' } });
    expect(md.statusCode).toBe(200);
    expect(md.headers['content-type']).toBe('text/markdown; charset=utf-8');
    expect(md.headers.vary).toContain('Accept');
    const html = await app.inject({ url: '/docs/layout-engine/', headers: { cookie, accept: 'text/html,*/*;q=0.8' } });
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect((await app.inject({ url: '/docs/layout-engine/', headers: { accept: 'text/markdown' } })).statusCode).toBe(
      401,
    );
    expect((await app.inject({ url: '/docs/', headers: { accept: 'text/markdown' } })).body).toContain(
      'Open to everyone.',
    );
    // Links are absolute: an assistant reads them out of context.
    expect((await app.inject({ url: '/llms.txt' })).body).toContain(`](${new URL(ORIGIN).origin}/docs.md)`);
    expect((await app.inject({ url: '/llms.txt' })).body).not.toContain('layout-engine');
  });
});

describe('the rate limit of a personal access token', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(await makeTestSite(), { TOKEN_RATE_LIMIT: '3' }));
  });
  afterAll(() => app.close());

  const newToken = async (): Promise<{ token: string; cookie: string }> => {
    const account = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(app, await readers.signIn(account.email, account.password));
    return { token: await makeToken(app, cookie, 'limit'), cookie };
  };
  const mcp = (token: string, payload: unknown) =>
    app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { authorization: `Bearer ${token}`, ...MCP_HEADERS },
      payload: payload as Record<string, unknown>,
    });

  it('is one budget per token across Markdown pages and llms.txt, and leaves a session reading the same page alone', async () => {
    const { token, cookie } = await newToken();
    const authorization = `Bearer ${token}`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await app.inject({ url: '/docs/layout-engine.md', headers: { authorization } })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await app.inject({ url: '/docs/layout-engine.md', headers: { authorization } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ error: expect.stringMatching(/^Too many requests with this token/) });
    expect((await app.inject({ url: '/llms.txt', headers: { authorization } })).statusCode).toBe(429);
    for (let i = 0; i < 5; i++)
      expect(
        (await app.inject({ url: '/docs/layout-engine/', headers: { cookie, accept: 'text/markdown' } })).statusCode,
      ).toBe(200);
  });

  it('keys on the token, never on how the header spells Bearer', async () => {
    const { token } = await newToken();
    const statuses: number[] = [];
    for (const authorization of [`Bearer ${token}`, `bearer ${token}`, `Bearer   ${token}`, `BEARER\t${token}`])
      statuses.push((await app.inject({ url: '/llms.txt', headers: { authorization } })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('charges an MCP batch a unit per call, and refuses a batch that does not fit whole, at no charge', async () => {
    const { token } = await newToken();
    const tooBig = await mcp(token, [readPage(1), readPage(2), readPage(3), readPage(4)]);
    expect(tooBig.statusCode).toBe(429);
    const batch = await mcp(token, [readPage(5), readPage(6), readPage(7)]);
    expect(batch.statusCode, batch.body).toBe(200);
    expect(batch.json()).toHaveLength(3);
    const refused = await mcp(token, readPage(8));
    expect(refused.statusCode).toBe(429);
    // MCP clients read JSON-RPC, so the refusal is one too.
    expect(refused.json()).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32000, message: expect.stringMatching(/^Too many requests with this token/) },
    });
  });
});

describe('refused credentials', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(await makeTestSite()));
  });
  afterAll(() => app.close());

  it('are counted per client address: past the limit a token not known good is answered 429 before any look-up', async () => {
    const account = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(app, await readers.signIn(account.email, account.password));
    const token = await makeToken(app, cookie, 'mine');
    const from = (remoteAddress: string, authorization: string) =>
      app.inject({ url: '/llms.txt', headers: { authorization }, remoteAddress });
    const unknown = (n: number): string => `Bearer norigin_pat_${String(n).padStart(43, 'x')}`;
    // Known good from here on.
    expect((await from('198.51.100.1', `Bearer ${token}`)).statusCode).toBe(200);
    const store = await sharedStore();
    const queries = vi.spyOn(store.db, 'query');
    const lookUps = (): number => queries.mock.calls.filter(([sql]) => String(sql).includes('secret_hash')).length;
    try {
      for (let i = 0; i < REFUSALS_PER_MINUTE; i++)
        expect((await from('198.51.100.1', i % 4 === 0 ? 'Basic abc' : unknown(i))).statusCode).toBe(401);
      const looked = lookUps();
      expect(looked).toBe(REFUSALS_PER_MINUTE - REFUSALS_PER_MINUTE / 4);
      const refused = await from('198.51.100.1', unknown(1000));
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json().error).toMatch(/^Too many refused tokens from this address/);
      expect(
        (await from('198.51.100.1', `bearer ${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).statusCode,
      ).toBe(429);
      expect(lookUps()).toBe(looked);
      // The reader's own token, known good, still reads from there; other addresses are not held back.
      expect((await from('198.51.100.1', `Bearer ${token}`)).statusCode).toBe(200);
      expect((await from('198.51.100.2', unknown(1000))).statusCode).toBe(401);
      // And an unknown token asked again costs no second look-up.
      const once = lookUps();
      expect((await from('198.51.100.2', unknown(1000))).statusCode).toBe(401);
      expect(lookUps()).toBe(once);
    } finally {
      queries.mockRestore();
    }
  });
});

describe('choosing Markdown by the Accept header', () => {
  it.each([
    ['text/markdown', true],
    ['text/markdown, text/html;q=0.9', true],
    ['text/html, text/markdown;q=0.5', false],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['text/markdown;q=0', false],
    ['text/markdown;charset=utf-8', true],
    ['text/markdown; charset=utf-8; q=0.8, text/html;q=0.5', true],
    [undefined, false],
  ])('%s → %s', (accept, expected) => {
    expect(prefersMarkdown(accept)).toBe(expected);
  });
});

describe('the MCP protocol', () => {
  let app: FastifyInstance;
  let token: string;

  beforeAll(async () => {
    let readers: EmulatorReaders;
    ({ app, readers } = await readyTestApp(await makeTestSite()));
    const account = await readers.create({ groups: ['partner'] });
    token = await makeToken(app, await signInCookie(app, await readers.signIn(account.email, account.password)));
  });
  afterAll(() => app.close());

  const post = (payload: string) =>
    app.inject({ method: 'POST', url: '/mcp', headers: { authorization: `Bearer ${token}`, ...MCP_HEADERS }, payload });

  it('marks every tool read-only and advertises no list-changed notifications it never sends', async () => {
    const init = await post(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    );
    expect(init.statusCode, init.body).toBe(200);
    expect(init.json().result.capabilities.tools).toEqual({});
    const list = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }));
    const tools = list.json().result.tools as { name: string; annotations?: Record<string, boolean> }[];
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      'api_changes',
      'get_symbol',
      'latest_changelog',
      'list_sections',
      'read_page',
      'search_docs',
      'whats_new',
    ]);
    for (const tool of tools)
      expect(tool.annotations, tool.name).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it('answers a body that is not JSON with a JSON-RPC parse error', async () => {
    const broken = await post('{"jsonrpc": "2.0", "id": 1, "method": ');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: expect.any(String) }, id: null });
  });

  /** search_docs with `args`: its answer, and the reason it was refused (a JSON-RPC error or a tool error), if it was. */
  const search = async (args: Record<string, unknown>) => {
    const response = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_docs', arguments: args } }),
    );
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as {
      result?: { isError?: boolean; content: { text: string }[]; structuredContent?: { results: unknown[] } };
      error?: { code: number; message: string };
    };
    const refusal = answer.error?.message ?? (answer.result?.isError ? (answer.result.content[0]?.text ?? '') : null);
    return { result: answer.result, refusal };
  };

  it('takes a search result count from 1 to 20 and gives at most that many', async () => {
    for (const limit of [1, 20]) {
      const { result, refusal } = await search({ query: 'layout', limit });
      expect(refusal).toBeNull();
      expect(result?.structuredContent?.results.length).toBeLessThanOrEqual(limit);
    }
  });

  it.each([
    [{ limit: 0 }, /limit/],
    [{ limit: 21 }, /limit/],
    [{ limit: 2.5 }, /limit/],
    [{ limit: '5' }, /limit/],
    [{ version: 'latest' }, /version/],
    [{ version: '2.3' }, /version/],
    [{ version: '1.2.3.4' }, /version/],
  ])('refuses a search with %j, with a reason naming the argument', async (args, named) => {
    const { refusal } = await search({ query: 'layout', ...args });
    expect(refusal).toMatch(named);
  });

  it('searches a release when given a version, and says when that release has no match', async () => {
    const { result, refusal } = await search({ query: 'layout', version: '0.0.1' });
    expect(refusal).toBeNull();
    expect(result?.content[0]?.text).toBe('No pages of version 0.0.1 match "layout".');
  });
});

describe('files for agents', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    ({ app } = await readyTestApp(await makeTestSite()));
  });
  afterAll(() => app.close());

  it('names each page’s Markdown in a Link header', async () => {
    const page = await app.inject({ url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers.link).toBe('</docs.md>; rel="alternate"; type="text/markdown"');
    const markdown = await app.inject({ url: '/docs.md' });
    expect(markdown.headers.link).toBeUndefined();
  });

  it('serves a discovery document naming the MCP server, its authorization and the llms files', async () => {
    const site = new URL(ORIGIN).origin;
    const discovery = await app.inject({ url: '/.well-known/mcp' });
    expect(discovery.statusCode).toBe(200);
    expect(discovery.json()).toMatchObject({
      mcp: {
        url: `${site}/mcp`,
        transport: 'streamable-http',
        authorization: { protected_resource_metadata: `${site}/.well-known/oauth-protected-resource/mcp` },
      },
      llms_txt: `${site}/llms.txt`,
    });
  });
});
