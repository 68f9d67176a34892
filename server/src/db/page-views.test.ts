import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freshDatabase, type DatabaseKind } from '../test/databases.js';
import { cursorOf, deleteOlderThan, insertAuditEvents, queryAudit, type AuditRow } from './audit.js';
import type { Database } from './database.js';
import { insights } from './insights.js';
import { migrate } from './migrations.js';
import {
  BLOCK_CAPACITY,
  blockOf,
  blocksBetween,
  compactPageViews,
  forEachView,
  insertPageViewBlocks,
  PageViewLog,
  type ViewReader,
} from './page-views.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const silent = { warn: () => undefined, info: () => undefined };

const ada: ViewReader = { uid: 'uid-Ada', email: 'ada@partner.example', groups: ['partner'] };
const sam: ViewReader = { uid: 'uid-sam', email: 'Sam@Norigin.example', groups: ['staff', 'admin'] };
// Text that would break a careless encoding: quotes, backslashes, tabs, new lines, non-ASCII.
const odd: ViewReader = { uid: 'odd"\\uid', email: 'zoë\t"q"@x.example', groups: ['partner'] };

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

describe('page view blocks', () => {
  it('keep every view: time to the millisecond, reader, groups and page, in any order given', () => {
    const now = Date.now();
    const views = [
      { at: now + 5, reader: sam, path: '/docs/whitelabel/' },
      { at: now, reader: ada, path: '/docs/layout-engine/' },
      { at: now + 5, reader: odd, path: '/docs/ünïcode "page"/' },
      { at: now + 70_000, reader: ada, path: '/docs/whitelabel/' },
    ];
    const block = blockOf(views);
    expect(block).toMatchObject({ firstAt: now, lastAt: now + 70_000, count: 4 });
    expect(block.readers).toHaveLength(3);
    expect(block.views.byteLength).toBe(4 * 8);
    const back: { at: number; uid: string; path: string }[] = [];
    forEachView(block, (at, r, p) => back.push({ at, uid: block.readers[r]?.[0] ?? '', path: block.pages[p] ?? '' }));
    expect(back).toEqual(
      [...views].sort((a, b) => a.at - b.at).map((view) => ({ at: view.at, uid: view.reader.uid, path: view.path })),
    );
  });
});

