import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { queryAudit } from '../../db/audit.js';
import { ORIGIN, readyTestApp, sharedStore, signInCookie } from '../../test/harness.js';
import {
  authorize as authorizeIn,
  exchange as exchangeIn,
  pkce,
  refresh as refreshIn,
  registration,
  RESOURCE,
  SITE,
} from '../../test/oauth-flow.js';
import type { EmulatorReaders } from '../../test/readers.js';
import { makeTestSite, STAFF_CANARY } from '../../test/test-site.js';

const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

describe('OAuth for /mcp', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let siteDir: string;

  beforeAll(async () => {
    siteDir = await makeTestSite();
    ({ app, readers } = await readyTestApp(siteDir, { SESSION_CACHE_TTL_SECONDS: '0' }));
  });
  afterAll(() => app.close());

  let registrations = 0;
  const register = async (name = 'Test assistant'): Promise<string> => {
    // Registrations are limited per client address: each test client comes from one of its own.
    const response = await registration(app, `198.51.100.${++registrations}`, { client_name: name });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<{ client_id: string }>().client_id;
  };

  const reader = async (groups: string[]) => {
    const account = await readers.create({ groups });
    return { ...account, cookie: await signInCookie(app, await readers.signIn(account.email, account.password)) };
  };

  const authorize = (clientId: string, cookie: string, challenge: string, decision = 'allow') =>
    authorizeIn(app, clientId, cookie, challenge, decision);
  const exchange = (clientId: string, code: string, verifier: string) => exchangeIn(app, clientId, code, verifier);
  const refresh = (clientId: string, refreshToken: string) => refreshIn(app, clientId, refreshToken);

  const readPage = (token: string, path: string) =>
    app.inject({
      method: 'POST',
      url: '/mcp',
      headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` },
      payload: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read_page', arguments: { path } } },
    });

  /** A reader's tokens through a client of its own: the whole flow. */
  const connect = async (groups = ['partner']) => {
    const who = await reader(groups);
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const back = await authorize(clientId, who.cookie, challenge);
    const code = back.searchParams.get('code') as string;
    const tokens = await exchange(clientId, code, verifier);
    expect(tokens.statusCode, tokens.body).toBe(200);
    return { who, clientId, ...tokens.json<{ access_token: string; refresh_token: string; token_type: string }>() };
  };

  it('names its metadata on a 401 from /mcp, and serves both metadata documents', async () => {
    const refused = await app.inject({ method: 'POST', url: '/mcp', headers: MCP_HEADERS, payload: {} });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['www-authenticate']).toContain(
      `resource_metadata="${SITE}/.well-known/oauth-protected-resource/mcp"`,
    );
    const resource = await app.inject({ url: '/.well-known/oauth-protected-resource/mcp' });
    expect(resource.json()).toMatchObject({ resource: RESOURCE, authorization_servers: [SITE] });
    const server = await app.inject({ url: '/.well-known/oauth-authorization-server' });
    expect(server.statusCode).toBe(200);
    expect(server.json()).toMatchObject({
      issuer: SITE,
      authorization_endpoint: `${SITE}/oauth/authorize`,
      token_endpoint: `${SITE}/oauth/token`,
      registration_endpoint: `${SITE}/oauth/register`,
      revocation_endpoint: `${SITE}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('refuses a registration without redirect URIs, with a reason', async () => {
    const response = await app.inject({ method: 'POST', url: '/oauth/register', payload: { client_name: 'x' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
  });

  it("gives a partner's assistant the partner's pages through /mcp, never a staff-only one", async () => {
    const { access_token: token, token_type } = await connect(['partner']);
    expect(token_type).toBe('Bearer');
    const partner = await readPage(token, '/docs/layout-engine/');
    expect(partner.statusCode, partner.body).toBe(200);
    expect(partner.json().result.isError).toBeFalsy();
    const staff = await readPage(token, '/docs/frontend-guidelines/GitFlow/');
    expect(staff.json().result.isError).toBe(true);
    expect(staff.body).not.toContain(STAFF_CANARY);
  });

  it('uses a code once, and refuses a wrong PKCE verifier', async () => {
    const who = await reader(['partner']);
    const clientId = await register();
    const { verifier, challenge } = pkce();
    const code = (await authorize(clientId, who.cookie, challenge)).searchParams.get('code') as string;
    const wrong = await exchange(clientId, code, pkce().verifier);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ error: 'invalid_grant' });

    const again = pkce();
    const second = (await authorize(clientId, who.cookie, again.challenge)).searchParams.get('code') as string;
    expect((await exchange(clientId, second, again.verifier)).statusCode).toBe(200);
    const reused = await exchange(clientId, second, again.verifier);
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ error: 'invalid_grant' });
    // A wrong verifier gave nothing, and the code stays the real client's (it lives a minute).
    expect((await exchange(clientId, code, verifier)).statusCode).toBe(200);
  });

  it("does not let one client use another's code or refresh token", async () => {
    const first = await connect(['partner']);
    const other = await register('Another assistant');
    const { verifier, challenge } = pkce();
    const code = (await authorize(first.clientId, first.who.cookie, challenge)).searchParams.get('code') as string;
    const stolenCode = await exchange(other, code, verifier);
    expect(stolenCode.statusCode).toBe(400);
    expect(stolenCode.json()).toMatchObject({ error: 'invalid_grant' });
    const stolenRefresh = await refresh(other, first.refresh_token);
    expect(stolenRefresh.statusCode).toBe(400);
    expect(stolenRefresh.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('rotates refresh tokens: the old one is refused, and using it again ends the authorisation', async () => {
    const { clientId, refresh_token: first } = await connect(['partner']);
    const rotated = await refresh(clientId, first);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const next = rotated.json<{ access_token: string; refresh_token: string }>();
    expect(next.refresh_token).not.toBe(first);
    expect((await readPage(next.access_token, '/docs/layout-engine/')).statusCode).toBe(200);
    const replayed = await refresh(clientId, first);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json()).toMatchObject({ error: 'invalid_grant' });
    // A replayed refresh token revokes the whole grant (a stolen chain is cut).
    expect((await readPage(next.access_token, '/docs/layout-engine/')).statusCode).toBe(401);
    expect((await refresh(clientId, next.refresh_token)).statusCode).toBe(400);
  });

  it('revokes an access token and a refresh token at the revocation endpoint', async () => {
    const { clientId, access_token: token, refresh_token: refreshToken } = await connect(['partner']);
    expect((await readPage(token, '/docs/layout-engine/')).statusCode).toBe(200);
    const revoke = (value: string) =>
      app.inject({
        method: 'POST',
        url: '/oauth/revoke',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token: value, client_id: clientId }).toString(),
      });
    expect((await revoke(token)).statusCode).toBe(200);
    expect((await readPage(token, '/docs/layout-engine/')).statusCode).toBe(401);
    expect((await revoke(refreshToken)).statusCode).toBe(200);
    expect((await refresh(clientId, refreshToken)).statusCode).toBe(400);
  });

  it('refuses the token at once when its reader is disabled or loses their groups', async () => {
    const disabled = await connect(['partner']);
    expect((await readPage(disabled.access_token, '/docs/layout-engine/')).statusCode).toBe(200);
    await readers.disable(disabled.who.uid);
    expect((await readPage(disabled.access_token, '/docs/layout-engine/')).statusCode).toBe(401);

    const demoted = await connect(['partner']);
    await readers.setGroups(demoted.who.uid, []);
    expect((await readPage(demoted.access_token, '/docs/layout-engine/')).statusCode).toBe(401);
    // And a reader who gains a group reads with it at once: the token carries no groups.
    const promoted = await connect(['partner']);
    await readers.setGroups(promoted.who.uid, ['staff']);
    const staff = await readPage(promoted.access_token, '/docs/frontend-guidelines/GitFlow/');
    expect(staff.json().result.isError).toBeFalsy();
  });

  it('lists connected apps on the account, and revoking one ends its tokens at once, audited', async () => {
    const { who, access_token: token } = await connect(['partner']);
    const list = await app.inject({ url: '/api/apps', headers: { cookie: who.cookie } });
    expect(list.statusCode).toBe(200);
    const [connected] = list.json<{ apps: { id: string; clientName: string; lastUsedAt: string | null }[] }>().apps;
    expect(connected).toMatchObject({ clientName: 'Test assistant' });
    expect((await readPage(token, '/docs/layout-engine/')).statusCode).toBe(200);
    const someoneElse = await reader(['partner']);
    const notTheirs = await app.inject({
      method: 'DELETE',
      url: `/api/apps/${connected?.id}`,
      headers: { cookie: someoneElse.cookie, origin: ORIGIN },
    });
    expect(notTheirs.statusCode).toBe(404);
    const revoked = await app.inject({
      method: 'DELETE',
      url: `/api/apps/${connected?.id}`,
      headers: { cookie: who.cookie, origin: ORIGIN },
    });
    expect(revoked.statusCode).toBe(204);
    expect((await readPage(token, '/docs/layout-engine/')).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/apps', headers: { cookie: who.cookie } })).json()).toEqual({ apps: [] });
    const store = await sharedStore();
    await store.flush();
    const trail = await queryAudit(store.db, { kinds: ['oauth.authorised', 'oauth.revoked'], reader: who.uid });
    expect(trail.map((event) => event.kind).sort()).toEqual(['oauth.authorised', 'oauth.revoked']);
  });

  it('lets administrators list and revoke a reader’s apps, into the audit trail', async () => {
    const { who, access_token: token } = await connect(['partner']);
    const admin = await reader(['admin']);
    const listed = await app.inject({
      url: `/api/admin/apps?reader=${encodeURIComponent(who.email)}`,
      headers: { cookie: admin.cookie },
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const [connected] = listed.json<{ apps: { id: string }[] }>().apps;
    expect(
      (await app.inject({ url: `/api/admin/apps?reader=${who.uid}`, headers: { cookie: who.cookie } })).statusCode,
    ).toBe(403);
    const revoked = await app.inject({
      method: 'DELETE',
      url: `/api/admin/apps/${connected?.id}`,
      headers: { cookie: admin.cookie, origin: ORIGIN },
    });
    expect(revoked.statusCode).toBe(204);
    expect((await readPage(token, '/docs/layout-engine/')).statusCode).toBe(401);
    const store = await sharedStore();
    await store.flush();
    const [event] = await queryAudit(store.db, { kinds: ['oauth.revoked'], reader: admin.uid });
    expect(event).toMatchObject({ subjectUid: who.uid, detail: { byAdministrator: true } });
  });
});
