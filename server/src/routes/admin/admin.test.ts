import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { Auth } from 'firebase-admin/auth';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';

import { unitsOfGroups } from '@portal/access';

import { startPostgres, type RunningPostgres } from '../../../../tools/lib/postgres.mjs';
import { insertAuditEvents, queryAudit } from '../../db/audit.js';
import { openDatabase, type Database } from '../../db/database.js';
import { REFUSALS } from '../../plugins/app/refusals.js';
import { metric, ORIGIN, readyTestApp, sharedStore, signInCookie, storeReady, testApp } from '../../test/harness.js';
import type { EmulatorReaders } from '../../test/readers.js';
import { makeTestSite } from '../../test/test-site.js';

/** A new database on the test run's PostgreSQL cluster; its URL. */
async function postgresDatabase(): Promise<string> {
  const base = inject('postgresUrl');
  const name = `t_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  return base.replace(/\/[^/]+$/, `/${name}`);
}

interface Json {
  [key: string]: unknown;
}

describe.each(['pglite', 'postgres'] as const)('the administration API on %s', (kind) => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let admin: string;
  let siteDir: string;
  /** The gate's database, on a connection of the test's own (PGlite: the test run's shared store). */
  let db: Database;

  beforeAll(async () => {
    siteDir = await makeTestSite();
    const env: Record<string, string> = kind === 'postgres' ? { DATABASE_URL: await postgresDatabase() } : {};
    ({ app, readers } = await testApp(siteDir, env));
    db = env.DATABASE_URL ? await openDatabase({ kind: 'postgres', url: env.DATABASE_URL }) : (await sharedStore()).db;
    const account = await readers.create({ groups: ['admin'] });
    admin = await signInCookie(app, await readers.signIn(account.email, account.password));
    // The schema is applied at start, off the request path.
    await storeReady(app);
  });
  afterAll(async () => {
    await app.close();
    if (kind === 'postgres') await db.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    cookie: string | null,
    payload?: unknown,
    origin: string | null = ORIGIN,
  ) =>
    app.inject({
      method,
      url,
      headers: { ...(cookie ? { cookie } : {}), ...(origin ? { origin } : {}) },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });

  // No wait: the trail writes what is queued before it reads (read-your-writes).
  const trail = async (query: string): Promise<Json[]> => {
    const response = await call('GET', `/api/admin/audit?${query}`, admin);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { events: Json[] }).events;
  };

  it('lets an administrator invite a reader with a password link; the reader signs in with their groups', async () => {
    const email = `invited-${randomUUID().slice(0, 8)}@partner.example`;
    const invited = await call('POST', '/api/admin/invitations', admin, {
      email,
      groups: ['partner'],
      method: 'password',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const { account, passwordLink } = invited.json() as { account: Json; passwordLink: string };
    expect(account).toMatchObject({ email, groups: ['partner'], claimedGroups: ['partner'], disabled: false });
    // The portal's own page with Firebase's one-time code, worded as a first password.
    const link = new URL(passwordLink);
    expect(`${link.origin}${link.pathname}`).toBe(`${new URL(ORIGIN).origin}/login/action`);
    expect(link.searchParams.get('mode')).toBe('resetPassword');
    expect(link.searchParams.get('invite')).toBe('1');
    // What the page does with it: the code sets the password once.
    await readers.setPasswordWithCode(link.searchParams.get('oobCode') as string, 'first-light-42');
    await expect(
      readers.setPasswordWithCode(link.searchParams.get('oobCode') as string, 'second-light-42'),
    ).rejects.toThrow(/INVALID_OOB_CODE/);
    // Setting a password revokes by the whole second, and a sign-in within that second is
    // refused (identity.ts): the reader signs in from the next second on.
    await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20));
    const cookie = await signInCookie(app, await readers.signIn(email, 'first-light-42'));
    expect((await app.inject({ url: '/api/session', headers: { cookie } })).json()).toEqual({
      email,
      groups: ['partner'],
      units: unitsOfGroups(['partner']),
    });
    const listed = await call(
      'GET',
      // The address's name part, in upper case: a prefix search that no other test's reader shares.
      `/api/admin/readers?q=${encodeURIComponent((email.split('@')[0] ?? email).toUpperCase())}`,
      admin,
    );
    expect((listed.json() as { readers: Json[] }).readers.map((r) => r.email)).toEqual([email]);
    const events = await trail(`reader=${encodeURIComponent(email)}&kind=admin.invite,session.started`);
    expect(events.map((event) => event.kind)).toEqual(['session.started', 'admin.invite']);
    expect(events[1]).toMatchObject({
      subjectEmail: email,
      detail: { method: 'password', after: { groups: ['partner'] } },
    });
  });

  it('finds a reader made since the list was loaded when searched by their whole e-mail', async () => {
    expect((await call('GET', '/api/admin/readers', admin)).statusCode).toBe(200);
    const reader = await readers.create({ groups: ['partner'] });
    const whole = await call('GET', `/api/admin/readers?q=${encodeURIComponent(reader.email.toUpperCase())}`, admin);
    expect((whole.json() as { readers: Json[] }).readers).toMatchObject([{ uid: reader.uid, groups: ['partner'] }]);
  });

  it('invites a reader who will sign in with another provider: the groups come at their first sign-in', async () => {
    const email = `octo-${randomUUID().slice(0, 8)}@github.example`;
    expect(
      (await call('POST', '/api/admin/invitations', admin, { email, groups: ['partner'], method: 'provider' }))
        .statusCode,
    ).toBe(201);
    const listed = (await call('GET', '/api/admin/readers', admin)).json() as { invitations: Json[] };
    expect(listed.invitations).toContainEqual(expect.objectContaining({ email, groups: ['partner'] }));
    // The reader's own account (a verified address, as GitHub's are when Firebase says so) has no group yet…
    const reader = await readers.create({ groups: [], email });
    // …and gets the invitation's at the first sign-in.
    const cookie = await signInCookie(app, await readers.signIn(reader.email, reader.password));
    expect((await app.inject({ url: '/api/session', headers: { cookie } })).json()).toEqual({
      email,
      groups: ['partner'],
      units: unitsOfGroups(['partner']),
    });
    const events = await trail(`reader=${encodeURIComponent(email)}&kind=invitation.accepted`);
    expect(events).toHaveLength(1);
  });

  it('refuses an invitation naming a group the policy does not have, by password or by provider, and keeps none', async () => {
    for (const method of ['password', 'provider'] as const) {
      const email = `rooted-${method}-${randomUUID().slice(0, 8)}@github.example`;
      const refused = await call('POST', '/api/admin/invitations', admin, { email, groups: ['root'], method });
      expect(refused.statusCode, `${method}: ${refused.body}`).toBe(400);
      expect(refused.json()).toMatchObject({ error: expect.stringMatching(/root/) });
      const listed = (await call('GET', '/api/admin/readers', admin)).json() as { invitations: Json[] };
      expect(listed.invitations.map((invitation) => invitation.email)).not.toContain(email);
    }
  });

  it('refuses to invite an address whose account is disabled, and says to enable it instead', async () => {
    const reader = await readers.create({ groups: ['partner'] });
    await readers.disable(reader.uid);
    const refused = await call('POST', '/api/admin/invitations', admin, {
      email: reader.email,
      groups: ['partner'],
      method: 'password',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: `${reader.email} has an account, which is disabled: enable it from its row instead of inviting it again`,
    });
  });

  it('does not hand an invitation to an address nobody vouched for', async () => {
    const email = `claimed-${randomUUID().slice(0, 8)}@github.example`;
    await call('POST', '/api/admin/invitations', admin, { email, groups: ['staff'], method: 'provider' });
    const impostor = await readers.create({ groups: [], email, emailVerified: false });
    const response = await call('POST', '/api/session', null, {
      idToken: await readers.signIn(impostor.email, impostor.password),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'no-access' });
  });

  it('changes groups, disables, enables and removes a reader, each in the trail with before and after', async () => {
    const reader = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(app, await readers.signIn(reader.email, reader.password));
    const groups = await call('PUT', `/api/admin/readers/${reader.uid}/groups`, admin, {
      groups: ['partner', 'staff'],
    });
    expect(groups.statusCode, groups.body).toBe(200);
    expect(groups.json()).toMatchObject({ before: { groups: ['partner'] }, after: { groups: ['staff', 'partner'] } });
    // This server drops the reader's cached session at once: the new group opens its pages now.
    expect((await app.inject({ url: '/docs/frontend-guidelines/GitFlow', headers: { cookie } })).statusCode).toBe(200);
    expect((await call('POST', `/api/admin/readers/${reader.uid}/disable`, admin)).json()).toMatchObject({
      after: { disabled: true },
    });
    expect((await app.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode).toBe(302);
    expect((await call('POST', `/api/admin/readers/${reader.uid}/enable`, admin)).json()).toMatchObject({
      after: { disabled: false },
    });
    expect((await call('DELETE', `/api/admin/readers/${reader.uid}`, admin)).statusCode).toBe(204);
    expect((await call('GET', `/api/admin/readers?q=${encodeURIComponent(reader.email)}`, admin)).json()).toMatchObject(
      {
        total: 0,
      },
    );
    const events = await trail(`reader=${reader.uid}`);
    expect(events.map((event) => event.kind)).toEqual([
      'admin.remove',
      'admin.enable',
      'session.ended',
      'admin.disable',
      'page.view',
      'admin.groups',
      'session.started',
    ]);
    expect(events.find((event) => event.kind === 'admin.groups')).toMatchObject({
      actorEmail: expect.stringMatching(/@readers\.example$/),
      subjectUid: reader.uid,
      detail: { before: { groups: ['partner'] }, after: { groups: ['staff', 'partner'] } },
    });
    expect(events.find((event) => event.kind === 'session.ended')).toMatchObject({ detail: { code: 'disabled' } });
    expect(events.find((event) => event.kind === 'page.view')).toMatchObject({
      // The page's own URL, as the build names it.
      path: '/docs/frontend-guidelines/GitFlow/',
      groups: ['staff', 'partner'],
      clientIp: null,
    });
  });

  it("refuses to disable, remove or demote the administrator's own account, with a reason, and changes nothing", async () => {
    const me = (await call('GET', '/api/admin/readers?q=@readers.example&limit=1', admin)).json() as {
      self: string;
      administrators: number;
    };
    expect(me.self).toMatch(/^t-/);
    expect(me.administrators).toBeGreaterThanOrEqual(1);
    for (const [method, url, payload] of [
      ['POST', `/api/admin/readers/${me.self}/disable`, undefined],
      ['DELETE', `/api/admin/readers/${me.self}`, undefined],
      ['PUT', `/api/admin/readers/${me.self}/groups`, { groups: ['staff'] }],
    ] as const) {
      const refused = await call(method, url, admin, payload);
      expect(refused.statusCode, url).toBe(409);
      expect(refused.json()).toEqual({
        error: expect.stringMatching(/^You cannot .* your own account; another administrator can$/),
      });
    }
    // Still an administrator who can sign in, and nothing in the trail.
    const still = await call('GET', '/api/admin/readers?group=admin&status=active&limit=200', admin);
    expect((still.json() as { readers: Json[] }).readers.map((reader) => reader.uid)).toContain(me.self);
    const aboutMe = await trail(`reader=${me.self}&kind=admin.disable,admin.remove,admin.groups`);
    expect(aboutMe.filter((event) => event.subjectUid === me.self)).toEqual([]);
    // Changing one's own groups while keeping admin is no demotion.
    const kept = await call('PUT', `/api/admin/readers/${me.self}/groups`, admin, { groups: ['admin', 'staff'] });
    expect(kept.statusCode, kept.body).toBe(200);
  });

  it('records sign-ins refused, logouts and failed searches, and exports the trail as CSV and JSON', async () => {
    const stranger = await readers.create({ groups: [] });
    await call('POST', '/api/session', null, { idToken: await readers.signIn(stranger.email, stranger.password) });
    const reader = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(app, await readers.signIn(reader.email, reader.password));
    expect(
      (await call('POST', '/api/search-events', cookie, { query: 'chromecast sender', results: 0 })).statusCode,
    ).toBe(202);
    await call('POST', '/api/logout', cookie);
    const refused = await trail(`reader=${encodeURIComponent(stranger.email)}`);
    expect(refused).toEqual([expect.objectContaining({ kind: 'session.refused', detail: { code: 'no-access' } })]);
    expect((await trail(`reader=${reader.uid}&kind=session.logout`)).length).toBe(1);
    const csv = await call('GET', `/api/admin/audit?reader=${reader.uid}&format=csv`, admin);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="audit-.*\.csv"$/);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe('id,at,kind,actorEmail,actorUid,subjectEmail,subjectUid,path,groups,detail,clientIp,demo');
    expect(lines.slice(1).map((line) => line.split(',')[2])).toEqual(['session.logout', 'session.started']);
    const json = await call('GET', `/api/admin/audit?reader=${reader.uid}&format=json`, admin);
    expect((JSON.parse(json.body) as Json[]).map((event) => event.kind)).toEqual(['session.logout', 'session.started']);
    const insights = await call('GET', '/api/admin/insights?group=partner&days=7', admin);
    expect(insights.json()).toMatchObject({
      searches: { failed: expect.arrayContaining([expect.objectContaining({ query: 'chromecast sender' })]) },
    });
  });

  it('exports CSV that a spreadsheet will not run: a cell that starts like a formula gets a leading quote', async () => {
    const uid = `csv-${randomUUID()}`;
    await insertAuditEvents(db, [
      {
        kind: 'admin.invite',
        actorUid: uid,
        actorEmail: '=1+2@x.example',
        subjectEmail: '+3@x.example',
        subjectUid: '-4',
        path: '@SUM(5)',
        at: new Date(),
      },
      {
        kind: 'admin.invite',
        actorUid: uid,
        actorEmail: '\t=6@x.example',
        path: '\r=7',
        at: new Date(Date.now() - 1000),
      },
    ]);
    const csv = await call('GET', `/api/admin/audit?reader=${uid}&format=csv`, admin);
    expect(csv.statusCode).toBe(200);
    const [, first] = csv.body.split('\n');
    const cells = (first ?? '').split(',');
    expect([cells[3], cells[5], cells[6], cells[7]]).toEqual(["'=1+2@x.example", "'+3@x.example", "'-4", "'@SUM(5)"]);
    expect(csv.body).toContain("'\t=6@x.example");
    expect(csv.body).toContain("'\r=7");
  });

  it("finds and revokes a reader's token however many newer tokens other readers hold, and pages through all", async () => {
    const reader = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(app, await readers.signIn(reader.email, reader.password));
    const created = await call('POST', '/api/tokens', cookie, { name: 'old laptop', days: 30 });
    expect(created.statusCode).toBe(201);
    const { record } = created.json() as { record: { id: string } };
    // 1,200 newer tokens of other readers, straight into the store.
    const batch = randomUUID().slice(0, 8);
    await db.query(
      `insert into access_tokens (id, uid, email, name, hint, secret_hash, created_at, expires_at)
       select 'bulk-' || $1 || '-' || n, 'bulk-uid-' || n, 'bulk' || n || '@x.example', 'bulk', 'norigin_pat_bulk…',
              md5($1 || n), now() + n * interval '1 millisecond', now() + interval '30 days'
       from generate_series(1, 1200) as n`,
      [batch],
    );
    try {
      for (const who of [reader.email.toUpperCase(), reader.uid]) {
        const found = await call('GET', `/api/admin/tokens?reader=${encodeURIComponent(who)}`, admin);
        expect(found.statusCode).toBe(200);
        expect((found.json() as { tokens: { id: string }[] }).tokens.map((token) => token.id)).toEqual([record.id]);
      }
      const seen: string[] = [];
      let next: string | null = null;
      for (let page = 0; page < 20; page++) {
        const response = await call('GET', `/api/admin/tokens?limit=200${next ? `&before=${next}` : ''}`, admin);
        const body = response.json() as { tokens: { id: string }[]; next: string | null };
        seen.push(...body.tokens.map((token) => token.id));
        next = body.next;
        if (next === null) break;
      }
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toContain(record.id);
      expect(seen.filter((id) => id.startsWith(`bulk-${batch}-`))).toHaveLength(1200);
      expect((await call('GET', '/api/admin/tokens?limit=2000', admin)).statusCode).toBe(400);
      expect((await call('DELETE', `/api/admin/tokens/${record.id}`, admin)).statusCode).toBe(204);
      const after = await call('GET', `/api/admin/tokens?reader=${reader.uid}`, admin);
      expect((after.json() as { tokens: { revokedAt: string | null }[] }).tokens[0]?.revokedAt).not.toBeNull();
    } finally {
      await db.query('delete from access_tokens where id like $1', [`bulk-${batch}-%`]);
    }
  });

  it('refuses bad input with a reason and changes nothing', async () => {
    for (const [payload, reason] of [
      [{ email: 'not-an-address', groups: ['partner'], method: 'password' }, /email/],
      [{ email: 'a@b.example', groups: ['wizards'], method: 'password' }, /groups/],
      [{ email: 'a@b.example', groups: [], method: 'password' }, /groups/],
      [{ email: 'a@b.example', groups: ['partner'], method: 'password', admin: true }, /additional/],
      [{ email: 'a@b.example', groups: ['partner'] }, /method/],
    ] as const) {
      const response = await call('POST', '/api/admin/invitations', admin, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect((response.json() as { error: string }).error).toMatch(reason);
    }
    expect(
      (await call('PUT', '/api/admin/readers/no-such-uid/groups', admin, { groups: ['partner'] })).statusCode,
    ).toBe(404);
    expect((await call('GET', '/api/admin/audit?kind=page.peek', admin)).json()).toEqual({
      error: expect.stringMatching(/^"page.peek" is not a kind of event/),
    });
    for (const url of ['/api/admin/readers?group=wizards', '/api/admin/insights?group=wizards']) {
      const response = await call('GET', url, admin);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual({
        error: expect.stringMatching(/^"wizards" is not a group of the access policy/),
      });
    }
    const existing = await readers.create({ groups: ['partner'] });
    const again = await call('POST', '/api/admin/invitations', admin, {
      email: existing.email,
      groups: ['staff'],
      method: 'password',
    });
    expect(again.statusCode).toBe(409);
  });

  it('leaves no account behind when an invitation fails halfway', async () => {
    const email = `halfway-${randomUUID().slice(0, 8)}@partner.example`;
    // The real identity service, failing on the last step (the password link), after the account was made.
    const spy = vi
      .spyOn(Auth.prototype, 'generatePasswordResetLink')
      .mockRejectedValueOnce(new Error('The identity service hung up'));
    try {
      const response = await call('POST', '/api/admin/invitations', admin, {
        email,
        groups: ['partner'],
        method: 'password',
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: 'The change could not be made; nothing was changed' });
    } finally {
      spy.mockRestore();
    }
    await expect(readers.signIn(email, 'anything-at-all')).rejects.toThrow(/EMAIL_NOT_FOUND|INVALID_LOGIN_CREDENTIALS/);
    const listed = await call('GET', `/api/admin/readers?q=${encodeURIComponent(email)}`, admin);
    expect((listed.json() as { total: number }).total).toBe(0);
  });

  describe('is closed to everyone but administrators', () => {
    const routes: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown][] = [
      ['GET', '/api/admin/readers'],
      ['POST', '/api/admin/invitations', { email: 'x@y.example', groups: ['partner'], method: 'password' }],
      ['DELETE', '/api/admin/invitations/x@y.example'],
      ['PUT', '/api/admin/readers/demo-reader/groups', { groups: ['partner'] }],
      ['POST', '/api/admin/readers/demo-reader/disable'],
      ['POST', '/api/admin/readers/demo-reader/enable'],
      ['DELETE', '/api/admin/readers/demo-reader'],
      ['GET', '/api/admin/audit'],
      ['GET', '/api/admin/audit?format=csv'],
      ['GET', '/api/admin/insights'],
      ['GET', '/api/admin/tokens'],
      ['DELETE', '/api/admin/tokens/no-such-token'],
      ['GET', '/api/openapi.json'],
    ];

    // One staff and one partner session for every route (every call is refused, nothing changes
    // them): four sign-ins with the emulator per route took the test past its time under load.
    let refusedCookies: string[] = [];
    beforeAll(async () => {
      refusedCookies = await Promise.all(
        ['staff', 'partner'].map(async (group) => {
          const account = await readers.create({ groups: [group] });
          return signInCookie(app, await readers.signIn(account.email, account.password));
        }),
      );
    });

    it.each(routes)('%s %s: anonymous 401, staff and partner 403, another origin 403', async (method, url, payload) => {
      expect((await call(method, url, null, payload)).statusCode).toBe(401);
      expect(refusedCookies).toHaveLength(2);
      for (const cookie of refusedCookies) {
        const response = await call(method, url, cookie, payload);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ error: REFUSALS['no-access'] });
      }
      if (method !== 'GET') {
        const crossSite = await call(method, url, admin, payload, 'https://evil.example');
        expect(crossSite.statusCode).toBe(403);
        expect(crossSite.json()).toEqual({ error: 'Cross-origin requests are not allowed' });
      }
    });

    it("gives administrators the API's OpenAPI document, made from the contract's schemas", async () => {
      const response = await call('GET', '/api/openapi.json', admin);
      expect(response.statusCode).toBe(200);
      const document = response.json() as {
        openapi: string;
        paths: Record<
          string,
          Record<
            string,
            { requestBody?: { content: Record<string, { schema: Json }> }; responses?: Record<string, Json> }
          >
        >;
      };
      expect(document.openapi).toMatch(/^3\./);
      expect(Object.keys(document.paths)).toEqual(
        expect.arrayContaining(['/api/session', '/api/feedback', '/api/search-events', '/api/admin/readers']),
      );
      // The file server's catch-all and the platform's probes are not API.
      expect(Object.keys(document.paths)).not.toContain('/*');
      expect(Object.keys(document.paths)).not.toContain('/healthz');
      const signIn = document.paths['/api/session']?.post?.requestBody?.content['application/json']?.schema;
      expect(signIn).toMatchObject({ required: ['idToken'], additionalProperties: false });
      // Every JSON route declares what it answers on success: the contract covers the whole API.
      const undeclared = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations)
          .filter(
            ([, operation]) =>
              // (swagger's stand-in for a route without one is a 200 "Default Response" with no content)
              !Object.entries(operation.responses ?? {}).some(([status, answer]) => {
                const { content, description } = answer as { content?: unknown; description?: string };
                return /^2/.test(status) && (content !== undefined || description !== 'Default Response');
              }),
          )
          .map(([method]) => `${method.toUpperCase()} ${path}`),
      );
      expect(undeclared).toEqual([]);
    });

    it('serves the admin page itself to administrators only', async () => {
      // The miniature site has no /admin page: the policy's answer is what counts.
      const { canRead } = await import('@portal/access');
      expect(canRead(unitsOfGroups(['staff']), '/admin')).toBe(false);
      expect(canRead(unitsOfGroups(['admin']), '/admin')).toBe(true);
    });
  });
});

describe('when the database stops mid-run', () => {
  let postgres: RunningPostgres;
  let app: FastifyInstance;
  let readers: EmulatorReaders;

  beforeAll(async () => {
    postgres = await startPostgres();
    ({ app, readers } = await readyTestApp(await makeTestSite(), {
      DATABASE_URL: postgres.url,
      AUDIT_QUEUE_LIMIT: '10',
    }));
  });
  afterAll(async () => {
    await app.close();
    await postgres.stop();
  });

  it('keeps serving pages, counts views and events while it is down, drops only what passes its limit, and writes the rest when it is back', async () => {
    const reader = await readers.create({ groups: ['partner'] });
    const idToken = await readers.signIn(reader.email, reader.password);
    const cookie = await signInCookie(app, idToken);
    await expect.poll(() => metric(app, 'portal_audit_queue_events')).toBe(0);
    postgres.pause();
    for (let i = 0; i < 25; i++) {
      const page = await app.inject({ url: '/docs/layout-engine/', headers: { cookie } });
      expect(page.statusCode).toBe(200);
    }
    // Twenty-five reloads are one row in memory, however small the queue: nothing dropped.
    expect(await metric(app, 'portal_audit_dropped_events_total')).toBe(0);
    expect(await metric(app, 'portal_audit_queue_events')).toBe(25);
    // Twelve more sign-ins are twelve events; the queue holds ten of them.
    for (let i = 0; i < 12; i++) await signInCookie(app, idToken);
    expect(await metric(app, 'portal_audit_dropped_events_total')).toBe(2);
    postgres.resume();
    await expect.poll(() => metric(app, 'portal_audit_queue_events'), { timeout: 30_000 }).toBe(0);
    await app.inject({ url: '/docs/layout-engine/', headers: { cookie } });
    // Read from the server's database on a connection of the test's own.
    const db = await openDatabase({ kind: 'postgres', url: postgres.url });
    const views = async (): Promise<number> =>
      (await queryAudit(db, { kinds: ['page.view'], reader: reader.uid })).reduce(
        (sum, row) => sum + (row.detail.views as number),
        0,
      );
    try {
      await expect.poll(views).toBe(26);
      expect(await queryAudit(db, { kinds: ['session.started'], reader: reader.uid })).toHaveLength(11);
    } finally {
      await db.close();
    }
  });
});