describe.each<DatabaseKind>(['pglite', 'postgres'])('page views on %s', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await freshDatabase(kind);
    await migrate(db);
  });
  afterAll(() => db.close());

  const clear = (): Promise<unknown> =>
    Promise.all([db.query('delete from page_view_blocks'), db.query('delete from audit_events')]);

  it('are written by the log in blocks and read back view by view, with odd text intact', async () => {
    await clear();
    const written: number[] = [];
    const log = new PageViewLog({
      name: 'test',
      write: async (blocks) => {
        written.push(...blocks.map((block) => block.count));
        await insertPageViewBlocks(db, blocks);
      },
      log: silent,
    });
    const before = Date.now();
    log.record(ada, '/docs/layout-engine/');
    log.record(odd, '/docs/ünïcode "page"/');
    log.record(ada, '/docs/whitelabel/');
    expect(log.stats.queued).toBe(3);
    await log.close();
    expect(written).toEqual([3]);
    expect(log.stats).toMatchObject({ queued: 0, written: 3, dropped: 0 });
    const rows = await queryAudit(db, { kinds: ['page.view'] });
    expect(rows.map((row) => [row.actorUid, row.actorEmail, row.path, row.groups])).toEqual([
      ['uid-Ada', 'ada@partner.example', '/docs/whitelabel/', ['partner']],
      ['odd"\\uid', 'zoë\t"q"@x.example', '/docs/ünïcode "page"/', ['partner']],
      ['uid-Ada', 'ada@partner.example', '/docs/layout-engine/', ['partner']],
    ]);
    for (const row of rows) {
      expect(Date.parse(row.at)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(row.at)).toBeLessThanOrEqual(Date.now());
      expect(row.kind).toBe('page.view');
    }
    // Found by e-mail in any case and by uid as it is; another reader's name finds none of them.
    expect(await queryAudit(db, { reader: 'ADA@partner.EXAMPLE' })).toHaveLength(2);
    expect(await queryAudit(db, { reader: 'uid-Ada' })).toHaveLength(2);
    expect(await queryAudit(db, { reader: 'uid-ada' })).toHaveLength(0);
    expect(await queryAudit(db, { kinds: ['session.started'] })).toEqual([]);
  });

  it('are written the same by COPY and by INSERT', async () => {
    await clear();
    const now = Date.now();
    const block = blockOf([
      { at: now, reader: odd, path: '/a/' },
      { at: now + 1, reader: sam, path: '/b/' },
    ]);
    await insertPageViewBlocks(db, [block]);
    // Without copyBinary: the INSERT a PostgreSQL server gets (and PGlite inside a transaction).
    await insertPageViewBlocks({ query: (sql, params) => db.query(sql, params) }, [block]);
    const [first, second] = await blocksBetween(db, new Date(now - 1), new Date(now + 2));
    expect(first).toMatchObject({
      firstAt: now,
      lastAt: now + 1,
      count: 2,
      readers: block.readers,
      pages: block.pages,
    });
    expect(second).toMatchObject({
      firstAt: now,
      lastAt: now + 1,
      count: 2,
      readers: block.readers,
      pages: block.pages,
    });
    expect(Buffer.from(first?.views ?? [])).toEqual(Buffer.from(block.views));
    expect(Buffer.from(second?.views ?? [])).toEqual(Buffer.from(block.views));
  });

  it('are paged with the other events in time order, each row once, ties in one millisecond included', async () => {
    await clear();
    const t = Date.now() - 60_000;
    // Views and events in the same milliseconds, over several blocks.
    await insertPageViewBlocks(db, [
      blockOf([
        { at: t, reader: ada, path: '/1/' },
        { at: t + 10, reader: ada, path: '/2/' },
        { at: t + 10, reader: sam, path: '/3/' },
      ]),
      blockOf([
        { at: t + 10, reader: ada, path: '/4/' },
        { at: t + 20, reader: sam, path: '/5/' },
      ]),
    ]);
    await insertAuditEvents(db, [
      { kind: 'session.started', actorUid: 'uid-Ada', actorEmail: 'ada@partner.example', at: new Date(t + 10) },
      { kind: 'session.logout', actorUid: 'uid-Ada', actorEmail: 'ada@partner.example', at: new Date(t + 10) },
      { kind: 'session.started', actorUid: 'uid-sam', actorEmail: 'sam@norigin.example', at: new Date(t + 30) },
    ]);
    const all = await queryAudit(db, {});
    expect(all).toHaveLength(8);
    const times = all.map((row) => Date.parse(row.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const size of [1, 2, 3, 5]) expect(await allPages(db, size)).toEqual(all);
    const adaOnly = await queryAudit(db, { reader: 'ada@partner.example' });
    // In one millisecond, a block's views come first (the later block first), then the events, newest first.
    expect(adaOnly.map((row) => row.path ?? row.kind)).toEqual([
      '/4/',
      '/2/',
      'session.logout',
      'session.started',
      '/1/',
    ]);
    expect(await allPages(db, 2, { reader: 'ada@partner.example' })).toEqual(adaOnly);
    const window = await queryAudit(db, { from: new Date(t + 5), to: new Date(t + 20), kinds: ['page.view'] });
    expect(window.map((row) => row.path).sort()).toEqual(['/2/', '/3/', '/4/']);
  });

  it('find the newest views among many blocks, and all of them for an export', async () => {
    await clear();
    const t = Date.now() - 10 * HOUR;
    const blocks = Array.from({ length: 120 }, (_, b) =>
      blockOf(
        Array.from({ length: 5 }, (_, i) => ({
          at: t + b * 60_000 + i,
          reader: b === 3 ? sam : ada,
          path: `/docs/p-${b}-${i}/`,
        })),
      ),
    );
    await insertPageViewBlocks(db, blocks);
    const newest = await queryAudit(db, { limit: 7 });
    expect(newest.map((row) => row.path)).toEqual([
      '/docs/p-119-4/',
      '/docs/p-119-3/',
      '/docs/p-119-2/',
      '/docs/p-119-1/',
      '/docs/p-119-0/',
      '/docs/p-118-4/',
      '/docs/p-118-3/',
    ]);
    // A reader whose only views are in an old block: found past the blocks of others.
    expect((await queryAudit(db, { reader: 'uid-sam' })).map((row) => row.path)).toEqual(
      [4, 3, 2, 1, 0].map((i) => `/docs/p-3-${i}/`),
    );
    expect(await queryAudit(db, { limit: 100_000 })).toHaveLength(600);
  });

  it('count in the insights with the views kept as rows, per group', async () => {
    await clear();
    const now = Date.now();
    await insertPageViewBlocks(db, [
      blockOf([
        { at: now - DAY, reader: ada, path: '/docs/whitelabel/' },
        { at: now - DAY + 1, reader: ada, path: '/docs/whitelabel/' },
        { at: now - DAY + 2, reader: sam, path: '/docs/guidelines/' },
        // Outside the period.
        { at: now - 40 * DAY, reader: ada, path: '/docs/old/' },
      ]),
    ]);
    await insertAuditEvents(db, [
      // An agent's view through a token, a row of its own.
      {
        kind: 'page.view',
        actorUid: 'uid-p2',
        path: '/docs/whitelabel/',
        groups: ['partner'],
        at: new Date(now - 2 * DAY),
      },
    ]);
    const pages = ['/docs/whitelabel/', '/docs/layout-engine/'];
    const partner = await insights(db, {
      group: 'partner',
      from: new Date(now - 30 * DAY),
      to: new Date(now + 1),
      pages,
    });
    expect(partner.views.total).toBe(3);
    expect(partner.views.readers).toBe(2);
    expect(partner.mostRead).toEqual([{ path: '/docs/whitelabel/', views: 3, readers: 2 }]);
    expect(partner.neverRead).toEqual(['/docs/layout-engine/']);
    expect(partner.views.byDay.reduce((sum, d) => sum + d.views, 0)).toBe(3);
    const everyone = await insights(db, { from: new Date(now - 30 * DAY), to: new Date(now + 1), pages });
    expect(everyone.views.total).toBe(4);
    expect(everyone.mostRead.map((row) => row.path)).toEqual(['/docs/whitelabel/', '/docs/guidelines/']);
  });

  it('are deleted with the retention only when all of a block is older', async () => {
    await clear();
    const now = Date.now();
    await insertPageViewBlocks(db, [
      blockOf([{ at: now - 200 * DAY, reader: ada, path: '/old/' }]),
      blockOf([{ at: now - 10 * DAY, reader: ada, path: '/recent/' }]),
    ]);
    expect(await deleteOlderThan(db, new Date(now - 180 * DAY))).toEqual({ audit: 1, searches: 0 });
    expect((await queryAudit(db, {})).map((row) => row.path)).toEqual(['/recent/']);
  });

  it('are compacted: the small blocks of each past hour become one, every view kept; this hour is left', async () => {
    await clear();
    const hour = Math.floor(Date.now() / HOUR) * HOUR;
    const small = [
      ...Array.from({ length: 30 }, (_, i) =>
        blockOf([{ at: hour - 3 * HOUR + i * 1000, reader: i % 2 ? ada : odd, path: `/docs/${i % 3}/` }]),
      ),
      ...Array.from({ length: 4 }, (_, i) => blockOf([{ at: hour - 2 * HOUR + i, reader: sam, path: '/x/' }])),
      // A lone block of its hour, and blocks of the hour under way: left as they are.
      blockOf([{ at: hour - HOUR, reader: sam, path: '/lone/' }]),
      blockOf([{ at: hour + 1, reader: sam, path: '/now/' }]),
      blockOf([{ at: hour + 2, reader: sam, path: '/now/' }]),
    ];
    await insertPageViewBlocks(db, small);
    const before = await queryAudit(db, { limit: 1000 });
    const report = await compactPageViews(db, new Date(hour + 1000));
    expect(report).toEqual({ read: 34, written: 2 });
    const counts = await db.query<{ count: number }>('select count from page_view_blocks order by first_at');
    expect(counts.map((row) => row.count)).toEqual([30, 4, 1, 1, 1]);
    const after = await queryAudit(db, { limit: 1000 });
    const key = (row: AuditRow): string =>
      [row.at, row.actorUid, row.actorEmail, row.path, row.groups.join()].join('|');
    expect(after.map(key).sort()).toEqual(before.map(key).sort());
    expect(await compactPageViews(db, new Date(hour + 1000))).toEqual({ read: 0, written: 0 });
  });

  it('drop no view under load while the database answers, at the default queue limit', async () => {
    for (const limit of [10_000]) {
      const written: number[] = [];
      const log = new PageViewLog({
        name: 'test',
        // A database that answers a few milliseconds later, as PGlite's thread does.
        write: async (blocks) => {
          await new Promise((resolve) => setTimeout(resolve, 3));
          written.push(...blocks.map((block) => block.count));
        },
        limit,
        log: silent,
      });
      // Five blocks' worth of views and more, 100 a millisecond (more than the gate
      // answers), so views arrive while blocks are being written.
      const burst = 100;
      for (let i = 0; i < 5 * BLOCK_CAPACITY + 500; i += burst) {
        for (let j = 0; j < burst; j++) log.record(ada, '/docs/whitelabel/');
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      await log.flush(true);
      await log.close();
      const total = Math.ceil((5 * BLOCK_CAPACITY + 500) / burst) * burst;
      expect(log.stats).toMatchObject({ dropped: 0, written: total, queued: 0 });
      expect(written.reduce((a, b) => a + b, 0)).toBe(total);
    }
  });

  it(`seal a block at ${BLOCK_CAPACITY} views, and count views dropped past the queue's limit`, async () => {
    let fail = true;
    const written: number[] = [];
    const log = new PageViewLog({
      name: 'test',
      write: async (blocks) => {
        if (fail) throw new Error('the database is down');
        written.push(...blocks.map((block) => block.count));
      },
      limit: BLOCK_CAPACITY + 10,
      log: silent,
    });
    for (let i = 0; i < BLOCK_CAPACITY + 25; i++) log.record(ada, '/docs/whitelabel/');
    expect(log.stats).toMatchObject({ queued: BLOCK_CAPACITY + 10, dropped: 15 });
    fail = false;
    await log.flush(true);
    await log.close();
    expect(written).toEqual([BLOCK_CAPACITY, 10]);
    expect(log.stats).toMatchObject({ queued: 0, written: BLOCK_CAPACITY + 10, dropped: 15 });
  });
});

