import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SESSION_COOKIE } from '@portal/contract/names';

import { ORIGIN, readyTestApp, signInCookie } from '../test/harness.js';
import type { EmulatorReaders } from '../test/readers.js';
import { makeTestSite, PRIVATE_CANARY } from '../test/test-site.js';

type Json = Record<string, unknown>;

/**
 * An organisation's own sign-in (issue 65) as its readers meet it at `POST /api/session`:
 * the Auth Emulator's password and OIDC sign-ins, an organisation with a licence for the
 * layout unit and its own provider, `oidc.test-idp`.
 */
describe('signing in at an organisation with its own identity provider', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let admin: string;
  const suffix = randomUUID().slice(0, 8);
  const org = { id: `vela-${suffix}`, name: 'Vela Broadcasting', domain: `vela-${suffix}.example` };
  const base = `/api/admin/organisations/${org.id}`;
  const rule = { provider: 'oidc.test-idp', name: 'Test IdP', required: true };

  const adminCall = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie: admin, origin: ORIGIN },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const startSession = (idToken: string) =>
    app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { origin: ORIGIN, host: 'localhost:80' },
      payload: { idToken },
    });
  const setRule = async (signIn: typeof rule | null) => {
    const response = signIn
      ? await adminCall('PUT', `${base}/sign-in`, signIn)
      : await adminCall('DELETE', `${base}/sign-in`);
    expect(response.statusCode, response.body).toBe(204);
  };
  const page = (cookie: string) => app.inject({ url: '/docs/layout-engine/', headers: { cookie } });
  /** A new account at the organisation's domain, signed in through `provider`; its fresh ID token. */
  const oidcToken = (provider: string, local = `y-${randomUUID().slice(0, 8)}`) =>
    readers.signInWithOidc(provider, {
      sub: `sub-${randomUUID()}`,
      email: `${local}@${org.domain}`,
      email_verified: true,
      name: 'Yara Test',
    });

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(await makeTestSite()));
    const account = await readers.create({ groups: ['admin'] });
    admin = await signInCookie(app, await readers.signIn(account.email, account.password));
    const made = await adminCall('POST', '/api/admin/organisations', {
      id: org.id,
      name: org.name,
      domains: [org.domain],
    });
    expect(made.statusCode, made.body).toBe(201);
    const licensed = await adminCall('POST', `${base}/licences`, { units: ['layout'] });
    expect(licensed.statusCode, licensed.body).toBe(201);
    await setRule(rule);
  });
  afterAll(async () => {
    await app.close();
  });

  it('refuses a password at the organisation’s domain, naming the organisation and its provider', async () => {
    const reader = await readers.create({ groups: [], email: `x-${suffix}@${org.domain}` });
    const refused = await startSession(await readers.signIn(reader.email, reader.password));
    expect(refused.statusCode, refused.body).toBe(403);
    const body = refused.json() as { error: string; code: string; email: string };
    expect(body.code).toBe('sso-required');
    expect(body.error).toContain(org.name);
    expect(body.error).toContain('Test IdP');
    expect(body.error).toMatch(/not a password/);
    expect(body.email).toBe(reader.email);
    expect(refused.cookies.map((cookie) => cookie.name)).not.toContain(SESSION_COOKIE);

    const trail = await adminCall('GET', '/api/admin/audit?kind=session.refused');
    const events = (trail.json() as { events: { subjectUid: string | null; actorEmail: string; detail: Json }[] })
      .events;
    expect(events.some((event) => event.actorEmail === reader.email && event.detail.code === 'sso-required')).toBe(
      true,
    );
  });

  it('gives a reader signed in through the organisation’s provider its licence', async () => {
    const idToken = await oidcToken('oidc.test-idp');
    const cookie = await signInCookie(app, idToken);
    const session = (await app.inject({ url: '/api/session', headers: { cookie } })).json() as Json;
    expect(session.units).toEqual(['account', 'layout']);
    const response = await page(cookie);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(PRIVATE_CANARY);
  });

  it('refuses another provider’s sign-in for an address at the domain', async () => {
    const refused = await startSession(await oidcToken('oidc.other-idp'));
    expect(refused.statusCode, refused.body).toBe(403);
    const body = refused.json() as { error: string; code: string };
    expect(body.code).toBe('wrong-provider');
    expect(body.error).toContain(org.name);
    expect(body.error).toContain('Test IdP');
  });

  it('refuses a partner’s provider for an address at no organisation’s domain', async () => {
    const idToken = await readers.signInWithOidc('oidc.test-idp', {
      sub: `sub-${randomUUID()}`,
      email: `z-${suffix}@elsewhere-${suffix}.example`,
      email_verified: true,
    });
    const refused = await startSession(idToken);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'wrong-provider', error: expect.stringMatching(/password/) });
  });

  it('ends a password session when the organisation starts to require its provider, and lets passwords in without', async () => {
    await setRule({ ...rule, required: false });
    const reader = await readers.create({ groups: [], email: `w-${suffix}@${org.domain}` });
    const cookie = await signInCookie(app, await readers.signIn(reader.email, reader.password));
    expect((await page(cookie)).body).toContain(PRIVATE_CANARY);

    await setRule(rule);
    const after = await page(cookie);
    expect(after.statusCode).not.toBe(200);
    expect(after.body).not.toContain(PRIVATE_CANARY);
    expect((await startSession(await readers.signIn(reader.email, reader.password))).json()).toMatchObject({
      code: 'sso-required',
    });

    // Without a rule, the password counts again, and the provider no longer vouches for the domain.
    await setRule(null);
    const again = await signInCookie(app, await readers.signIn(reader.email, reader.password));
    expect((await page(again)).body).toContain(PRIVATE_CANARY);
    expect((await startSession(await oidcToken('oidc.test-idp'))).json()).toMatchObject({ code: 'wrong-provider' });
    await setRule(rule);
  });
});
