import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { makeToken, ORIGIN, readyTestApp, signInCookie } from '../test/harness.js';
import type { EmulatorReaders } from '../test/readers.js';
import { makeTestSite, PRIVATE_CANARY } from '../test/test-site.js';

type Json = Record<string, unknown>;

const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const pastTheSecond = () => new Promise((resolve) => setTimeout(resolve, 1100));
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

/**
 * SCIM 2.0 for partner organisations' readers, through the gate as a directory meets it: the
 * real Auth Emulator, the test run's database, tokens an administrator minted. The sequences
 * are the ones Okta's and Microsoft Entra's SCIM guides send, in their own shapes.
 */
describe('SCIM provisioning of an organisation’s readers', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let admin: string;
  const suffix = randomUUID().slice(0, 8);
  const north = { id: `north-${suffix}`, domain: `north-${suffix}.example`, token: '' };
  const south = { id: `south-${suffix}`, domain: `south-${suffix}.example`, token: '' };
  const group = `beta-${suffix}`;

  const adminCall = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie: admin, origin: ORIGIN },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const scim = (token: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    app.inject({
      method,
      url: `/scim/v2${url}`,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const filter = (userName: string) => `/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`;
  const expectError = (response: { statusCode: number; json(): unknown }, status: number, detail: RegExp) => {
    expect(response.statusCode).toBe(status);
    const body = response.json() as Json;
    expect(body.schemas).toEqual([ERROR]);
    expect(body.status).toBe(String(status));
    expect(body.detail).toMatch(detail);
  };

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(await makeTestSite(), { SCIM_RATE_LIMIT: '1000' }));
    const account = await readers.create({ groups: ['admin'] });
    admin = await signInCookie(app, await readers.signIn(account.email, account.password));
    for (const organisation of [north, south]) {
      const made = await adminCall('POST', '/api/admin/organisations', {
        id: organisation.id,
        name: organisation.id.split('-')[0] === 'north' ? 'Northbound TV' : 'Southern Lights',
        domains: [organisation.domain],
      });
      expect(made.statusCode, made.body).toBe(201);
      expect(
        (await adminCall('POST', `/api/admin/organisations/${organisation.id}/licences`, { units: ['layout'] }))
          .statusCode,
      ).toBe(201);
      const minted = await adminCall('POST', `/api/admin/organisations/${organisation.id}/scim-tokens`, {
        name: 'Okta',
      });
      expect(minted.statusCode, minted.body).toBe(201);
      organisation.token = (minted.json() as { token: string }).token;
      expect(organisation.token).toMatch(/^ndp_scim_/);
    }
    expect(
      (await adminCall('PUT', `/api/admin/access-groups/${group}`, { label: 'Beta programme', units: ['internal'] }))
        .statusCode,
    ).toBe(204);
    const offered = await adminCall('PUT', `/api/admin/organisations/${north.id}/scim-groups`, { groups: [group] });
    expect(offered.statusCode, offered.body).toBe(204);
  });
  afterAll(async () => {
    await app.close();
  });

  it('describes itself (ServiceProviderConfig, ResourceTypes, Schemas) and refuses a call without a valid token in SCIM’s shape', async () => {
    const config = await scim(north.token, 'GET', '/ServiceProviderConfig');
    expect(config.statusCode).toBe(200);
    expect(config.headers['content-type']).toMatch(/^application\/scim\+json/);
    expect((config.json() as Json).patch).toEqual({ supported: true });
    const types = (await scim(north.token, 'GET', '/ResourceTypes')).json() as { Resources: Json[] };
    expect(types.Resources.map((type) => type.id)).toEqual(['User', 'Group']);
    const schemas = (await scim(north.token, 'GET', '/Schemas')).json() as { Resources: Json[] };
    expect(schemas.Resources.map((schema) => schema.id)).toContain(USER);

    const none = await app.inject({ url: '/scim/v2/Users' });
    expectError(none, 401, /Authorization: Bearer/);
    expect(none.headers['www-authenticate']).toContain('Bearer');
    expectError(await scim('ndp_scim_not-a-token', 'GET', '/Users'), 401, /not a SCIM token/);
    // A reader's personal token is no provisioning token.
    const reader = await readers.create({ groups: ['partner'] });
    const personal = await makeToken(app, await signInCookie(app, await readers.signIn(reader.email, reader.password)));
    expectError(await scim(personal, 'GET', '/Users'), 401, /not a SCIM token/);
    expectError(await scim(north.token, 'GET', '/Teams'), 404, /No SCIM endpoint/);
  });

  it('runs Okta’s sequence: find by userName, create, get, deactivate, reactivate, rename with PUT, push a group', async () => {
    const userName = `ada@${north.domain}`;
    const empty = await scim(north.token, 'GET', `${filter(userName)}&startIndex=1&count=100`);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toMatchObject({ totalResults: 0, Resources: [] });

    const created = await scim(north.token, 'POST', '/Users', {
      schemas: [USER],
      userName,
      name: { givenName: 'Ada', familyName: 'Quill' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      displayName: 'Ada Quill',
      locale: 'en-GB',
      externalId: '00u1okta',
      groups: [],
      password: 'ignored-by-the-portal',
      active: true,
    });
    expect(created.statusCode, created.body).toBe(201);
    const user = created.json() as Json & { id: string; meta: { location: string } };
    expect(user).toMatchObject({ userName, active: true, externalId: '00u1okta', name: { givenName: 'Ada' } });
    expect(created.headers.location).toBe(user.meta.location);

    const found = (await scim(north.token, 'GET', filter(userName.toUpperCase()))).json() as {
      totalResults: number;
      Resources: Json[];
    };
    expect(found.totalResults).toBe(1);
    expect(found.Resources[0]?.id).toBe(user.id);
    expect((await scim(north.token, 'GET', `/Users/${user.id}`)).json()).toMatchObject({ id: user.id, userName });

    // The account reads its organisation's licence once it has a password (here: set by the test, as a reset would).
    await readers.setPassword(user.id, 'horse-battery-9');
    const cookie = await signInCookie(app, await readers.signIn(userName, 'horse-battery-9'));
    expect((await app.inject({ url: '/docs/layout-engine/', headers: { cookie } })).body).toContain(PRIVATE_CANARY);

    const deactivated = await scim(north.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect((deactivated.json() as Json).active).toBe(false);
    expect((await app.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode).not.toBe(200);

    const reactivated = await scim(north.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect((reactivated.json() as Json).active).toBe(true);
    // The gate refuses what was signed in the second of the deactivation: sign in after it.
    await pastTheSecond();
    const again = await signInCookie(app, await readers.signIn(userName, 'horse-battery-9'));
    expect((await app.inject({ url: '/docs/layout-engine/', headers: { cookie: again } })).statusCode).toBe(200);

    const renamed = await scim(north.token, 'PUT', `/Users/${user.id}`, {
      schemas: [USER],
      id: user.id,
      userName: `ada.quill@${north.domain}`,
      name: { givenName: 'Ada', familyName: 'Quill-Byron' },
      emails: [{ primary: true, value: `ada.quill@${north.domain}`, type: 'work' }],
      active: true,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({
      userName: `ada.quill@${north.domain}`,
      emails: [{ value: `ada.quill@${north.domain}` }],
      name: { familyName: 'Quill-Byron' },
    });
    expect((await scim(north.token, 'GET', filter(userName))).json()).toMatchObject({ totalResults: 0 });

    // Okta's group push: the group linked by its name, then members added and removed.
    const pushed = await scim(north.token, 'POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Beta programme',
      members: [],
    });
    expect(pushed.statusCode, pushed.body).toBe(201);
    expect((pushed.json() as Json).id).toBe(group);
    const added = await scim(north.token, 'PATCH', `/Groups/${group}`, {
      schemas: [PATCH],
      Operations: [{ op: 'add', path: 'members', value: [{ value: user.id, display: userName }] }],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect((added.json() as { members: Json[] }).members.map((member) => member.value)).toEqual([user.id]);
    expect((await scim(north.token, 'GET', `/Users/${user.id}`)).json()).toMatchObject({
      groups: [{ value: group, display: 'Beta programme' }],
    });
    const removed = await scim(north.token, 'PATCH', `/Groups/${group}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: `members[value eq "${user.id}"]` }],
    });
    expect((removed.json() as { members: Json[] }).members).toEqual([]);

    // Every change is in the audit trail with the client as its actor.
    const audit = await adminCall('GET', `/api/admin/audit?kind=scim.user`);
    expect(audit.statusCode, audit.body).toBe(200);
    const events = (audit.json() as { events: { actorEmail: string; subjectUid: string; detail: Json }[] }).events
      .filter((event) => event.subjectUid === user.id)
      .map((event) => [event.actorEmail, event.detail.action]);
    expect(events).toEqual(
      expect.arrayContaining([
        [`scim:${north.id}`, 'created'],
        [`scim:${north.id}`, 'deactivated'],
        [`scim:${north.id}`, 'reactivated'],
        [`scim:${north.id}`, 'changed'],
      ]),
    );
  });

  it('runs Entra’s sequence: filtered lookup, create, "False" and path PATCHes, group add and remove, delete', async () => {
    const userName = `grace@${north.domain}`;
    expect((await scim(north.token, 'GET', filter(userName))).json()).toMatchObject({ totalResults: 0 });
    const created = await scim(north.token, 'POST', '/Users', {
      schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: 'b7c1-entra',
      userName,
      active: true,
      displayName: 'Grace Wren',
      emails: [{ primary: true, type: 'work', value: userName }],
      meta: { resourceType: 'User' },
      name: { formatted: 'Grace Wren', familyName: 'Wren', givenName: 'Grace' },
      roles: [],
      'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'Apps' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = (created.json() as { id: string }).id;
    // A second create of the same userName: Entra expects 409 uniqueness.
    const duplicate = await scim(north.token, 'POST', '/Users', { schemas: [USER], userName, active: true });
    expectError(duplicate, 409, /already/);
    expect((duplicate.json() as Json).scimType).toBe('uniqueness');

    const changed = await scim(north.token, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: 'displayName', value: 'Grace W. Wren' },
        { op: 'Add', path: 'name.familyName', value: 'Wren-Hopper' },
        { op: 'Replace', path: 'emails[type eq "work"].value', value: `grace.wren@${north.domain}` },
        { op: 'Replace', path: 'userName', value: `grace.wren@${north.domain}` },
        { op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department', value: 'TV' },
      ],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      userName: `grace.wren@${north.domain}`,
      displayName: 'Grace W. Wren',
      name: { familyName: 'Wren-Hopper' },
      emails: [{ value: `grace.wren@${north.domain}` }],
    });

    const member = await scim(north.token, 'PATCH', `/Groups/${group}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Add', path: 'members', value: [{ value: id }] }],
    });
    expect(member.statusCode, member.body).toBe(200);
    const off = await scim(north.token, 'PATCH', `/Groups/${group}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: id }] }],
    });
    expect((off.json() as { members: Json[] }).members).toEqual([]);
    const listed = (await scim(north.token, 'GET', '/Groups?excludedAttributes=members')).json() as {
      Resources: Json[];
    };
    expect(listed.Resources).toEqual([expect.objectContaining({ id: group, displayName: 'Beta programme' })]);
    expect(listed.Resources[0]).not.toHaveProperty('members');

    const disabled = await scim(north.token, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect((disabled.json() as Json).active).toBe(false);

    expect((await scim(north.token, 'DELETE', `/Users/${id}`)).statusCode).toBe(204);
    expectError(await scim(north.token, 'GET', `/Users/${id}`), 404, /No User/);
    expect((await scim(north.token, 'GET', filter(`grace.wren@${north.domain}`))).json()).toMatchObject({
      totalResults: 0,
    });
  });

  it('ends a deactivated reader’s access on pages, Markdown, llms files, search and MCP within a second', async () => {
    const userName = `linus@${north.domain}`;
    const created = await scim(north.token, 'POST', '/Users', { schemas: [USER], userName, active: true });
    const id = (created.json() as { id: string }).id;
    await readers.setPassword(id, 'horse-battery-9');
    const cookie = await signInCookie(app, await readers.signIn(userName, 'horse-battery-9'));
    const token = await makeToken(app, cookie, 'assistant');
    const bearer = { authorization: `Bearer ${token}` };
    const mcp = () =>
      app.inject({
        method: 'POST',
        url: '/mcp',
        headers: { ...MCP_HEADERS, ...bearer },
        payload: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'read_page', arguments: { path: '/docs/layout-engine/' } },
        },
      });
    const surfaces = {
      page: () => app.inject({ url: '/docs/layout-engine/', headers: { cookie } }),
      markdown: () => app.inject({ url: '/docs/layout-engine.md', headers: bearer }),
      llms: () => app.inject({ url: '/llms-full.txt', headers: bearer }),
      search: () => app.inject({ url: '/api/search?q=layout', headers: bearer }),
      mcp,
    };
    // Before: each surface serves the licensed page.
    expect((await surfaces.page()).body).toContain(PRIVATE_CANARY);
    expect((await surfaces.markdown()).body).toContain(PRIVATE_CANARY);
    expect((await surfaces.llms()).body).toContain(PRIVATE_CANARY);
    expect((await surfaces.search()).statusCode).toBe(200);
    expect((await surfaces.mcp()).body).toContain(PRIVATE_CANARY);

    const started = Date.now();
    const deactivated = await scim(north.token, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect(deactivated.statusCode).toBe(200);
    for (const [name, ask] of Object.entries(surfaces)) {
      const response = await ask();
      expect(response.body, name).not.toContain(PRIVATE_CANARY);
      if (name === 'page') expect(response.statusCode, name).toBe(302);
      else if (name === 'llms' || name === 'search') expect(response.statusCode, name).toBe(401);
      else expect(response.statusCode, name).toBe(401);
    }
    expect(Date.now() - started).toBeLessThan(1000);

    // Reactivated: the organisation's licence again, and none of the ended credentials.
    await scim(north.token, 'PATCH', `/Users/${id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: true }],
    });
    expect((await surfaces.markdown()).statusCode).toBe(401);
    await pastTheSecond();
    const fresh = await signInCookie(app, await readers.signIn(userName, 'horse-battery-9'));
    const session = (await app.inject({ url: '/api/session', headers: { cookie: fresh } })).json() as Json;
    expect(session.units).toEqual(['account', 'layout']);
  });

  it('keeps each token to its own organisation: another’s readers are neither seen nor changed', async () => {
    const userName = `mira@${north.domain}`;
    const id = ((await scim(north.token, 'POST', '/Users', { schemas: [USER], userName })).json() as { id: string }).id;
    expect((await scim(south.token, 'GET', filter(userName))).json()).toMatchObject({ totalResults: 0 });
    expect((await scim(south.token, 'GET', '/Users')).json()).toMatchObject({ totalResults: 0 });
    expectError(await scim(south.token, 'GET', `/Users/${id}`), 404, /No User/);
    expectError(
      await scim(south.token, 'PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      }),
      404,
      /No User/,
    );
    expectError(await scim(south.token, 'DELETE', `/Users/${id}`), 404, /No User/);
    // Nor can it make a reader at the other's domain, nor put one in a group it was not offered.
    expectError(
      await scim(south.token, 'POST', '/Users', { schemas: [USER], userName: `eve@${north.domain}` }),
      400,
      /not at a domain of Southern Lights/,
    );
    expectError(await scim(south.token, 'GET', `/Groups/${group}`), 404, /No Group/);
    expect((await scim(north.token, 'GET', `/Users/${id}`)).json()).toMatchObject({ active: true });
  });

  it('answers bad input with SCIM’s error and a clear detail, and changes nothing', async () => {
    expectError(await scim(north.token, 'POST', '/Users', { schemas: [USER] }), 400, /"userName" is required/);
    expectError(
      await scim(north.token, 'POST', '/Users', { schemas: [USER], userName: `x@${north.domain}`, active: 'maybe' }),
      400,
      /"active" must be true or false/,
    );
    expectError(await scim(north.token, 'POST', '/Users', ['not', 'a', 'user']), 400, /SCIM User object/);
    const broken = await app.inject({
      method: 'POST',
      url: '/scim/v2/Users',
      headers: { authorization: `Bearer ${north.token}`, 'content-type': 'application/scim+json' },
      payload: '{"userName": ',
    });
    expect(broken.statusCode).toBe(400);
    expect((broken.json() as Json).schemas).toEqual([ERROR]);
    expectError(
      await scim(north.token, 'GET', `/Users?filter=${encodeURIComponent('userName co "a"')}`),
      400,
      /Only filters of the form/,
    );
    expectError(await scim(north.token, 'POST', '/Groups', { displayName: 'Nobody offered this' }), 400, /No group/);

    const userName = `nora@${north.domain}`;
    const id = ((await scim(north.token, 'POST', '/Users', { schemas: [USER], userName })).json() as { id: string }).id;
    // A PATCH whose second operation does not fit: the first is not applied either.
    expectError(
      await scim(north.token, 'PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [
          { op: 'replace', path: 'displayName', value: 'Changed' },
          { op: 'replace', path: 'favouriteColour', value: 'teal' },
        ],
      }),
      400,
      /"favouriteColour" is not an attribute/,
    );
    // Moving the reader to another organisation's domain is refused, and nothing moved.
    expectError(
      await scim(north.token, 'PATCH', `/Users/${id}`, {
        schemas: [PATCH],
        Operations: [{ op: 'replace', path: 'userName', value: `nora@${south.domain}` }],
      }),
      400,
      /not at a domain of Northbound TV/,
    );
    expectError(
      await scim(north.token, 'PATCH', `/Groups/${group}`, {
        schemas: [PATCH],
        Operations: [{ op: 'add', path: 'members', value: [{ value: id }, { value: 'no-such-user' }] }],
      }),
      400,
      /Member "no-such-user" is no User/,
    );
    expect((await scim(north.token, 'GET', `/Users/${id}`)).json()).toMatchObject({
      userName,
      active: true,
      groups: [],
    });
    expect((await scim(north.token, 'GET', `/Users/${id}`)).json()).not.toHaveProperty('displayName');

    // Every call, refused or not, is listed for the administrators with its outcome.
    const overview = (await adminCall('GET', `/api/admin/organisations/${north.id}/provisioning`)).json() as {
      calls: { status: number; detail: string | null; method: string }[];
      tokens: { name: string; hint: string }[];
    };
    expect(overview.tokens).toEqual([expect.objectContaining({ name: 'Okta', hint: north.token.slice(-4) })]);
    expect(overview.calls.some((call) => call.status === 400 && /No group/.test(call.detail ?? ''))).toBe(true);
    expect(overview.calls.some((call) => call.status === 201 && call.method === 'POST')).toBe(true);
  });

  it('refuses a revoked token and a removed organisation’s token by name', async () => {
    const minted = (
      await adminCall('POST', `/api/admin/organisations/${south.id}/scim-tokens`, { name: 'Entra' })
    ).json() as { id: string; token: string };
    expect((await scim(minted.token, 'GET', '/Users')).statusCode).toBe(200);
    expect(
      (await adminCall('DELETE', `/api/admin/organisations/${south.id}/scim-tokens/${minted.id}`)).statusCode,
    ).toBe(204);
    expectError(await scim(minted.token, 'GET', '/Users'), 401, /"Entra" was revoked/);
    expect((await adminCall('DELETE', `/api/admin/organisations/${south.id}`)).statusCode).toBe(204);
    expectError(await scim(south.token, 'GET', '/Users'), 401, /organisation of the token "Okta" was removed/);
  });
});

describe('SCIM’s budget of calls a minute per token', () => {
  it('answers a client over its budget with SCIM’s 429 and creates none of the refused users', async () => {
    const { app, readers } = await readyTestApp(await makeTestSite(), { SCIM_RATE_LIMIT: '5' });
    try {
      const account = await readers.create({ groups: ['admin'] });
      const cookie = await signInCookie(app, await readers.signIn(account.email, account.password));
      const suffix = randomUUID().slice(0, 8);
      const id = `burst-${suffix}`;
      const domain = `burst-${suffix}.example`;
      const headers = { cookie, origin: ORIGIN };
      await app.inject({
        method: 'POST',
        url: '/api/admin/organisations',
        headers,
        payload: { id, name: 'Burst', domains: [domain] },
      });
      const { token } = (
        await app.inject({
          method: 'POST',
          url: `/api/admin/organisations/${id}/scim-tokens`,
          headers,
          payload: { name: 'bulk' },
        })
      ).json() as { token: string };
      const statuses: number[] = [];
      for (let index = 0; index < 8; index++) {
        const response = await app.inject({
          method: 'POST',
          url: '/scim/v2/Users',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
          payload: JSON.stringify({ schemas: [USER], userName: `u${index}@${domain}` }),
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429) {
          expect(response.json()).toMatchObject({ schemas: [ERROR], status: '429', scimType: 'tooMany' });
          expect((response.json() as Json).detail).toMatch(/5 a minute/);
        }
      }
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429, 429]);
      const overview = (await app.inject({ url: `/api/admin/organisations/${id}/provisioning`, headers })).json() as {
        readers: number;
      };
      expect(overview.readers).toBe(5);
    } finally {
      await app.close();
    }
  });
});
