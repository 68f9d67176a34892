import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ORIGIN, readyTestApp, signInCookie } from '../../test/harness.js';
import type { EmulatorReaders } from '../../test/readers.js';
import { makeTestSite } from '../../test/test-site.js';

type Json = Record<string, unknown>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface AuditEvent {
  kind: string;
  actorEmail: string | null;
  subjectUid: string | null;
  detail: Json;
}

/**
 * The administrators' side of an organisation's own sign-in and provisioning
 * (`/api/admin/organisations/{id}/…`), and the public answer the login page asks for an
 * address (`GET /api/sign-in-options`), through the gate with the real Auth Emulator.
 */
describe('an organisation’s sign-in and provisioning, for administrators', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let admin: string;
  let adminEmail: string;
  let partner: string;
  const suffix = randomUUID().slice(0, 8);
  const org = { id: `lumen-${suffix}`, name: 'Lumen Studios', domain: `lumen-${suffix}.example` };
  const group = `pilot-${suffix}`;
  const base = `/api/admin/organisations/${org.id}`;

  const call = (cookie: string, method: Method, url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie, origin: ORIGIN },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const adminCall = (method: Method, url: string, payload?: unknown) => call(admin, method, url, payload);
  const options = (email: string) => app.inject({ url: `/api/sign-in-options?email=${encodeURIComponent(email)}` });
  const signInShown = async () => {
    const access = await adminCall('GET', '/api/admin/access');
    expect(access.statusCode, access.body).toBe(200);
    const organisations = (access.json() as { organisations: { id: string; signIn: unknown }[] }).organisations;
    const mine = organisations.find((organisation) => organisation.id === org.id);
    expect(mine).toBeDefined();
    return mine?.signIn;
  };
  const overview = async () => {
    const response = await adminCall('GET', `${base}/provisioning`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { signIn: unknown; groups: string[]; tokens: { id: string; name: string }[] };
  };
  const audit = async (kind: string): Promise<AuditEvent[]> => {
    const response = await adminCall('GET', `/api/admin/audit?kind=${kind}`);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { events: AuditEvent[] }).events.filter((event) => event.detail.organisation === org.id);
  };
  const expectReason = (response: { statusCode: number; json(): unknown }, status: number, reason?: RegExp) => {
    expect(response.statusCode).toBe(status);
    const { error } = response.json() as { error?: unknown };
    expect(typeof error).toBe('string');
    expect(error).not.toBe('');
    if (reason) expect(error).toMatch(reason);
  };

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(await makeTestSite()));
    const account = await readers.create({ groups: ['admin'] });
    adminEmail = account.email;
    admin = await signInCookie(app, await readers.signIn(account.email, account.password));
    const reader = await readers.create({ groups: ['partner'] });
    partner = await signInCookie(app, await readers.signIn(reader.email, reader.password));
    const made = await adminCall('POST', '/api/admin/organisations', {
      id: org.id,
      name: org.name,
      domains: [org.domain],
    });
    expect(made.statusCode, made.body).toBe(201);
    const offered = await adminCall('PUT', `/api/admin/access-groups/${group}`, {
      label: 'Pilot programme',
      units: ['layout'],
    });
    expect(offered.statusCode, offered.body).toBe(204);
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 404 with a reason for an organisation that does not exist, on every route', async () => {
    const nobody = `/api/admin/organisations/nobody-${suffix}`;
    const calls: [Method, string, unknown?][] = [
      ['GET', `${nobody}/provisioning`],
      ['PUT', `${nobody}/sign-in`, { provider: 'oidc.test-idp', name: 'Test IdP', required: true }],
      ['DELETE', `${nobody}/sign-in`],
      ['POST', `${nobody}/scim-tokens`, { name: 'Okta' }],
      ['DELETE', `${nobody}/scim-tokens/some-token`],
      ['PUT', `${nobody}/scim-groups`, { groups: [] }],
    ];
    for (const [method, url, payload] of calls) {
      const response = await adminCall(method, url, payload);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(404);
      expectReason(response, 404, new RegExp(`No organisation "nobody-${suffix}"`));
    }
    // And for a token the organisation does not have.
    expectReason(
      await adminCall('DELETE', `${base}/scim-tokens/no-such-token`),
      404,
      /No live SCIM token "no-such-token"/,
    );
  });

  it('refuses a provider that is not OIDC or SAML, and a sign-in without a name, storing nothing', async () => {
    const bad = [
      { provider: 'google.com', name: 'Google', required: true },
      { provider: 'password', name: 'Password', required: false },
      { provider: 'oidc.', name: 'Nothing', required: true },
      { provider: 'oidc.test-idp', required: true },
      { provider: 'oidc.test-idp', name: '', required: true },
      { provider: 'oidc.test-idp', name: '   ', required: true },
      { provider: 'oidc.test-idp', name: 'Test IdP' },
      { provider: 'oidc.test-idp', name: 'Test IdP', required: 'yes' },
    ];
    for (const body of bad) {
      const response = await adminCall('PUT', `${base}/sign-in`, body);
      expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBe(400);
      expectReason(response, 400);
    }
    expect(await signInShown()).toBeNull();
    expect((await overview()).signIn).toBeNull();
    expect((await options(`someone@${org.domain}`)).json()).toEqual({ provider: null, password: true });
    expect(await audit('admin.organisation-sign-in')).toEqual([]);
  });

  it('sets, changes and removes the sign-in, which the login page’s options follow, and audits each', async () => {
    const set = await adminCall('PUT', `${base}/sign-in`, {
      provider: 'oidc.test-idp',
      name: '  Test IdP ',
      required: true,
    });
    expect(set.statusCode, set.body).toBe(204);
    const rule = { provider: 'oidc.test-idp', name: 'Test IdP', required: true };
    expect(await signInShown()).toEqual(rule);
    expect((await overview()).signIn).toEqual(rule);

    const answer = await options(`someone@${org.domain}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.json()).toEqual({ provider: { id: 'oidc.test-idp', name: 'Test IdP' }, password: false });
    // The domain in any case; and an address at another domain is not the organisation's.
    expect((await options(`Someone@${org.domain.toUpperCase()}`)).json()).toEqual(answer.json());
    expect((await options(`someone@sub.${org.domain}`)).json()).toEqual({ provider: null, password: true });

    const relaxed = await adminCall('PUT', `${base}/sign-in`, {
      provider: 'saml.lumen',
      name: 'Lumen SAML',
      required: false,
    });
    expect(relaxed.statusCode, relaxed.body).toBe(204);
    expect(await signInShown()).toEqual({ provider: 'saml.lumen', name: 'Lumen SAML', required: false });
    expect((await options(`someone@${org.domain}`)).json()).toEqual({
      provider: { id: 'saml.lumen', name: 'Lumen SAML' },
      password: true,
    });

    const removed = await adminCall('DELETE', `${base}/sign-in`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await signInShown()).toBeNull();
    expect((await overview()).signIn).toBeNull();
    const after = await options(`someone@${org.domain}`);
    expect(after.json()).toEqual({ provider: null, password: true });
    expect(after.headers['cache-control']).toBe('no-store');

    const events = await audit('admin.organisation-sign-in');
    expect(events.every((event) => event.kind === 'admin.organisation-sign-in')).toBe(true);
    expect(events.every((event) => event.actorEmail === adminEmail)).toBe(true);
    // Newest first.
    expect(events.map((event) => event.detail)).toEqual([
      {
        organisation: org.id,
        action: 'removed',
        before: { provider: 'saml.lumen', name: 'Lumen SAML', required: false },
        after: null,
      },
      {
        organisation: org.id,
        action: 'set',
        before: rule,
        after: { provider: 'saml.lumen', name: 'Lumen SAML', required: false },
      },
      { organisation: org.id, action: 'set', before: null, after: rule },
    ]);
  });

  it('answers the login page for any address: 400 with a reason for none, no provider for an unknown domain', async () => {
    for (const email of ['no-at-sign', '@lumen.example', 'someone@'])
      expectReason(await options(email), 400, /Enter an e-mail address/);
    expect((await app.inject({ url: '/api/sign-in-options' })).statusCode).toBe(400);
    const unknown = await options(`someone@unknown-${suffix}.example`);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.headers['cache-control']).toBe('no-store');
    expect(unknown.json()).toEqual({ provider: null, password: true });
  });

  it('refuses a reader who is no administrator on every route, and changes nothing', async () => {
    const calls: [Method, string, unknown?][] = [
      ['GET', `${base}/provisioning`],
      ['PUT', `${base}/sign-in`, { provider: 'oidc.evil', name: 'Evil', required: true }],
      ['DELETE', `${base}/sign-in`],
      ['POST', `${base}/scim-tokens`, { name: 'Mine' }],
      ['DELETE', `${base}/scim-tokens/some-token`],
      ['PUT', `${base}/scim-groups`, { groups: [group] }],
    ];
    for (const [method, url, payload] of calls) {
      const response = await call(partner, method, url, payload);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(403);
    }
    // Nor without a session at all.
    expect((await app.inject({ url: `${base}/provisioning` })).statusCode).toBe(401);
    const now = await overview();
    expect(now.signIn).toBeNull();
    expect(now.tokens).toEqual([]);
    expect(now.groups).toEqual([]);
  });

  it('mints and revokes SCIM tokens with a name, and audits both', async () => {
    for (const name of ['', '   ']) expectReason(await adminCall('POST', `${base}/scim-tokens`, { name }), 400);
    expectReason(await adminCall('POST', `${base}/scim-tokens`, {}), 400);
    expect((await overview()).tokens).toEqual([]);

    const minted = await adminCall('POST', `${base}/scim-tokens`, { name: ' Okta ' });
    expect(minted.statusCode, minted.body).toBe(201);
    const token = minted.json() as { id: string; name: string; token: string };
    expect(token.name).toBe('Okta');
    expect(token.token).toMatch(/^ndp_scim_/);
    expect((await overview()).tokens).toEqual([expect.objectContaining({ id: token.id, name: 'Okta' })]);
    // The SCIM client can use it.
    const scim = await app.inject({ url: '/scim/v2/Users', headers: { authorization: `Bearer ${token.token}` } });
    expect(scim.statusCode, scim.body).toBe(200);

    expect((await adminCall('DELETE', `${base}/scim-tokens/${token.id}`)).statusCode).toBe(204);
    expectReason(await adminCall('DELETE', `${base}/scim-tokens/${token.id}`), 404, /No live SCIM token/);
    expect(
      (await app.inject({ url: '/scim/v2/Users', headers: { authorization: `Bearer ${token.token}` } })).statusCode,
    ).toBe(401);

    const events = await audit('admin.scim-token');
    expect(events.map((event) => [event.kind, event.actorEmail, event.detail.action, event.detail.token])).toEqual([
      ['admin.scim-token', adminEmail, 'revoked', token.id],
      ['admin.scim-token', adminEmail, 'minted', token.id],
    ]);
    // The secret is shown once, and never written to the trail.
    expect(JSON.stringify(events)).not.toContain(token.token);
    expect(events[1]?.detail).toMatchObject({ name: 'Okta', hint: token.token.slice(-4) });
  });

  it('offers the SCIM client only groups the administrators made, naming an unknown one', async () => {
    const unknown = `nosuch-${suffix}`;
    const refused = await adminCall('PUT', `${base}/scim-groups`, { groups: [group, unknown] });
    expectReason(refused, 400, new RegExp(`"${unknown}" is not a group`));
    expect((refused.json() as { error: string }).error).not.toContain(`"${group}"`);
    // A group of the access policy is not one of the administrators' either.
    expectReason(
      await adminCall('PUT', `${base}/scim-groups`, { groups: ['partner'] }),
      400,
      /"partner" is not a group/,
    );
    expectReason(await adminCall('PUT', `${base}/scim-groups`, { groups: ['Not A Slug'] }), 400);
    expect((await overview()).groups).toEqual([]);

    expect((await adminCall('PUT', `${base}/scim-groups`, { groups: [group] })).statusCode).toBe(204);
    expect((await overview()).groups).toEqual([group]);
    expect((await adminCall('PUT', `${base}/scim-groups`, { groups: [] })).statusCode).toBe(204);
    expect((await overview()).groups).toEqual([]);

    const groupEvents = (await audit('admin.organisation-sign-in')).filter((event) => event.detail.action === 'groups');
    expect(groupEvents.map((event) => [event.actorEmail, event.detail.before, event.detail.after])).toEqual([
      [adminEmail, { groups: [group] }, { groups: [] }],
      [adminEmail, { groups: [] }, { groups: [group] }],
    ]);
  });
});
