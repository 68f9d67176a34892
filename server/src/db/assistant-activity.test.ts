import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freshDatabase, type DatabaseKind } from '../test/databases.js';
import { insertSearchEvents } from './activity.js';
import type { Database } from './database.js';
import { insights } from './insights.js';
import { migrate } from './migrations.js';
import { addPageViews, PageViewLog, type PageViewRow, type ViewClient, type ViewReader } from './page-views.js';

/*
 * Assistants' searches and reads, recorded with the client that made them (a personal token's
 * name or an OAuth client's), and the insights that set them beside the readers' own.
 */

const silent = { warn: () => undefined, info: () => undefined };
const ada: ViewReader = { uid: 'uid-ada', email: 'ada@partner.example', groups: ['partner'] };
const bo: ViewReader = { uid: 'uid-bo', email: 'bo@partner.example', groups: ['partner'] };
const sam: ViewReader = { uid: 'uid-sam', email: 'sam@norigin.example', groups: ['staff'] };
const claude: ViewClient = { kind: 'oauth', name: 'Claude Code' };
const ci: ViewClient = { kind: 'token', name: 'CI runner' };

describe('the page view log', () => {
  it('keeps a reader’s own reading and each assistant’s apart, still one row per kind of reading', async () => {
    const written: PageViewRow[] = [];
    const log = new PageViewLog({ write: async (rows) => void written.push(...rows), log: silent });
    for (let i = 0; i < 3; i++) log.record(ada, '/docs/whitelabel/');
    for (let i = 0; i < 4; i++) log.record(ada, '/docs/whitelabel/', 'mcp', null, claude);
    log.record(ada, '/docs/whitelabel/', 'mcp', null, { kind: 'token', name: 'Claude Code' });
    log.record(ada, '/llms.txt', 'llms', null, ci);
    await log.close();
    const rows = written.map((r) => [r.path, r.via, r.clientKind, r.client, r.count]).sort();
    expect(rows).toEqual([
      ['/docs/whitelabel/', 'mcp', 'oauth', 'Claude Code', 4],
      ['/docs/whitelabel/', 'mcp', 'token', 'Claude Code', 1],
      ['/docs/whitelabel/', 'page', '', '', 3],
      ['/llms.txt', 'llms', 'token', 'CI runner', 1],
    ]);
  });
});

describe.each<DatabaseKind>(['pglite', 'postgres'])('assistants in the insights on %s', (kind) => {
  let db: Database;
  // Up to a minute ahead: the database takes seconds to open, and the views are made after that.
  const period = () => ({ from: new Date(Date.now() - 7 * 86_400_000), to: new Date(Date.now() + 60_000) });
  beforeAll(async () => {
    db = await freshDatabase(kind);
    await migrate(db);
    const log = new PageViewLog({ write: (rows) => addPageViews(db, rows), log: silent });
    for (let i = 0; i < 5; i++) log.record(ada, '/docs/whitelabel/');
    for (let i = 0; i < 2; i++) log.record(ada, '/docs/whitelabel/', 'mcp', null, claude);
    log.record(bo, '/docs/layout-engine/', 'token', null, ci);
    log.record(sam, '/docs/guidelines/', 'mcp', null, claude);
    await log.close();
    const now = Date.now();
    // A second write of the same rows adds to their counts (the upsert's key names the client).
    await addPageViews(db, [
      {
        period: now - (now % 3_600_000),
        uid: ada.uid,
        email: ada.email,
        groups: ada.groups,
        path: '/docs/whitelabel/',
        via: 'mcp',
        clientIp: '',
        clientKind: 'oauth',
        client: 'Claude Code',
        firstAt: now,
        lastAt: now,
        count: 3,
      },
    ]);
    await insertSearchEvents(db, [
      { uid: ada.uid, groups: ['partner'], query: 'brand colours', results: 4 },
      { uid: ada.uid, groups: ['partner'], query: 'Brand colours', results: 4 },
      { uid: bo.uid, groups: ['partner'], query: 'drm', results: 0 },
      { uid: ada.uid, groups: ['partner'], query: 'focus ring', results: 0, via: 'mcp', client: claude },
      { uid: ada.uid, groups: ['partner'], query: 'Focus ring', results: 0, via: 'mcp', client: claude },
      { uid: bo.uid, groups: ['partner'], query: 'focus ring', results: 0, via: 'api', client: ci },
      { uid: bo.uid, groups: ['partner'], query: 'useFocusable', results: 6, via: 'api', client: ci },
      { uid: sam.uid, groups: ['staff'], query: 'jenkins', results: 0, via: 'mcp', client: claude },
    ]);
  });
  afterAll(() => db.close());

  it('splits views and searches between readers and their assistants, per client', async () => {
    const partner = await insights(db, { ...period(), group: 'partner', pages: [] });
    expect(partner.views).toMatchObject({ total: 11, own: 5, readers: 2 });
    expect(partner.searches).toMatchObject({ total: 3, withoutResults: 1 });
    expect(partner.searches.top).toEqual([
      { query: 'brand colours', times: 2 },
      { query: 'drm', times: 1 },
    ]);
    expect(partner.searches.failed.map((f) => f.query)).toEqual(['drm']);
    const { assistants } = partner;
    expect(assistants).toMatchObject({ views: 6, readers: 2, searches: 4, withoutResults: 3 });
    expect(assistants.clients).toEqual([
      { kind: 'oauth', name: 'Claude Code', views: 5, searches: 2, withoutResults: 2 },
      { kind: 'token', name: 'CI runner', views: 1, searches: 2, withoutResults: 1 },
    ]);
    expect(assistants.topSearches).toEqual([
      { query: 'focus ring', times: 3 },
      { query: 'usefocusable', times: 1 },
    ]);
    expect(assistants.failed).toEqual([
      { query: 'focus ring', times: 3, lastAt: expect.any(String), clients: ['CI runner', 'Claude Code'] },
    ]);
  });

  it('counts every group’s assistants when no group is asked for', async () => {
    const everyone = await insights(db, { ...period(), pages: [] });
    expect(everyone.assistants).toMatchObject({ views: 7, readers: 3, searches: 5, withoutResults: 4 });
    expect(everyone.assistants.failed.map((f) => [f.query, f.clients])).toEqual([
      ['focus ring', ['CI runner', 'Claude Code']],
      ['jenkins', ['Claude Code']],
    ]);
    // The readers' own searches are the search box's only.
    expect(everyone.searches.total).toBe(3);
  });
});
