import type { Database } from './database.js';
import { blocksBetween, forEachView } from './page-views.js';

export interface InsightsQuery {
  /** Only readers in this group; all readers when absent. */
  group?: string;
  from: Date;
  to: Date;
  /** The private pages of the site that the group may read, to find those never read. */
  pages: readonly string[];
}

export interface Insights {
  period: { from: string; to: string; group: string | null };
  views: { total: number; readers: number; byDay: { day: string; views: number }[] };
  mostRead: { path: string; views: number; readers: number }[];
  leastRead: { path: string; views: number; readers: number }[];
  neverRead: string[];
  searches: { total: number; withoutResults: number; failed: { query: string; times: number; lastAt: string }[] };
  ratings: {
    path: string;
    helpful: number;
    notHelpful: number;
    comments: { helpful: boolean; comment: string; at: string }[];
  }[];
  demo: boolean;
}

const day = (value: Date | string): string => new Date(value).toISOString().slice(0, 10);

/**
 * What readers read, searched for and said, for one group (or everyone) over a period:
 * from the audit trail's page views, the reported searches and the page feedback.
 */
export async function insights(db: Database, query: InsightsQuery): Promise<Insights> {
  const base = [query.from.toISOString(), query.to.toISOString(), query.group ?? null];
  // $3 null: every group; otherwise readers in that group.
  const inGroup = '($3::text is null or $3 = any(groups))';
  const views = `kind = 'page.view' and at >= $1::timestamptz and at < $2::timestamptz and ${inGroup}`;
  // Page views are rows of audit_events (agents' tokens, client addresses, demo data and
  // views recorded before the blocks) and views in blocks (page-views.ts): both counted
  // here, per page and per day (UTC), with the readers behind them.
  const perPageTally = new Map<string, { views: number; readers: Set<string> }>();
  const perDay = new Map<number, number>();
  const readers = new Set<string>();
  let total = 0;
  const pageTally = (path: string): { views: number; readers: Set<string> } => {
    let entry = perPageTally.get(path);
    if (!entry) perPageTally.set(path, (entry = { views: 0, readers: new Set() }));
    return entry;
  };
  const rows = await db.query<{ uid: string | null; path: string | null; day: number; views: number }>(
    `select actor_uid as uid, path, floor(extract(epoch from at) / 86400)::int as day, count(*)::int as views
     from audit_events where ${views} group by 1, 2, 3`,
    base,
  );
  for (const row of rows) {
    total += row.views;
    perDay.set(row.day, (perDay.get(row.day) ?? 0) + row.views);
    if (row.uid !== null) readers.add(row.uid);
    if (row.path === null) continue;
    const entry = pageTally(row.path);
    entry.views += row.views;
    if (row.uid !== null) entry.readers.add(row.uid);
  }
  const from = query.from.getTime();
  const to = query.to.getTime();
  for (const block of await blocksBetween(db, query.from, query.to)) {
    const uids = block.readers.map(([uid, , groups]) =>
      query.group === undefined || groups.includes(query.group) ? uid : null,
    );
    const entries = block.pages.map(pageTally);
    forEachView(block, (at, r, p) => {
      const uid = uids[r];
      if (uid === null || uid === undefined || at < from || at >= to) return;
      total++;
      readers.add(uid);
      const dayNumber = Math.floor(at / 86_400_000);
      perDay.set(dayNumber, (perDay.get(dayNumber) ?? 0) + 1);
      const entry = entries[p];
      if (!entry) return;
      entry.views++;
      entry.readers.add(uid);
    });
  }
  const perPage = [...perPageTally]
    .filter(([, entry]) => entry.views > 0)
    .map(([path, entry]) => ({ path, views: entry.views, readers: entry.readers.size }));
  const byViews = [...perPage].sort((a, b) => b.views - a.views || a.path.localeCompare(b.path));
  const read = new Set(perPage.map((row) => row.path));
  const searchWhere = `at >= $1::timestamptz and at < $2::timestamptz and ${inGroup}`;
  const [searchTotals] = await db.query<{ total: number; failed: number }>(
    `select count(*)::int as total, count(*) filter (where results = 0)::int as failed from search_events where ${searchWhere}`,
    base,
  );
  const failed = await db.query<{ query: string; times: number; last_at: Date | string }>(
    `select lower(query) as query, count(*)::int as times, max(at) as last_at from search_events
     where ${searchWhere} and results = 0 group by lower(query) order by times desc, last_at desc limit 25`,
    base,
  );
  const feedbackWhere = `updated_at >= $1::timestamptz and updated_at < $2::timestamptz and ${inGroup}`;
  const ratings = await db.query<{ path: string; helpful: number; not_helpful: number }>(
    `select path, count(*) filter (where helpful)::int as helpful, count(*) filter (where not helpful)::int as not_helpful
     from page_feedback where ${feedbackWhere} group by path order by not_helpful desc, helpful desc, path limit 50`,
    base,
  );
  const comments = await db.query<{ path: string; helpful: boolean; comment: string; updated_at: Date | string }>(
    `select path, helpful, comment, updated_at from page_feedback
     where ${feedbackWhere} and comment is not null and comment <> '' order by updated_at desc limit 200`,
    base,
  );
  const [demo] = await db.query<{ any: boolean }>(
    `select exists (select 1 from audit_events where demo) or exists (select 1 from search_events where demo) or exists (select 1 from page_feedback where demo) as any`,
  );
  return {
    period: { from: query.from.toISOString(), to: query.to.toISOString(), group: query.group ?? null },
    views: {
      total,
      readers: readers.size,
      byDay: [...perDay]
        .sort(([a], [b]) => a - b)
        .map(([dayNumber, count]) => ({ day: day(new Date(dayNumber * 86_400_000)), views: count })),
    },
    mostRead: byViews.slice(0, 10),
    leastRead: byViews.slice(-10).reverse(),
    neverRead: query.pages.filter((path) => !read.has(path)).sort(),
    searches: {
      total: searchTotals?.total ?? 0,
      withoutResults: searchTotals?.failed ?? 0,
      failed: failed.map((row) => ({
        query: row.query,
        times: row.times,
        lastAt: new Date(row.last_at).toISOString(),
      })),
    },
    ratings: ratings.map((row) => ({
      path: row.path,
      helpful: row.helpful,
      notHelpful: row.not_helpful,
      comments: comments
        .filter((comment) => comment.path === row.path)
        .map((comment) => ({
          helpful: comment.helpful,
          comment: comment.comment,
          at: new Date(comment.updated_at).toISOString(),
        })),
    })),
    demo: demo?.any ?? false,
  };
}
