import type { Database } from './database.js';
import type { RecorderStats } from './recorder.js';

/**
 * Page views, the bulk of the audit trail, recorded once per reader, page, way of reading
 * and hour, with a count beside: a reader who reloads a page 20,000 times, or an assistant
 * reading it in a loop, adds one row (its count grows), so the trail grows with what is
 * read, never with how often. A view costs the request a Map lookup; once a second the
 * counts gathered are added to their rows in one statement (an upsert), off the request
 * path. While the database cannot be reached they stay in memory, still merged, so a
 * reload loop during an outage costs no memory either; only new rows past the queue's
 * limit are dropped, and counted.
 */

/** Who read: the session's or the token's reader, as the gate knows it. */
export interface ViewReader {
  readonly uid: string;
  readonly email: string | null;
  readonly groups: readonly string[];
}

/**
 * How a page was read: a page with a session, a page's Markdown with a token, MCP's read_page,
 * or the llms files (`/llms.txt`, `/llms-full.txt`, recorded under their own path).
 */
export type ViewChannel = 'page' | 'token' | 'mcp' | 'llms';

/**
 * The assistant that read for the reader: the name of the personal token it sent, or of the
 * OAuth client the reader allowed. A reader's own reading with their session has none.
 */
export interface ViewClient {
  readonly kind: 'token' | 'oauth';
  readonly name: string;
}

/** The interval a page's views by one reader are counted in (one row each). */
export const VIEW_INTERVAL_MS = 3_600_000;

/** One row: the views of one page by one reader in one interval. */
export interface PageViewRow {
  /** The interval's start, in milliseconds since 1970. */
  period: number;
  uid: string;
  email: string | null;
  groups: readonly string[];
  path: string;
  via: ViewChannel;
  /** The client address when the settings keep them; '' otherwise. */
  clientIp: string;
  /** The assistant's kind and name (ViewClient); both '' for a reader's own reading. */
  clientKind?: ViewClient['kind'] | '';
  client?: string;
  firstAt: number;
  lastAt: number;
  count: number;
  demo?: boolean;
}

/** A stored row, with its id. */
export interface StoredPageView extends Required<Omit<PageViewRow, 'groups'>> {
  id: string;
  groups: string[];
}

const keyOf = (
  row: Pick<PageViewRow, 'period' | 'uid' | 'path' | 'via' | 'clientIp' | 'clientKind' | 'client'>,
): string =>
  `${row.period}\u0000${row.uid}\u0000${row.path}\u0000${row.via}\u0000${row.clientIp}\u0000${row.clientKind ?? ''}\u0000${row.client ?? ''}`;

