import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freshDatabase, type DatabaseKind } from '../test/databases.js';
import { cursorOf, deleteOlderThan, insertAuditEvents, queryAudit, type AuditRow } from './audit.js';
import type { Database } from './database.js';
import { insights } from './insights.js';
import { migrate } from './migrations.js';
import { addPageViews, PageViewLog, VIEW_INTERVAL_MS, type PageViewRow, type ViewReader } from './page-views.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const silent = { warn: () => undefined, info: () => undefined };

const ada: ViewReader = { uid: 'uid-Ada', email: 'ada@partner.example', groups: ['partner'] };
const sam: ViewReader = { uid: 'uid-sam', email: 'Sam@Norigin.example', groups: ['staff', 'admin'] };
// Text that would break a careless encoding: quotes, backslashes, tabs, new lines, non-ASCII.
const odd: ViewReader = { uid: 'odd"\\uid', email: 'zoë\t"q"@x.example', groups: ['partner', 'a "b"\\c'] };

/** A row of `count` views of `path` by `reader`, the first at `at`. */
const row = (
  reader: ViewReader,
  path: string,
  at: number,
  count = 1,
  via: PageViewRow['via'] = 'page',
): PageViewRow => ({
  period: at - (at % VIEW_INTERVAL_MS),
  uid: reader.uid,
  email: reader.email,
  groups: reader.groups,
  path,
  via,
  clientIp: '',
  firstAt: at,
  lastAt: at,
  count,
});

/** Every row of the trail, page by page of `size`, following `next` as the admin page does. */
async function allPages(db: Database, size: number, filter: { reader?: string } = {}): Promise<AuditRow[]> {
  const rows: AuditRow[] = [];
  let before: string | undefined;
  for (let guard = 0; guard < 1000; guard++) {
    const page = await queryAudit(db, { ...filter, limit: size, before });
    rows.push(...page);
    const last = page.at(-1);
    if (page.length < size || !last) return rows;
    before = cursorOf(last);
  }
  throw new Error('the trail did not end');
}

