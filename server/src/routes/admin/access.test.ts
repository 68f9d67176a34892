import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ORIGIN, readyTestApp, signInCookie } from '../../test/harness.js';
import type { EmulatorReaders } from '../../test/readers.js';
import { makeTestSite, PRIVATE_CANARY, STAFF_CANARY } from '../../test/test-site.js';

interface Json {
  [key: string]: unknown;
}

/**
 * Licences as data, through the gate as a reader meets it: the real identity emulator, the
 * test run's database, the administration API. A grant, a withdrawal and a licence's end
 * each change what an organisation's reader reads on their next request, without a new
 * sign-in, a rebuild or a restart.
 */
describe('organisations and licences', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let admin: string;
  const suffix = randomUUID().slice(0, 8);
  const organisation = `org-${suffix}`;
  const domain = `studio-${suffix}.example`;

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(await makeTestSite()));
    const account = await readers.create({ groups: ['admin'] });
    admin = await signInCookie(app, await readers.signIn(account.email, account.password));
  });
  afterAll(async () => {
    await app.close();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, cookie: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie, origin: ORIGIN },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const read = async (cookie: string, path: string): Promise<number> =>
    (await app.inject({ method: 'GET', url: path, headers: { cookie } })).statusCode;

  it('gives a reader of an organisation what its licences give, live, and audits each change', async () => {
    expect(
      (await call('POST', '/api/admin/organisations', admin, { id: organisation, name: 'Studio', domains: [domain] }))
        .statusCode,
    ).toBe(201);
    const member = await readers.create({ groups: [], email: `dev@${domain}` });
    // No licence yet: no access, so no session.
    const refused = await app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { origin: ORIGIN },
      payload: { idToken: await readers.signIn(member.email, member.password) },
    });
    expect(refused.statusCode).toBe(403);

    const granted = await call('POST', `/api/admin/organisations/${organisation}/licences`, admin, {
      units: ['layout'],
    });
    expect(granted.statusCode, granted.body).toBe(201);
    const licence = (granted.json() as { id: string }).id;
    const cookie = await signInCookie(app, await readers.signIn(member.email, member.password));
    const session = (await app.inject({ method: 'GET', url: '/api/session', headers: { cookie } })).json() as Json;
    expect(session.units).toEqual(['account', 'layout']);
    const page = await app.inject({ method: 'GET', url: '/docs/layout-engine/', headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(PRIVATE_CANARY);
    expect(await read(cookie, '/docs/frontend-guidelines/GitFlow/')).toBe(403);

    // A second unit, on the same session, at once.
    expect(await read(cookie, '/docs/frontend-guidelines/GitFlow/')).toBe(403);
    expect(
      (await call('PATCH', `/api/admin/licences/${licence}`, admin, { units: ['layout', 'internal'] })).statusCode,
    ).toBe(204);
    const internal = await app.inject({
      method: 'GET',
      url: '/docs/frontend-guidelines/GitFlow/',
      headers: { cookie },
    });
    expect(internal.statusCode).toBe(200);
    expect(internal.body).toContain(STAFF_CANARY);

    // Withdrawn: the next request is refused, and the session ends for lack of any unit.
    const withdrawnAt = Date.now();
    expect((await call('DELETE', `/api/admin/licences/${licence}`, admin)).statusCode).toBe(204);
    expect(await read(cookie, '/docs/layout-engine/')).not.toBe(200);
    expect(Date.now() - withdrawnAt).toBeLessThan(1000);

    const trail = (await call('GET', '/api/admin/audit?kind=admin.licence', admin)).json() as { events: Json[] };
    const withdrawal = trail.events.find(
      (event) => (event.detail as Json).licence === licence && (event.detail as Json).action === 'withdrawn',
    );
    expect(withdrawal?.actorEmail).toBeTruthy();
    const detail = withdrawal?.detail as { before: { licences: Json[] }; after: { licences: Json[] } };
    expect(detail.before.licences.map((l) => l.units)).toEqual([['layout', 'internal']]);
    expect(detail.after.licences).toEqual([]);
  });

  it('stops a licence at its end without anyone changing anything', async () => {
    const other = `org-end-${suffix}`;
    const otherDomain = `ending-${suffix}.example`;
    expect(
      (await call('POST', '/api/admin/organisations', admin, { id: other, name: 'Ending', domains: [otherDomain] }))
        .statusCode,
    ).toBe(201);
    // Licences end at the end of a day; today's ends tonight, yesterday's has ended.
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(
      (await call('POST', `/api/admin/organisations/${other}/licences`, admin, { units: ['blog'], endsOn: yesterday }))
        .statusCode,
    ).toBe(201);
    expect(
      (await call('POST', `/api/admin/organisations/${other}/licences`, admin, { units: ['layout'], endsOn: today }))
        .statusCode,
    ).toBe(201);
    const member = await readers.create({ groups: [], email: `dev@${otherDomain}` });
    const cookie = await signInCookie(app, await readers.signIn(member.email, member.password));
    expect(await read(cookie, '/docs/layout-engine/')).toBe(200);
    expect(await read(cookie, '/blog/rss.xml')).toBe(403);
    const overview = (await call('GET', '/api/admin/access', admin)).json() as { organisations: Json[] };
    const ending = overview.organisations.find((o) => o.id === other) as { licences: Json[] };
    expect(ending.licences.map((l) => l.live)).toEqual([false, true]);
  });

  it('refuses what it cannot do, and changes nothing then', async () => {
    const unknownUnit = await call('POST', `/api/admin/organisations/${organisation}/licences`, admin, {
      units: ['layout', 'player-adapter-flash'],
    });
    expect(unknownUnit.statusCode).toBe(400);
    expect(unknownUnit.json()).toEqual({ error: '"player-adapter-flash" is not a unit of the access policy' });
    expect(
      (await call('POST', '/api/admin/organisations/nobody/licences', admin, { units: ['layout'] })).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', '/api/admin/organisations', admin, { id: organisation, name: 'Again', domains: [] }))
        .statusCode,
    ).toBe(409);
    expect(
      (
        await call('POST', `/api/admin/organisations/${organisation}/licences`, admin, {
          units: ['layout'],
          endsOn: '2027-02-30',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (await call('PUT', '/api/admin/access-groups/staff', admin, { label: 'Staff', units: ['blog'] })).statusCode,
    ).toBe(409);
    const overview = (await call('GET', '/api/admin/access', admin)).json() as { organisations: Json[] };
    const mine = overview.organisations.find((o) => o.id === organisation) as { name: string; licences: Json[] };
    expect(mine.name).toBe('Studio');
    expect(mine.licences).toEqual([]);
  });

  it('places a reader in a group of units that administrators made, and moves them between organisations', async () => {
    const group = `player-basic-${suffix}`;
    expect(
      (await call('PUT', `/api/admin/access-groups/${group}`, admin, { label: 'Player basics', units: ['blog'] }))
        .statusCode,
    ).toBe(204);
    const reader = await readers.create({ groups: [], email: `solo-${suffix}@elsewhere.example` });
    expect(
      (
        await call('PUT', `/api/admin/memberships/${encodeURIComponent(reader.email)}`, admin, {
          organisation: null,
          groups: [group],
        })
      ).statusCode,
    ).toBe(204);
    const cookie = await signInCookie(app, await readers.signIn(reader.email, reader.password));
    expect(await read(cookie, '/blog/rss.xml')).toBe(200);
    expect(await read(cookie, '/docs/layout-engine/')).toBe(403);
    // Moved into an organisation that licenses nothing, and out of the group: nothing left.
    expect(
      (
        await call('PUT', `/api/admin/memberships/${encodeURIComponent(reader.email)}`, admin, {
          organisation,
          groups: [],
        })
      ).statusCode,
    ).toBe(204);
    expect(await read(cookie, '/blog/rss.xml')).not.toBe(200);
    // Not a non-partner reader, and not a member of a group that does not exist.
    expect(
      (
        await call('PUT', `/api/admin/memberships/${encodeURIComponent(reader.email)}`, admin, {
          organisation: null,
          groups: ['ghosts'],
        })
      ).statusCode,
    ).toBe(400);
  });
  it('answers who can read a package: its groups, the organisations licensed for it and each reader, with why and until when', async () => {
    const id = `who-${suffix}`;
    const rival = `rival-${suffix}`;
    for (const [org, units] of [
      [id, ['whitelabel']],
      [rival, ['layout']],
    ] as const) {
      expect(
        (await call('POST', '/api/admin/organisations', admin, { id: org, name: org, domains: [`${org}.example`] }))
          .statusCode,
      ).toBe(201);
      expect(
        (await call('POST', `/api/admin/organisations/${org}/licences`, admin, { units, endsOn: '2031-03-31' }))
          .statusCode,
      ).toBe(201);
    }
    const member = await readers.create({ groups: [], email: `dev@${id}.example` });
    await signInCookie(app, await readers.signIn(member.email, member.password));
    const canary = await readers.create({ groups: [], email: `canary@${rival}.example` });
    await signInCookie(app, await readers.signIn(canary.email, canary.password));
    const gone = await readers.create({ groups: [], email: `left@${id}.example` });
    await signInCookie(app, await readers.signIn(gone.email, gone.password));
    expect((await call('POST', `/api/admin/readers/${gone.uid}/disable`, admin)).statusCode).toBe(200);
    const byName = `contractor-${suffix}@freelance.example`;
    expect(
      (
        await call('PUT', `/api/admin/memberships/${encodeURIComponent(byName)}`, admin, {
          organisation: id,
          groups: [],
        })
      ).statusCode,
    ).toBe(204);

    const answer = await call('GET', '/api/admin/units/whitelabel/readers', admin);
    expect(answer.statusCode, answer.body).toBe(200);
    const who = answer.json() as {
      unitLabel: string;
      groups: { name: string; policy: boolean }[];
      organisations: { id: string; endsAt: string | null; readers: number }[];
      readers: { email: string; sources: unknown[] }[];
    };
    expect(who.unitLabel).not.toBe('whitelabel');
    expect(who.groups).toContainEqual(expect.objectContaining({ name: 'staff', policy: true }));
    expect(who.organisations.find((organisation) => organisation.id === id)).toEqual({
      id,
      name: id,
      endsAt: '2031-03-31T23:59:59.999Z',
      readers: 2,
    });
    expect(who.organisations.map((organisation) => organisation.id)).not.toContain(rival);
    const licence = { kind: 'licence', organisation: id, endsAt: '2031-03-31T23:59:59.999Z' };
    expect(who.readers.find((reader) => reader.email === member.email)?.sources).toEqual([licence]);
    expect(who.readers.find((reader) => reader.email === byName)?.sources).toEqual([licence]);
    expect(answer.body).not.toContain(canary.email);
    // A disabled account reads nothing.
    expect(answer.body).not.toContain(gone.email);

    expect((await call('GET', '/api/admin/units/no-such-unit/readers', admin)).json()).toEqual({
      error: 'No package "no-such-unit" in the access policy',
    });
    const partner = await readers.create({ groups: ['partner'] });
    const refused = await call(
      'GET',
      '/api/admin/units/whitelabel/readers',
      await signInCookie(app, await readers.signIn(partner.email, partner.password)),
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain(member.email);
  });
});
