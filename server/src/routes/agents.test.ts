import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { prefersMarkdown } from '../app.js';
import { loggerOptions } from '../logging.js';
import { ORIGIN, signInCookie, testApp } from '../test/harness.js';
import type { EmulatorReaders } from '../test/readers.js';
import { makeTestSite, PRIVATE_CANARY, STAFF_CANARY } from '../test/test-site.js';

describe('personal access tokens and the Markdown of pages', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let siteDir: string;
  const lines: string[] = [];

  beforeAll(async () => {
    siteDir = await makeTestSite();
    ({ app, readers } = await testApp(
      siteDir,
      { SESSION_CACHE_TTL_SECONDS: '0' },
      loggerOptions('info', { write: (line) => lines.push(line) }),
    ));
    for (let tries = 0; tries < 300 && !(await app.inject({ url: '/healthz' })).json().store.ready; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100));
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
    expect(staffPage.body).toBe('');
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
    expect((await app.inject({ url: '/llms.txt' })).body).toContain('/docs.md');
    expect((await app.inject({ url: '/llms.txt' })).body).not.toContain('layout-engine');
  });
});

describe('the rate limit of a personal access token', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;

  beforeAll(async () => {
    ({ app, readers } = await testApp(await makeTestSite(), { TOKEN_RATE_LIMIT: '3' }));
    for (let tries = 0; tries < 300 && !(await app.inject({ url: '/healthz' })).json().store.ready; tries++)
      await new Promise((resolve) => setTimeout(resolve, 100));
  });
  afterAll(() => app.close());

  it('holds on Markdown pages and llms.txt alike, and leaves a session reading the same page alone', async () => {
    const account = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(app, await readers.signIn(account.email, account.password));
    const created = await app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { cookie, origin: ORIGIN },
      payload: { name: 'limit', days: 1 },
    });
    const { token } = created.json() as { token: string };
    const authorization = `Bearer ${token}`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await app.inject({ url: '/docs/layout-engine.md', headers: { authorization } })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await app.inject({ url: '/docs/layout-engine.md', headers: { authorization } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ error: expect.stringMatching(/^Too many requests with this token/) });
    for (let i = 0; i < 3; i++)
      expect((await app.inject({ url: '/llms.txt', headers: { authorization } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/llms.txt', headers: { authorization } })).statusCode).toBe(429);
    for (let i = 0; i < 5; i++)
      expect(
        (await app.inject({ url: '/docs/layout-engine/', headers: { cookie, accept: 'text/markdown' } })).statusCode,
      ).toBe(200);
  });
});

describe('choosing Markdown by the Accept header', () => {
  it.each([
    ['text/markdown', true],
    ['text/markdown, text/html;q=0.9', true],
    ['text/html, text/markdown;q=0.5', false],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', false],
    ['text/markdown;q=0', false],
    [undefined, false],
  ])('%s → %s', (accept, expected) => {
    expect(prefersMarkdown(accept)).toBe(expected);
  });
});
