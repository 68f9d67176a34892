import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { loadSite } from '../site.js';
import { freshDatabase } from '../test/databases.js';
import { makeTestSite } from '../test/test-site.js';
import type { Database } from './database.js';
import { accessRequestQueue } from './access-requests.js';
import { seedDemoActivity } from './demo.js';
import { seedDemoOrganisations } from './demo-organisations.js';
import { insights } from './insights.js';
import { migrate } from './migrations.js';

describe('the demo activity of npm start', () => {
  let db: Database;
  beforeAll(async () => {
    db = await freshDatabase('pglite');
    await migrate(db);
  });
  afterAll(() => db.close());

  it('fills thirty days of reading, searching and ratings, all marked as demo data, once', async () => {
    const site = await loadSite(await makeTestSite());
    const log = { info: () => undefined };
    await seedDemoActivity(db, site, log);
    const count = async (): Promise<number> =>
      (await db.query<{ n: number }>('select count(*)::int as n from audit_events'))[0]?.n ?? 0;
    const first = await count();
    expect(first).toBeGreaterThan(100);
    const [notDemo] = await db.query<{ n: number }>(
      'select (select count(*) from audit_events where not demo) + (select count(*) from search_events where not demo) + (select count(*) from page_feedback where not demo) as n',
    );
    expect(Number(notDemo?.n)).toBe(0);
    await seedDemoActivity(db, site, log);
    expect(await count()).toBe(first);
    const summary = await insights(db, {
      group: 'partner',
      from: new Date(Date.now() - 31 * 86_400_000),
      to: new Date(Date.now() + 1000),
      pages: site.pages.filter((page) => page.access === 'private').map((page) => page.url),
    });
    expect(summary.demo).toBe(true);
    expect(summary.views.total).toBeGreaterThan(20);
    expect(summary.searches.withoutResults).toBeGreaterThan(0);
    // Partners read partner pages only, in the demo as in life.
    for (const row of summary.mostRead) expect(row.path).not.toMatch(/frontend-guidelines/);
  });

  it('seeds the partner organisations, their licences (one ended) and two requests awaiting an answer, once', async () => {
    const log = { info: () => undefined };
    await seedDemoOrganisations(db, log);
    const counts = async () =>
      (
        await db.query<{ organisations: number; licences: number; ended: number; requests: number }>(
          `select (select count(*)::int from organisations) as organisations,
                  (select count(*)::int from licences) as licences,
                  (select count(*)::int from licences where ends_at < now()) as ended,
                  (select count(*)::int from access_requests) as requests`,
        )
      )[0];
    const first = await counts();
    expect(first).toEqual({ organisations: 5, licences: 6, ended: 1, requests: 2 });
    // One organisation signs its readers in with its own provider, and requires it.
    expect(
      await db.query(
        'select id, sign_in_provider, sign_in_required from organisations where sign_in_provider is not null',
      ),
    ).toEqual([{ id: 'aurora', sign_in_provider: 'oidc.aurora-okta', sign_in_required: true }]);
    const queue = await accessRequestQueue(db);
    expect(queue.map((request) => [request.email, request.unit, request.status, request.organisationId])).toEqual(
      expect.arrayContaining([
        ['dev@northwind.example', 'player-adapter-dash', 'pending', 'northwind'],
        ['dev@halcyon-streams.example', 'player-core', 'pending', 'halcyon'],
      ]),
    );
    await seedDemoOrganisations(db, log);
    expect(await counts()).toEqual(first);
  });
});
