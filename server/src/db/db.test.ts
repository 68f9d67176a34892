import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freshDatabase, type DatabaseKind } from '../test/databases.js';
import {
  acceptInvitation,
  feedbackOf,
  insertSearchEvents,
  openInvitations,
  saveFeedback,
  saveInvitation,
  withdrawInvitation,
} from './activity.js';
import { cursorOf, deleteOlderThan, insertAuditEvents, queryAudit } from './audit.js';
import type { Database } from './database.js';
import { insights } from './insights.js';
import { listMigrations, migrate } from './migrations.js';
import { addPageViews } from './page-views.js';

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number): Date => new Date(Date.now() - days * DAY);

describe.each<DatabaseKind>(['pglite', 'postgres'])('the store on %s', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await freshDatabase(kind);
  });
  afterAll(() => db.close());

  it('migrates from empty to the newest schema, and a second run does nothing', async () => {
    const steps = await listMigrations();
    // Ascending, each once; a number may be missing while another branch holds it.
    const versions = steps.map((step) => step.version);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
    const first = await migrate(db);
    expect(first).toEqual({
      from: 0,
      to: steps.at(-1)?.version,
      applied: steps.map((m) => `${m.version} ${m.name}`),
    });
    const again = await migrate(db);
    expect(again.applied).toEqual([]);
    const tables = await db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' order by table_name",
    );
    expect(tables.map((t) => t.table_name)).toEqual([
      'access_groups',
      'access_requests',
      'access_tokens',
      'audit_events',
      'change_events',
      'digest_mails',
      'feed_tokens',
      'hook_deliveries',
      'invitations',
      'licence_notices',
      'licences',
      'oauth_records',
      'organisation_groups',
      'organisations',
      'page_feedback',
      'page_texts',
      'page_views',
      'reader_grants',
      'reader_memberships',
      'reader_settings',
      'reader_watches',
      'schema_version',
      'scim_calls',
      'scim_tokens',
      'scim_users',
      'search_events',
      'site_releases',
    ]);
  });

  it('migrates from the version before, counting its page views (rows and blocks) into a row per reader, page and hour', async () => {
    const older = await freshDatabase(kind);
    try {
      const steps = await listMigrations();
      // The version before page views were counted per hour (steps after it change other tables).
      const previous = (steps.find((step) => step.name === 'page-views-counted-per-hour')?.version ?? 1) - 1;
      await migrate(older, previous);
      const hour = Date.UTC(2026, 10, 20, 9);
      await insertAuditEvents(older, [
        {
          kind: 'page.view',
          actorUid: 'u1',
          actorEmail: 'u1@x.example',
          path: '/docs/whitelabel/',
          groups: ['partner'],
          at: new Date(hour + 1000),
        },
        {
          kind: 'page.view',
          actorUid: 'u1',
          actorEmail: 'u1@x.example',
          path: '/docs/whitelabel/',
          groups: ['partner'],
          at: new Date(hour + 2000),
        },
        {
          kind: 'page.view',
          actorUid: 'u1',
          actorEmail: 'u1@x.example',
          path: '/docs/whitelabel/',
          groups: ['partner'],
          detail: { via: 'mcp' },
          at: new Date(hour + 3000),
        },
        { kind: 'session.started', actorUid: 'u1', at: new Date(hour) },
      ]);
      // A block of version 6: per view, uint32 milliseconds after first_at, uint16 reader, uint16 page.
      const views = Buffer.alloc(4 * 8);
      [
        [0, 0, 0],
        [5, 0, 0],
        [10, 1, 0],
        [3_600_000, 0, 1],
      ].forEach(([ms, reader, page], i) => {
        views.writeUInt32LE(ms as number, i * 8);
        views.writeUInt16LE(reader as number, i * 8 + 4);
        views.writeUInt16LE(page as number, i * 8 + 6);
      });
      await older.query(
        `insert into page_view_blocks (first_at, last_at, count, readers, pages, views)
         values ($1::timestamptz, $2::timestamptz, 4, $3::jsonb, $4::jsonb, decode($5, 'hex'))`,
        [
          new Date(hour + 500).toISOString(),
          new Date(hour + 500 + 3_600_000).toISOString(),
          JSON.stringify([
            ['u1', 'u1@x.example', ['partner']],
            ['u2', 'u2@x.example', ['staff', 'a "b"']],
          ]),
          JSON.stringify(['/docs/whitelabel/', '/docs/layout-engine/']),
          views.toString('hex'),
        ],
      );
      const report = await migrate(older);
      expect(report.from).toBe(previous);
      expect(report.applied).toHaveLength(steps.length - previous);
      const rows = await older.query<Record<string, unknown>>(
        `select uid, email, groups, path, via, count, extract(epoch from first_at) * 1000 as first, extract(epoch from last_at) * 1000 as last
         from page_views order by uid, path, via`,
      );
      expect(rows.map((row) => ({ ...row, first: Number(row.first), last: Number(row.last) }))).toEqual([
        {
          uid: 'u1',
          email: 'u1@x.example',
          groups: ['partner'],
          path: '/docs/layout-engine/',
          via: 'page',
          count: 1,
          first: hour + 3_600_500,
          last: hour + 3_600_500,
        },
        {
          uid: 'u1',
          email: 'u1@x.example',
          groups: ['partner'],
          path: '/docs/whitelabel/',
          via: 'mcp',
          count: 1,
          first: hour + 3000,
          last: hour + 3000,
        },
        {
          uid: 'u1',
          email: 'u1@x.example',
          groups: ['partner'],
          path: '/docs/whitelabel/',
          via: 'page',
          count: 4,
          first: hour + 500,
          last: hour + 2000,
        },
        {
          uid: 'u2',
          email: 'u2@x.example',
          groups: ['staff', 'a "b"'],
          path: '/docs/whitelabel/',
          via: 'page',
          count: 1,
          first: hour + 510,
          last: hour + 510,
        },
      ]);
      // The trail keeps its other events; its page views are these rows now.
      expect((await queryAudit(older, {})).map((row) => row.kind).sort()).toEqual([
        'page.view',
        'page.view',
        'page.view',
        'page.view',
        'session.started',
      ]);
    } finally {
      await older.close();
    }
  });

  it("runs a transaction all or nothing, and reports PostgreSQL's error codes", async () => {
    await db.query('create table tx_probe (id integer primary key)');
    const failing = db.transaction(async (tx) => {
      await tx.query('insert into tx_probe values (1)');
      await tx.query('insert into tx_probe values (1)');
    });
    await expect(failing).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('select id from tx_probe')).toEqual([]);
    await db.transaction(async (tx) => tx.query('insert into tx_probe values (2), (3)'));
    expect(await db.query('select id from tx_probe order by id')).toEqual([{ id: 2 }, { id: 3 }]);
    await db.query('drop table tx_probe');
  });

  it.runIf(kind === 'pglite')('makes work outside a transaction wait for it (PGlite has one connection)', async () => {
    await db.query('create table tx_probe (id integer primary key)');
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const committed = db.transaction(async (tx) => {
      await tx.query('insert into tx_probe values (2)');
      await held;
      await tx.query('insert into tx_probe values (3)');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const seen = db.query<{ n: number }>('select count(*)::int as n from tx_probe');
    release();
    await committed;
    expect((await seen)[0]?.n).toBe(2);
    await db.query('drop table tx_probe');
  });

  it('keeps what it is given as it was: quotes, backslashes, commas, tabs and line breaks, nulls', async () => {
    const odd = 'odd "group", with \\ and {braces}';
    const path = '/docs/odd\tpath\\N\nline\r';
    const detail = { note: 'tab\there \\N "quoted"' };
    await insertAuditEvents(db, [{ kind: 'page.view', actorUid: 'odd-1', path, groups: [odd, 'partner'], detail }]);
    const [row] = await queryAudit(db, { reader: 'odd-1' });
    expect(row?.groups).toEqual([odd, 'partner']);
    expect(row?.path).toBe(path);
    expect(row?.detail).toEqual(detail);
    expect(row?.actorEmail).toBeNull();
  });

  it('records every kind of audit event and finds them by kind, reader and time, newest first', async () => {
    await insertAuditEvents(db, [
      {
        kind: 'session.started',
        actorUid: 'r1',
        actorEmail: 'Ada@Partner.example',
        groups: ['partner'],
        at: daysAgo(3),
      },
      { kind: 'session.refused', actorEmail: 'stranger@else.example', detail: { code: 'no-access' }, at: daysAgo(2) },
      {
        kind: 'admin.groups',
        actorUid: 'a1',
        actorEmail: 'admin@norigin.example',
        subjectUid: 'r1',
        subjectEmail: 'ada@partner.example',
        detail: { before: ['partner'], after: ['partner', 'staff'] },
        at: daysAgo(1),
      },
      {
        kind: 'page.view',
        actorUid: 'r1',
        actorEmail: 'ada@partner.example',
        path: '/docs/whitelabel/',
        groups: ['partner'],
      },
      { kind: 'session.logout', actorUid: 'r1', actorEmail: 'ada@partner.example', clientIp: '203.0.113.9' },
    ]);
    const ada = await queryAudit(db, { reader: 'ADA@partner.example' });
    expect(ada.map((row) => row.kind)).toEqual(['session.logout', 'page.view', 'admin.groups', 'session.started']);
    expect(ada[2]).toMatchObject({
      detail: { before: ['partner'], after: ['partner', 'staff'] },
      actorEmail: 'admin@norigin.example',
    });
    expect(ada[0]?.clientIp).toBe('203.0.113.9');
    const refused = await queryAudit(db, { kinds: ['session.refused'] });
    expect(refused.map((row) => row.detail)).toEqual([{ code: 'no-access' }]);
    const lastTwoDays = await queryAudit(db, {
      from: daysAgo(2.5),
      to: daysAgo(0.5),
      kinds: ['session.refused', 'admin.groups'],
    });
    expect(lastTwoDays.map((row) => row.kind)).toEqual(['admin.groups', 'session.refused']);
    const page = await queryAudit(db, { limit: 2 });
    const last = page.at(-1);
    if (!last) throw new Error('no rows');
    const next = await queryAudit(db, { limit: 2, before: cursorOf(last) });
    expect(next[0]?.id).not.toBe(last.id);
    expect(Date.parse(next[0]?.at ?? '')).toBeLessThanOrEqual(Date.parse(last.at));
    expect([...page, ...next]).toEqual(await queryAudit(db, { limit: 4 }));
  });

  it('deletes only what is older than the retention', async () => {
    const store = await freshDatabase(kind);
    try {
      await migrate(store);
      await insertAuditEvents(store, [
        { kind: 'page.view', path: '/old', at: daysAgo(200) },
        { kind: 'page.view', path: '/recent', at: daysAgo(10) },
      ]);
      await insertSearchEvents(store, [
        { uid: 'u', groups: [], query: 'old', results: 0, at: daysAgo(181) },
        { uid: 'u', groups: [], query: 'new', results: 0, at: daysAgo(1) },
      ]);
      expect(await deleteOlderThan(store, daysAgo(180))).toEqual({ audit: 1, searches: 1 });
      expect((await queryAudit(store, {})).map((row) => row.path)).toEqual(['/recent']);
    } finally {
      await store.close();
    }
  });

  it('keeps one answer per reader and page, and lets the reader change it', async () => {
    await saveFeedback(db, {
      uid: 'r1',
      path: '/docs/whitelabel/',
      groups: ['partner'],
      helpful: false,
      comment: 'No brand example',
    });
    const changed = await saveFeedback(db, {
      uid: 'r1',
      path: '/docs/whitelabel/',
      groups: ['partner'],
      helpful: true,
      comment: null,
    });
    expect(changed).toMatchObject({ helpful: true, comment: null });
    expect(await feedbackOf(db, 'r1', '/docs/whitelabel/')).toMatchObject({ helpful: true });
    expect(await feedbackOf(db, 'r2', '/docs/whitelabel/')).toBeNull();
  });

  it('hands an invitation out once', async () => {
    await saveInvitation(db, { email: 'Octo@GitHub.example', groups: ['partner'], invitedBy: 'admin@norigin.example' });
    expect((await openInvitations(db)).map((i) => i.email)).toContain('octo@github.example');
    expect(await acceptInvitation(db, 'octo@github.example')).toEqual(['partner']);
    expect(await acceptInvitation(db, 'octo@github.example')).toBeNull();
    await saveInvitation(db, { email: 'gone@x.example', groups: ['staff'], invitedBy: 'a' });
    expect(await withdrawInvitation(db, 'gone@x.example')).toBe(true);
    expect(await acceptInvitation(db, 'gone@x.example')).toBeNull();
  });

  it('sums up reading, searching and ratings per group', async () => {
    const store = await freshDatabase(kind);
    try {
      await migrate(store);
      const view = (uid: string, path: string, groups: string[], at: Date) => ({
        period: at.getTime() - (at.getTime() % 3_600_000),
        uid,
        email: null,
        groups,
        path,
        via: 'page' as const,
        clientIp: '',
        firstAt: at.getTime(),
        lastAt: at.getTime(),
        count: 1,
      });
      await addPageViews(store, [
        view('p1', '/docs/whitelabel/', ['partner'], daysAgo(2)),
        view('p1', '/docs/whitelabel/', ['partner'], daysAgo(1)),
        view('p2', '/docs/layout-engine/', ['partner'], daysAgo(1)),
        view('s1', '/docs/frontend-guidelines/GitFlow', ['staff'], daysAgo(1)),
      ]);
      await insertAuditEvents(store, [
        { kind: 'session.started', actorUid: 'p1', groups: ['partner'], at: daysAgo(1) },
      ]);
      await insertSearchEvents(store, [
        { uid: 'p1', groups: ['partner'], query: 'DRM on Tizen', results: 0 },
        { uid: 'p2', groups: ['partner'], query: 'drm on tizen', results: 0 },
        { uid: 'p2', groups: ['partner'], query: 'whitelabel', results: 4 },
        { uid: 's1', groups: ['staff'], query: 'jenkins', results: 0 },
      ]);
      await saveFeedback(store, {
        uid: 'p1',
        path: '/docs/whitelabel/',
        groups: ['partner'],
        helpful: false,
        comment: 'Missing a brand config example',
      });
      await saveFeedback(store, {
        uid: 'p2',
        path: '/docs/whitelabel/',
        groups: ['partner'],
        helpful: true,
        comment: null,
      });
      const partner = await insights(store, {
        group: 'partner',
        from: daysAgo(7),
        to: new Date(Date.now() + 1000),
        pages: ['/docs/whitelabel/', '/docs/layout-engine/', '/docs/demo-app/'],
      });
      expect(partner.views.total).toBe(3);
      expect(partner.views.readers).toBe(2);
      expect(partner.views.byDay.map((d) => d.views)).toEqual([1, 2]);
      expect(partner.mostRead[0]).toEqual({ path: '/docs/whitelabel/', views: 2, readers: 1 });
      expect(partner.leastRead[0]).toEqual({ path: '/docs/layout-engine/', views: 1, readers: 1 });
      expect(partner.neverRead).toEqual(['/docs/demo-app/']);
      expect(partner.searches).toMatchObject({ total: 3, withoutResults: 2 });
      expect(partner.searches.failed).toEqual([expect.objectContaining({ query: 'drm on tizen', times: 2 })]);
      expect(partner.ratings).toEqual([
        {
          path: '/docs/whitelabel/',
          helpful: 1,
          notHelpful: 1,
          comments: [expect.objectContaining({ helpful: false, comment: 'Missing a brand config example' })],
        },
      ]);
      const everyone = await insights(store, { from: daysAgo(7), to: new Date(Date.now() + 1000), pages: [] });
      expect(everyone.views.total).toBe(4);
      expect(everyone.searches.failed.map((f) => f.query)).toEqual(['drm on tizen', 'jenkins']);
      expect(everyone.demo).toBe(false);
    } finally {
      await store.close();
    }
  });
});