describe.each<DatabaseKind>(['pglite', 'postgres'])('page views on %s', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await freshDatabase(kind);
    await migrate(db);
  });
  afterAll(() => db.close());

  const clear = (): Promise<unknown> =>
    Promise.all([db.query('delete from page_views'), db.query('delete from audit_events')]);
  const stored = async (): Promise<{ uid: string; path: string; via: string; count: number }[]> =>
    db.query('select uid, path, via, count from page_views order by uid, path, via');

  it('are one row per reader, page, way of reading and hour, however often the page is reloaded', async () => {
    await clear();
    const log = new PageViewLog({ write: (rows) => addPageViews(db, rows), log: silent });
    for (let i = 0; i < 20_000; i++) log.record(ada, '/docs/whitelabel/');
    await log.flush(true);
    // More of the same after a write add to its count: still one row.
    for (let i = 0; i < 500; i++) log.record(ada, '/docs/whitelabel/');
    log.record(ada, '/docs/whitelabel/', 'mcp');
    log.record(sam, '/docs/whitelabel/');
    log.record(odd, '/docs/ünïcode "page"/');
    await log.close();
    expect(await stored()).toEqual([
      { uid: 'odd"\\uid', path: '/docs/ünïcode "page"/', via: 'page', count: 1 },
      { uid: 'uid-Ada', path: '/docs/whitelabel/', via: 'mcp', count: 1 },
      { uid: 'uid-Ada', path: '/docs/whitelabel/', via: 'page', count: 20_500 },
      { uid: 'uid-sam', path: '/docs/whitelabel/', via: 'page', count: 1 },
    ]);
    expect(log.stats).toMatchObject({ written: 20_503, queued: 0, dropped: 0 });
    const trail = await queryAudit(db, { kinds: ['page.view'], reader: 'ADA@partner.EXAMPLE' });
    expect(trail.map((view) => [view.path, view.detail])).toEqual(
      expect.arrayContaining([
        ['/docs/whitelabel/', expect.objectContaining({ views: 20_500 })],
        ['/docs/whitelabel/', expect.objectContaining({ views: 1, via: 'mcp' })],
      ]),
    );
    expect(trail).toHaveLength(2);
    const [oddRow] = await queryAudit(db, { reader: odd.uid });
    expect(oddRow).toMatchObject({ actorEmail: odd.email, groups: odd.groups, path: '/docs/ünïcode "page"/' });
    expect(await queryAudit(db, { reader: 'uid-ada' })).toHaveLength(0);
  });

  it('start a new row each hour, and add up what two replicas counted in the same hour', async () => {
    await clear();
    const start = Date.UTC(2026, 10, 20, 9, 59, 59, 0);
    await addPageViews(db, [row(ada, '/a/', start, 3), row(ada, '/a/', start + 2000, 4)]);
    // Another replica, the same hour, with earlier views.
    await addPageViews(db, [{ ...row(ada, '/a/', start - 1000, 5), lastAt: start - 500 }]);
    const rows = await db.query<{ first_at: Date; last_at: Date; count: number }>(
      'select first_at, last_at, count from page_views order by first_at',
    );
    expect(rows.map((r) => [new Date(r.first_at).getTime(), new Date(r.last_at).getTime(), r.count])).toEqual([
      [start - 1000, start, 8],
      [start + 2000, start + 2000, 4],
    ]);
  });

  it('are paged with the other events in time order, each row once, ties in one millisecond included', async () => {
    await clear();
    const t = Date.now() - DAY;
    // One at a time, so ids follow i.
    for (let i = 0; i < 30; i++)
      await addPageViews(db, [row(i % 2 ? ada : sam, `/docs/p${i}/`, t + Math.floor(i / 3), 1 + i)]);
    await insertAuditEvents(
      db,
      Array.from({ length: 12 }, (_, i) => ({
        kind: 'session.started' as const,
        actorUid: ada.uid,
        actorEmail: ada.email,
        at: new Date(t + Math.floor(i / 2)),
      })),
    );
    const all = await queryAudit(db, { limit: 1000 });
    expect(all).toHaveLength(42);
    for (const size of [1, 4, 7]) expect(await allPages(db, size)).toEqual(all);
    expect(await allPages(db, 5, { reader: 'ada@partner.example' })).toEqual(all.filter((r) => r.actorUid === ada.uid));
    // Views of a millisecond come before its other events.
    const sameMs = all.filter((r) => Date.parse(r.at) === t);
    expect(sameMs.map((r) => r.kind)).toEqual([
      'page.view',
      'page.view',
      'page.view',
      'session.started',
      'session.started',
    ]);
    const window = await queryAudit(db, { from: new Date(t + 5), to: new Date(t + 8), kinds: ['page.view'] });
    expect(window.map((r) => r.path)).toEqual([
      '/docs/p23/',
      '/docs/p22/',
      '/docs/p21/',
      '/docs/p20/',
      '/docs/p19/',
      '/docs/p18/',
      '/docs/p17/',
      '/docs/p16/',
      '/docs/p15/',
    ]);
  });

  it('count in the insights by their counts, per group, summed up in the database', async () => {
    await clear();
    const now = Date.now();
    await addPageViews(db, [
      row(ada, '/docs/whitelabel/', now - DAY, 40),
      row(ada, '/docs/whitelabel/', now - DAY - 2 * HOUR, 2, 'token'),
      row(sam, '/docs/guidelines/', now - DAY, 7),
      row({ ...ada, uid: 'uid-p2' }, '/docs/whitelabel/', now - 2 * DAY, 1, 'mcp'),
      // Outside the period.
      row(ada, '/docs/old/', now - 40 * DAY, 1000),
    ]);
    const pages = ['/docs/whitelabel/', '/docs/layout-engine/'];
    const partner = await insights(db, {
      group: 'partner',
      from: new Date(now - 30 * DAY),
      to: new Date(now + 1),
      pages,
    });
    expect(partner.views.total).toBe(43);
    expect(partner.views.readers).toBe(2);
    expect(partner.mostRead).toEqual([{ path: '/docs/whitelabel/', views: 43, readers: 2 }]);
    expect(partner.neverRead).toEqual(['/docs/layout-engine/']);
    expect(partner.views.byDay.reduce((sum, d) => sum + d.views, 0)).toBe(43);
    const everyone = await insights(db, { from: new Date(now - 30 * DAY), to: new Date(now + 1), pages });
    expect(everyone.views.total).toBe(50);
    expect(everyone.mostRead.map((r) => r.path)).toEqual(['/docs/whitelabel/', '/docs/guidelines/']);
  });

  it('are deleted with the retention when their last view is older', async () => {
    await clear();
    const now = Date.now();
    await addPageViews(db, [row(ada, '/old/', now - 200 * DAY, 3), row(ada, '/recent/', now - 10 * DAY)]);
    expect(await deleteOlderThan(db, new Date(now - 180 * DAY))).toEqual({ audit: 3, searches: 0 });
    expect((await queryAudit(db, {})).map((r) => r.path)).toEqual(['/recent/']);
  });
});

describe('the page view log', () => {
  it('keeps counting the pages it holds while the database is down, and drops only views of new rows past its limit', async () => {
    let fail = true;
    const written: PageViewRow[] = [];
    const log = new PageViewLog({
      write: async (rows) => {
        if (fail) throw new Error('the database is down');
        written.push(...rows);
      },
      limit: 3,
      log: silent,
    });
    for (let i = 0; i < 1000; i++) log.record(ada, `/docs/p${i % 5}/`);
    await log.flush(true);
    for (let i = 0; i < 100; i++) log.record(ada, '/docs/p0/');
    // Three rows held (p0, p1, p2); the views of p3 and p4 are dropped.
    expect(log.stats).toMatchObject({ queued: 700, dropped: 400, failedWrites: 1 });
    fail = false;
    await log.close();
    expect(written.map((r) => [r.path, r.count]).sort()).toEqual([
      ['/docs/p0/', 300],
      ['/docs/p1/', 200],
      ['/docs/p2/', 200],
    ]);
    expect(log.stats).toMatchObject({ queued: 0, written: 700, dropped: 400 });
  });

  it('drops no view under load while the database answers, each flush one statement', async () => {
    const statements: number[] = [];
    const log = new PageViewLog({
      // A database that answers a few milliseconds later, as PGlite's thread does.
      write: async (rows) => {
        await new Promise((resolve) => setTimeout(resolve, 3));
        statements.push(rows.reduce((sum, r) => sum + r.count, 0));
      },
      intervalMs: 5,
      log: silent,
    });
    let total = 0;
    for (let round = 0; round < 50; round++) {
      for (let j = 0; j < 100; j++, total++) log.record(j % 2 ? ada : sam, `/docs/p${j % 7}/`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await log.close();
    expect(log.stats).toMatchObject({ dropped: 0, written: total, queued: 0 });
    expect(statements.reduce((a, b) => a + b, 0)).toBe(total);
  });
});
