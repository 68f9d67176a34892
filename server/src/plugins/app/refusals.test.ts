import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeToken, signInCookie, testAppBehindProxy } from '../../test/harness.js';
import type { EmulatorReaders } from '../../test/readers.js';
import type { SwitchableProxy } from '../../test/switchable-proxy.js';
import { makeTestSite, PRIVATE_CANARY, STAFF_CANARY } from '../../test/test-site.js';
import { REFUSALS } from './refusals.js';

/** What a request offers: nothing, a session cookie, or a personal access token. */
type Credential = { cookie?: string; token?: string };

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
const REALM = 'Bearer realm="norigin-developer-docs"';

// One gate, through a proxy in front of the real Auth Emulator that the last test switches off.
describe('the one answer to each reader outcome, on every surface', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let proxy: SwitchableProxy;
  /** A partner: reads the layout engine's pages, not the staff guidelines. */
  const partner: { cookie: string; token: string } = { cookie: '', token: '' };
  /** An administrator's token for the admin API. */
  let adminToken = '';

  const headersOf = ({ cookie, token }: Credential): Record<string, string> => ({
    ...(cookie ? { cookie } : {}),
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });
  const mcp = (credential: Credential, name: string, args: Record<string, unknown>) =>
    app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...MCP_HEADERS, ...headersOf(credential) },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
  /** Each surface asked for what the partner may read (the staff page where `staff` is set), by a credential. */
  const surfaces = {
    page: (credential: Credential, staff = false) =>
      app.inject({
        url: staff ? '/docs/frontend-guidelines/GitFlow/' : '/docs/layout-engine/',
        headers: headersOf(credential),
      }),
    markdown: (credential: Credential, staff = false) =>
      app.inject({
        url: staff ? '/docs/frontend-guidelines/GitFlow.md' : '/docs/layout-engine.md',
        headers: headersOf(credential),
      }),
    llms: (credential: Credential) => app.inject({ url: '/llms-full.txt', headers: headersOf(credential) }),
    search: (credential: Credential) => app.inject({ url: '/api/search?q=layout', headers: headersOf(credential) }),
    mcp: (credential: Credential, staff = false) =>
      mcp(credential, 'read_page', { path: staff ? '/docs/frontend-guidelines/GitFlow/' : '/docs/layout-engine/' }),
    admin: (credential: Credential) => app.inject({ url: '/api/admin/readers', headers: headersOf(credential) }),
  };
  /** The surfaces that answer in JSON and take a token: every one but the HTML page. */
  const apis = ['markdown', 'llms', 'search', 'mcp', 'admin'] as const;

  const signIn = async (groups: string[]) => {
    const account = await readers.create({ groups });
    return { ...account, cookie: await signInCookie(app, await readers.signIn(account.email, account.password)) };
  };
  const clearedSession = (response: LightMyRequestResponse): boolean =>
    response.cookies.some((cookie) => cookie.name === '__session' && cookie.value === '');

  beforeAll(async () => {
    // No verification cache: every request asks the identity service, so it is refused or unanswered at once.
    ({ app, readers, proxy } = await testAppBehindProxy(await makeTestSite()));
    const reader = await signIn(['partner']);
    partner.cookie = reader.cookie;
    partner.token = await makeToken(app, reader.cookie, 'refusals');
    adminToken = await makeToken(app, (await signIn(['admin'])).cookie, 'automation', 1, 'admin');
  });
  afterAll(async () => {
    await app.close();
    await proxy.close();
  });

  it('serves each surface to a reader who may read it (the baseline the refusals differ from)', async () => {
    expect((await surfaces.page({ cookie: partner.cookie })).body).toContain(PRIVATE_CANARY);
    for (const name of ['markdown', 'llms'] as const)
      expect((await surfaces[name]({ token: partner.token })).body, name).toContain(PRIVATE_CANARY);
    expect((await surfaces.search({ token: partner.token })).statusCode).toBe(200);
    expect((await surfaces.mcp({ token: partner.token })).body).toContain(PRIVATE_CANARY);
    expect((await surfaces.admin({ token: adminToken })).statusCode).toBe(200);
  });

  it('answers nobody with the sign-in: the page sends them to /login, every API says "Not signed in" with the Bearer challenge', async () => {
    const page = await surfaces.page({});
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/login?next=%2Fdocs%2Flayout-engine%2F');
    expect(page.headers['cache-control']).toBe('no-store');
    for (const name of ['markdown', 'mcp', 'admin'] as const) {
      const response = await surfaces[name]({});
      expect(response.statusCode, name).toBe(401);
      expect(response.json(), name).toEqual({ error: REFUSALS.anonymous });
      expect(response.headers['www-authenticate'], name).toMatch(new RegExp(`^${REALM}`));
      expect(response.headers['cache-control'], name).toBe('no-store');
    }
    // /mcp names where an OAuth client starts.
    expect((await surfaces.mcp({})).headers['www-authenticate']).toContain(
      'resource_metadata="http://localhost/.well-known/oauth-protected-resource/mcp"',
    );
    // The llms files and the search API answer nobody too, with the open pages only.
    const llms = await surfaces.llms({});
    expect(llms.statusCode).toBe(200);
    expect(llms.body).not.toContain(PRIVATE_CANARY);
    const search = await surfaces.search({});
    expect(search.statusCode).toBe(200);
    expect(search.body).not.toContain('/docs/layout-engine/');
  });

  it('answers a reader outside the units asked for with "no access" on every surface that names a page', async () => {
    const page = await surfaces.page({ cookie: partner.cookie }, true);
    expect(page.statusCode).toBe(403);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(REFUSALS['no-access']);
    expect(page.body).not.toContain(STAFF_CANARY);
    const markdown = await surfaces.markdown({ token: partner.token }, true);
    expect(markdown.statusCode).toBe(403);
    expect(markdown.json()).toEqual({ error: REFUSALS['no-access'] });
    const admin = await surfaces.admin({ cookie: partner.cookie });
    expect(admin.statusCode).toBe(403);
    expect(admin.json()).toEqual({ error: REFUSALS['no-access'] });
    // A token of the other scope is refused for it, in one sentence.
    const scope = await surfaces.admin({ token: partner.token });
    expect(scope.statusCode).toBe(403);
    expect(scope.json()).toEqual({ error: REFUSALS.scope });
    // Where a surface lists or searches, the pages outside the reader's units are not there at all.
    expect((await surfaces.llms({ token: partner.token })).body).not.toContain(STAFF_CANARY);
    expect((await surfaces.mcp({ token: partner.token }, true)).json().result).toMatchObject({
      isError: true,
      content: [
        { text: 'No page at /docs/frontend-guidelines/GitFlow/. Use search_docs or list_sections to find one.' },
      ],
    });
  });

  it('answers a disabled reader as signed out: the session cleared and sent to sign in, a token "not valid" on every API', async () => {
    const reader = await signIn(['partner']);
    const token = await makeToken(app, reader.cookie, 'soon refused');
    const admin = await signIn(['admin']);
    const automation = await makeToken(app, admin.cookie, 'soon refused', 1, 'admin');
    await readers.disable(reader.uid);
    await readers.disable(admin.uid);

    const page = await surfaces.page({ cookie: reader.cookie });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/login?next=%2Fdocs%2Flayout-engine%2F');
    expect(clearedSession(page)).toBe(true);
    const withSession = await surfaces.admin({ cookie: admin.cookie });
    expect(withSession.statusCode).toBe(401);
    expect(withSession.json()).toEqual({ error: REFUSALS.anonymous });
    expect(clearedSession(withSession)).toBe(true);

    for (const name of apis) {
      const response = await surfaces[name]({ token: name === 'admin' ? automation : token });
      expect(response.statusCode, name).toBe(401);
      expect(response.json(), name).toEqual({ error: REFUSALS.token });
      expect(response.headers['www-authenticate'], name).toMatch(new RegExp(`^${REALM}.*, error="invalid_token"$`));
    }
  });

  it('answers every surface with "try again" while the identity service cannot be reached, and serves again after', async () => {
    proxy.down();
    try {
      const page = await surfaces.page({ cookie: partner.cookie });
      expect(page.statusCode).toBe(503);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.headers['retry-after']).toBe('5');
      expect(page.body).toContain(REFUSALS.unavailable);
      expect(page.body).not.toContain(PRIVATE_CANARY);
      expect(page.headers['set-cookie']).toBeUndefined(); // nobody is signed out for the service's fault
      for (const name of apis) {
        const response = await surfaces[name]({ token: name === 'admin' ? adminToken : partner.token });
        expect(response.statusCode, name).toBe(503);
        expect(response.json(), name).toEqual({ error: REFUSALS.unavailable });
        expect(response.headers['retry-after'], name).toBe('5');
        expect(response.headers['cache-control'], name).toBe('no-store');
      }
    } finally {
      proxy.up = true;
    }
    expect((await surfaces.page({ cookie: partner.cookie })).body).toContain(PRIVATE_CANARY);
    expect((await surfaces.markdown({ token: partner.token })).statusCode).toBe(200);
  });
});
