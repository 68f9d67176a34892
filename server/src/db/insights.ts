import type { Insights } from '@portal/contract';

import type { Database } from './database.js';

export interface InsightsQuery {
  /** Only readers in this group; all readers when absent. */
  group?: string;
  /** Only these readers (uids: an organisation's); all readers when absent. */
  readers?: { organisation: string; uids: readonly string[] };
  from: Date;
  to: Date;
  /** The private pages of the site that the group may read, to find those never read. */
  pages: readonly string[];
}

/** What assistants did for readers (MCP, the search API, `.md` pages and llms files with a token or OAuth). */
type AssistantInsights = Insights['assistants'];
/** One assistant: the personal token's or OAuth client's name, and what it did in the period. */
type AssistantClient = AssistantInsights['clients'][number];

const day = (value: Date | string): string => new Date(value).toISOString().slice(0, 10);

/**
 * What readers read, searched for and said, for one group (or everyone) over a period:
 * from the audit trail's page views, the reported searches and the page feedback.
 */
export async function insights(db: Database, query: InsightsQuery): Promise<Insights> {
  const base = [query.from.toISOString(), query.to.toISOString(), query.group ?? null, query.readers?.uids ?? null];
  // $3 null: every group; otherwise readers in that group. $4 null: every reader; otherwise those.
  const inGroup = '($3::text is null or $3 = any(groups)) and ($4::text[] is null or uid = any($4::text[]))';
  // Page views are rows of a reader's views of a page in an hour with their count
  // (page-views.ts), placed at their first view: summed up in the database, so only a row
  // per page and per day comes back, however long the period.
  const views = `first_at >= $1::timestamptz and first_at < $2::timestamptz and ${inGroup}`;
  // A view without a client is the reader's own; one with a client, an assistant's (page-views.ts).
  const [totals] = await db.query<{
    total: number;
    readers: number;
    own: number;
    assisted: number;
    assisted_readers: number;
  }>(
    `select coalesce(sum(count), 0)::int as total, count(distinct uid)::int as readers,
       coalesce(sum(count) filter (where client_kind = ''), 0)::int as own,
       coalesce(sum(count) filter (where client_kind <> ''), 0)::int as assisted,
       count(distinct uid) filter (where client_kind <> '')::int as assisted_readers
     from page_views where ${views}`,
    base,
  );
  const perDay = await db.query<{ day: number; views: number }>(
    `select floor(extract(epoch from first_at) / 86400)::int as day, sum(count)::int as views
     from page_views where ${views} group by 1 order by 1`,
    base,
  );
  const perPage = await db.query<{ path: string; views: number; readers: number }>(
    `select path, sum(count)::int as views, count(distinct uid)::int as readers
     from page_views where ${views} group by path`,
    base,
  );
  const byViews = [...perPage].sort((a, b) => b.views - a.views || a.path.localeCompare(b.path));
  const read = new Set(perPage.map((row) => row.path));
  const inPeriod = `at >= $1::timestamptz and at < $2::timestamptz and ${inGroup}`;
  // The readers' own searches (the search box), and their assistants' (the API and MCP with a token or OAuth).
  const searchWhere = `${inPeriod} and via = 'site'`;
  const assistantWhere = `${inPeriod} and client_kind <> ''`;
  const [searchTotals] = await db.query<{ total: number; failed: number }>(
    `select count(*)::int as total, count(*) filter (where results = 0)::int as failed from search_events where ${searchWhere}`,
    base,
  );
  const top = (where: string) =>
    db.query<{ query: string; times: number }>(
      `select lower(query) as query, count(*)::int as times from search_events where ${where}
       group by lower(query) order by times desc, lower(query) limit 10`,
      base,
    );
  const topSearches = await top(searchWhere);
  const failed = await db.query<{ query: string; times: number; last_at: Date | string }>(
    `select lower(query) as query, count(*)::int as times, max(at) as last_at from search_events
     where ${searchWhere} and results = 0 group by lower(query) order by times desc, last_at desc limit 25`,
    base,
  );
  const assistantTop = await top(assistantWhere);
  const assistantFailed = await db.query<{ query: string; times: number; last_at: Date | string; clients: string[] }>(
    `select lower(query) as query, count(*)::int as times, max(at) as last_at,
       array_agg(distinct client order by client) as clients
     from search_events where ${assistantWhere} and results = 0
     group by lower(query) order by times desc, last_at desc limit 25`,
    base,
  );
  // Per client: its searches and its views, each summed up in the database.
  const clientSearches = await db.query<{ kind: 'token' | 'oauth'; name: string; searches: number; failed: number }>(
    `select client_kind as kind, client as name, count(*)::int as searches,
       count(*) filter (where results = 0)::int as failed
     from search_events where ${assistantWhere} group by client_kind, client`,
    base,
  );
  const clientViews = await db.query<{ kind: 'token' | 'oauth'; name: string; views: number }>(
    `select client_kind as kind, client as name, sum(count)::int as views
     from page_views where ${views} and client_kind <> '' group by client_kind, client`,
    base,
  );
  const [searchReaders] = await db.query<{ uids: string[] | null }>(
    `select array_agg(distinct uid) as uids from search_events where ${assistantWhere}`,
    base,
  );
  const [viewReaders] = await db.query<{ uids: string[] | null }>(
    `select array_agg(distinct uid) as uids from page_views where ${views} and client_kind <> ''`,
    base,
  );
  const clients = new Map<string, AssistantClient>();
  const clientOf = (kind: 'token' | 'oauth', name: string): AssistantClient => {
    const key = `${kind}\u0000${name}`;
    let client = clients.get(key);
    if (!client) clients.set(key, (client = { kind, name, views: 0, searches: 0, withoutResults: 0 }));
    return client;
  };
  for (const row of clientSearches)
    Object.assign(clientOf(row.kind, row.name), { searches: row.searches, withoutResults: row.failed });
  for (const row of clientViews) clientOf(row.kind, row.name).views = row.views;
  const assistedReaders = new Set([...(searchReaders?.uids ?? []), ...(viewReaders?.uids ?? [])]);
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
    `select exists (select 1 from audit_events where demo) or exists (select 1 from page_views where demo)
       or exists (select 1 from search_events where demo) or exists (select 1 from page_feedback where demo) as any`,
  );
  return {
    period: {
      from: query.from.toISOString(),
      to: query.to.toISOString(),
      group: query.group ?? null,
      organisation: query.readers?.organisation ?? null,
    },
    views: {
      total: totals?.total ?? 0,
      readers: totals?.readers ?? 0,
      own: totals?.own ?? 0,
      byDay: perDay.map((row) => ({ day: day(new Date(row.day * 86_400_000)), views: row.views })),
    },
    mostRead: byViews.slice(0, 10),
    leastRead: byViews.slice(-10).reverse(),
    neverRead: query.pages.filter((path) => !read.has(path)).sort(),
    searches: {
      total: searchTotals?.total ?? 0,
      withoutResults: searchTotals?.failed ?? 0,
      top: topSearches,
      failed: failed.map((row) => ({
        query: row.query,
        times: row.times,
        lastAt: new Date(row.last_at).toISOString(),
      })),
    },
    assistants: {
      views: totals?.assisted ?? 0,
      readers: assistedReaders.size,
      searches: clientSearches.reduce((sum, row) => sum + row.searches, 0),
      withoutResults: clientSearches.reduce((sum, row) => sum + row.failed, 0),
      clients: [...clients.values()].sort(
        (a, b) => b.searches + b.views - (a.searches + a.views) || a.name.localeCompare(b.name),
      ),
      topSearches: assistantTop,
      failed: assistantFailed.map((row) => ({
        query: row.query,
        times: row.times,
        lastAt: new Date(row.last_at).toISOString(),
        clients: row.clients,
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