/** A text[] value as PostgreSQL reads it: each element quoted, quotes and backslashes escaped. */
const arrayLiteral = (values: readonly string[]): string =>
  `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;

/**
 * Adds rows' counts to the stored rows of the same reader, page, way, address, client and
 * interval (made when missing), in one statement of thirteen parameters however many rows. Rows are sorted
 * by key, so two replicas adding to the same rows take their locks in the same order.
 */
export async function addPageViews(db: Pick<Database, 'query'>, rows: readonly PageViewRow[]): Promise<void> {
  if (rows.length === 0) return;
  const sorted = [...rows].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  const column = <T>(pick: (row: PageViewRow) => T): T[] => sorted.map(pick);
  await db.query(
    `insert into page_views (period, uid, email, groups, path, via, client_ip, first_at, last_at, count, demo,
       client_kind, client)
     select period, uid, email, groups::text[], path, via, client_ip, first_at, last_at, count, demo, client_kind, client
     from unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                 $8::timestamptz[], $9::timestamptz[], $10::int[], $11::boolean[], $12::text[], $13::text[])
       as batch(period, uid, email, groups, path, via, client_ip, first_at, last_at, count, demo, client_kind, client)
     on conflict (period, uid, path, via, client_ip, client_kind, client) do update set
       count = page_views.count + excluded.count,
       first_at = least(page_views.first_at, excluded.first_at),
       last_at = greatest(page_views.last_at, excluded.last_at)`,
    [
      column((row) => new Date(row.period).toISOString()),
      column((row) => row.uid),
      column((row) => row.email),
      column((row) => arrayLiteral(row.groups)),
      column((row) => row.path),
      column((row) => row.via),
      column((row) => row.clientIp),
      column((row) => new Date(row.firstAt).toISOString()),
      column((row) => new Date(row.lastAt).toISOString()),
      column((row) => row.count),
      column((row) => row.demo ?? false),
      column((row) => row.clientKind ?? ''),
      column((row) => row.client ?? ''),
    ],
  );
}

interface RawView {
  id: string | number;
  period: Date | string;
  uid: string;
  email: string | null;
  groups: string[];
  path: string;
  via: ViewChannel;
  client_ip: string;
  client_kind: ViewClient['kind'] | '';
  client: string;
  first_at: Date | string;
  last_at: Date | string;
  count: number;
  demo: boolean;
}

const toView = (raw: RawView): StoredPageView => ({
  id: String(raw.id),
  period: new Date(raw.period).getTime(),
  uid: raw.uid,
  email: raw.email,
  groups: raw.groups,
  path: raw.path,
  via: raw.via,
  clientIp: raw.client_ip,
  clientKind: raw.client_kind,
  client: raw.client,
  firstAt: new Date(raw.first_at).getTime(),
  lastAt: new Date(raw.last_at).getTime(),
  count: raw.count,
  demo: raw.demo,
});

export interface ViewFilter {
  /** A reader's e-mail (any case) or uid. */
  reader?: string;
  /** Rows whose first view is in [from, to). */
  from?: Date;
  to?: Date;
  /** Only rows after this place in the trail's order (newest first): a time, and a view's id when the place is a view. */
  after?: { at: number; view: bigint | null };
  limit: number;
}

/**
 * The newest rows that match, in the trail's order: the first view's time, newest first,
 * then id. A row of the trail is placed at its first view (so paging stays put while its
 * count grows); in one millisecond, views come before the other events.
 */
export async function queryPageViews(db: Pick<Database, 'query'>, filter: ViewFilter): Promise<StoredPageView[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown): string => `$${params.push(value)}`;
  if (filter.reader !== undefined)
    where.push(`(lower(email) = ${param(filter.reader.toLowerCase())} or uid = ${param(filter.reader)})`);
  if (filter.from) where.push(`first_at >= ${param(filter.from.toISOString())}::timestamptz`);
  if (filter.to) where.push(`first_at < ${param(filter.to.toISOString())}::timestamptz`);
  if (filter.after) {
    const millisecond = param(new Date(filter.after.at).toISOString());
    // After a view: the views of its millisecond with a smaller id; after an event: none of them.
    where.push(
      filter.after.view === null
        ? `first_at < ${millisecond}::timestamptz`
        : `(first_at < ${millisecond}::timestamptz or (first_at < ${param(new Date(filter.after.at + 1).toISOString())}::timestamptz and id < ${param(String(filter.after.view))}::bigint))`,
    );
  }
  const rows = await db.query<RawView>(
    `select * from page_views ${where.length > 0 ? `where ${where.join(' and ')}` : ''}
     order by first_at desc, id desc limit ${param(filter.limit)}`,
    params,
  );
  return rows.map(toView);
}

/** Deletes the rows whose views are all older than `cutoff`; returns how many views went. */
export async function deletePageViewsBefore(db: Pick<Database, 'query'>, cutoff: Date): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'with gone as (delete from page_views where last_at < $1::timestamptz returning count) select coalesce(sum(count), 0)::int as n from gone',
    [cutoff.toISOString()],
  );
  return row?.n ?? 0;
}

export interface PageViewLogOptions {
  /** Adds rows' counts to the database (addPageViews); throws when it could not (they are kept and retried). */
  write: (rows: PageViewRow[]) => Promise<void>;
  /** Most rows held while the database cannot be reached (AUDIT_QUEUE_LIMIT). */
  limit?: number;
  intervalMs?: number;
  maxBackoffMs?: number;
  log: {
    warn(object: Record<string, unknown>, message: string): void;
    info(object: Record<string, unknown>, message: string): void;
  };
  /** The clock (tests). */
  now?: () => number;
}

/**
 * Where the gate puts page views: `record` adds one to the row of its reader, page, way,
 * address and interval in memory; a timer adds what was gathered to the database, once a
 * second. Counts (queued, written, dropped) are in views.
 */
export class PageViewLog {
  private pending = new Map<string, PageViewRow>();
  private pendingViews = 0;
  /** Rows and views of the write under way: still queued until it is done. */
  private writingRows = 0;
  private writingViews = 0;
  private written = 0;
  private dropped = 0;
  private failedWrites = 0;
  private writing: Promise<void> | null = null;
  private following: Promise<void> | null = null;
  private retryAt = 0;
  private backoffMs = 0;
  private lastDropLog = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly now: () => number;

  constructor(private readonly options: PageViewLogOptions) {
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => void this.flush(), options.intervalMs ?? 1000);
    this.timer.unref();
  }

  /**
   * One view of `path` by `reader`, read by `via` (from `clientIp` when addresses are kept),
   * through `client` when an assistant read it.
   */
  record(
    reader: ViewReader,
    path: string,
    via: ViewChannel = 'page',
    clientIp: string | null = null,
    client: ViewClient | null = null,
  ): void {
    const at = this.now();
    const period = at - (at % VIEW_INTERVAL_MS);
    const clientKind = client?.kind ?? '';
    const clientName = client?.name ?? '';
    const key = keyOf({ period, uid: reader.uid, path, via, clientIp: clientIp ?? '', clientKind, client: clientName });
    const row = this.pending.get(key);
    if (row) {
      row.count += 1;
      if (at > row.lastAt) row.lastAt = at;
    } else {
      if (this.pending.size + this.writingRows >= (this.options.limit ?? 10_000)) return this.drop();
      this.pending.set(key, {
        period,
        uid: reader.uid,
        email: reader.email,
        groups: reader.groups,
        path,
        via,
        clientIp: clientIp ?? '',
        clientKind,
        client: clientName,
        firstAt: at,
        lastAt: at,
        count: 1,
      });
    }
    this.pendingViews += 1;
  }

  private drop(): void {
    this.dropped += 1;
    const now = this.now();
    if (now - this.lastDropLog > 10_000) {
      this.lastDropLog = now;
      this.options.log.warn(
        { recorder: 'page views', dropped: this.dropped, queued: this.pendingViews },
        'page view queue full while the database cannot be reached: views of new pages are dropped',
      );
    }
  }

  /** Writes what was gathered (unless a retry is not due yet); resolves when every view recorded before the call is written, or a write failed. */
  flush(force = false): Promise<void> {
    if (this.writing === null) {
      this.writing = this.write(force).finally(() => {
        this.writing = null;
      });
      return this.writing;
    }
    // A write is under way: the views recorded since go in the write after it.
    this.following ??= this.writing.then(() => {
      this.following = null;
      return this.flush(force);
    });
    return this.following;
  }

  private async write(force: boolean): Promise<void> {
    if (this.pending.size === 0 || (!force && this.now() < this.retryAt)) return;
    const batch = this.pending;
    const views = this.pendingViews;
    this.pending = new Map();
    this.pendingViews = 0;
    this.writingRows = batch.size;
    this.writingViews = views;
    try {
      await this.options.write([...batch.values()]);
    } catch (error) {
      this.writingRows = 0;
      this.writingViews = 0;
      // Put back, merged with what came in meanwhile.
      for (const [key, row] of batch) {
        const newer = this.pending.get(key);
        if (newer) {
          newer.count += row.count;
          newer.firstAt = Math.min(newer.firstAt, row.firstAt);
        } else this.pending.set(key, row);
      }
      this.pendingViews += views;
      this.failedWrites += 1;
      const max = this.options.maxBackoffMs ?? 30_000;
      this.backoffMs = Math.min(this.backoffMs === 0 ? 1000 : this.backoffMs * 2, max);
      this.retryAt = this.now() + this.backoffMs;
      if (this.failedWrites === 1 || this.backoffMs === max)
        this.options.log.warn(
          { recorder: 'page views', queued: this.pendingViews, err: (error as Error).message },
          'cannot write page views to the database; keeping them and retrying',
        );
      return;
    }
    this.writingRows = 0;
    this.writingViews = 0;
    this.written += views;
    if (this.backoffMs > 0) {
      this.options.log.info({ recorder: 'page views', dropped: this.dropped }, 'writing page views again');
      this.backoffMs = 0;
      this.retryAt = 0;
    }
  }

  get stats(): RecorderStats {
    return {
      queued: this.pendingViews + this.writingViews,
      written: this.written,
      dropped: this.dropped,
      failedWrites: this.failedWrites,
    };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush(true);
  }
}