describe("PGlite's worker", () => {
  it('gets page view blocks as a copy, so no buffer of the gate thread is ever detached', async () => {
    // A transfer would detach the bytes here (length 0 after), and the first detach in a
    // process throws away V8's optimised code for Node's HTTP and streams (database.ts).
    const db = await freshDatabase('pglite');
    try {
      await migrate(db);
      const copyBinary = db.copyBinary?.bind(db);
      expect(copyBinary).toBeDefined();
      const sent: Uint8Array[] = [];
      const now = Date.now();
      await insertPageViewBlocks(
        {
          query: (sql, params) => db.query(sql, params),
          copyBinary: (table, columns, data) => {
            sent.push(data);
            return (copyBinary as NonNullable<typeof copyBinary>)(table, columns, data);
          },
        },
        [blockOf([{ at: now, reader: ada, path: '/a/' }]), blockOf([{ at: now + 1, reader: sam, path: '/b/' }])],
      );
      expect(sent).toHaveLength(1);
      expect(sent[0]?.byteLength).toBeGreaterThan(0);
      expect(sent[0]?.buffer.byteLength).toBeGreaterThan(0);
      expect((await queryAudit(db, { kinds: ['page.view'] })).map((row) => row.path)).toEqual(['/b/', '/a/']);
    } finally {
      await db.close();
    }
  });
});
