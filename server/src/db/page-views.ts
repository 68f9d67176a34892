import type { Database } from './database.js';
import { EventRecorder, type RecorderOptions, type RecorderStats } from './recorder.js';

/**
 * Page views, the bulk of the audit trail (one per private page answered), kept in blocks.
 *
 * A row per view cost the gate a quarter of its throughput: an event object, a copy to the
 * database thread and some seven microseconds of PGlite per row. Here a view is three
 * numbers written into typed arrays on the request thread (when, which reader, which page);
 * once a second, or at 4,096 views, they are sealed into one block: the block's readers and
 * pages once each, and per view 8 bytes (milliseconds after the block's first view, and
 * the reader's and the page's place in those lists). A block is one row of
 * `page_view_blocks`, written with a binary COPY on PGlite and one INSERT on a server.
 * The trail and the insights read the blocks back view by view; nothing of a view is lost
 * (reader, e-mail, groups, page, time to the millisecond). An hourly compaction merges the
 * small blocks of quiet hours, so a quiet portal does not keep a row per view either.
 *
 * Views that carry more (an agent's token, a client address) stay rows of `audit_events`.
 */

/** Who read: the session's reader, as the gate knows it. */
export interface ViewReader {
  readonly uid: string;
  readonly email: string | null;
  readonly groups: readonly string[];
}

/** One block as it is stored: the views in time order. */
export interface PageViewBlock {
  /** Time of the first view and of the last, in milliseconds since 1970. */
  firstAt: number;
  lastAt: number;
  count: number;
  /** [uid, e-mail, groups] of each reader in the block. */
  readers: [string, string | null, string[]][];
  pages: string[];
  /** Per view, little-endian: uint32 milliseconds after firstAt, uint16 reader, uint16 page. */
  views: Uint8Array;
}

/** One view read back from a block. */
export interface PageView {
  block: string;
  /** Place in the block, from 1. */
  n: number;
  at: number;
  uid: string;
  email: string | null;
  groups: string[];
  path: string;
}

/**
 * Most views in one block. The views of the open block count against the recorder's
 * queue limit (AUDIT_QUEUE_LIMIT, 10,000 by default) along with the blocks being written,
 * so a block must stay well below it: at 16,384 the open block reached the limit within a
 * second under load and views were dropped with the database up.
 */
export const BLOCK_CAPACITY = 4096;
const BYTES_PER_VIEW = 8;
/** Process-local reader and page numbers are forgotten past this many (sessions come and go). */
const INTERN_LIMIT = 20_000;

const COLUMNS = ['first_at', 'last_at', 'count', 'readers', 'pages', 'views'] as const;

/** Seals views into blocks (views of a list of readers and pages, each numbered locally). */
export function sealBlock(
  at: Float64Array,
  readerOf: Int32Array,
  pageOf: Int32Array,
  count: number,
  readers: readonly ViewReader[],
  pages: readonly string[],
): PageViewBlock {
  const readerPlace = new Int32Array(readers.length).fill(-1);
  const pagePlace = new Int32Array(pages.length).fill(-1);
  const blockReaders: PageViewBlock['readers'] = [];
  const blockPages: string[] = [];
  const firstAt = at[0] ?? 0;
  const views = new Uint8Array(count * BYTES_PER_VIEW);
  const data = new DataView(views.buffer);
  let lastAt = firstAt;
  for (let i = 0; i < count; i++) {
    const r = readerOf[i] as number;
    const p = pageOf[i] as number;
    let readerIndex = readerPlace[r] as number;
    if (readerIndex < 0) {
      const reader = readers[r] as ViewReader;
      readerIndex = readerPlace[r] = blockReaders.push([reader.uid, reader.email, [...reader.groups]]) - 1;
    }
    let pageIndex = pagePlace[p] as number;
    if (pageIndex < 0) pageIndex = pagePlace[p] = blockPages.push(pages[p] as string) - 1;
    const time = at[i] as number;
    if (time > lastAt) lastAt = time;
    data.setUint32(i * BYTES_PER_VIEW, Math.max(0, time - firstAt), true);
    data.setUint16(i * BYTES_PER_VIEW + 4, readerIndex, true);
    data.setUint16(i * BYTES_PER_VIEW + 6, pageIndex, true);
  }
  return { firstAt, lastAt, count, readers: blockReaders, pages: blockPages, views };
}

/** Calls `each` for every view of a block, in the block's order, without making objects. */
export function forEachView(
  block: Pick<PageViewBlock, 'firstAt' | 'count' | 'views'>,
  each: (at: number, reader: number, page: number, n: number) => void,
): void {
  const data = new DataView(block.views.buffer, block.views.byteOffset, block.views.byteLength);
  const count = Math.min(block.count, Math.floor(block.views.byteLength / BYTES_PER_VIEW));
  for (let i = 0; i < count; i++)
    each(
      block.firstAt + data.getUint32(i * BYTES_PER_VIEW, true),
      data.getUint16(i * BYTES_PER_VIEW + 4, true),
      data.getUint16(i * BYTES_PER_VIEW + 6, true),
      i + 1,
    );
}

/** Builds one block from views in any order (the compaction's merge; tests). */
export function blockOf(views: readonly { at: number; reader: ViewReader; path: string }[]): PageViewBlock {
  const sorted = [...views].sort((a, b) => a.at - b.at);
  const readers: ViewReader[] = [];
  const readerKeys = new Map<string, number>();
  const pages: string[] = [];
  const pageKeys = new Map<string, number>();
  const at = new Float64Array(sorted.length);
  const readerOf = new Int32Array(sorted.length);
  const pageOf = new Int32Array(sorted.length);
  sorted.forEach((view, i) => {
    const key = JSON.stringify([view.reader.uid, view.reader.email, view.reader.groups]);
    let r = readerKeys.get(key);
    if (r === undefined) readerKeys.set(key, (r = readers.push(view.reader) - 1));
    let p = pageKeys.get(view.path);
    if (p === undefined) pageKeys.set(view.path, (p = pages.push(view.path) - 1));
    at[i] = view.at;
    readerOf[i] = r;
    pageOf[i] = p;
  });
  return sealBlock(at, readerOf, pageOf, sorted.length, readers, pages);
}

// PostgreSQL's binary COPY format: a signature, a tuple per row (field count, then each
// field's length and bytes, big-endian), and a trailer.
const COPY_SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);

function copyBinary(blocks: readonly PageViewBlock[]): Uint8Array {
  const rows = blocks.map((block) => ({
    block,
    readers: Buffer.from(JSON.stringify(block.readers)),
    pages: Buffer.from(JSON.stringify(block.pages)),
  }));
  let length = COPY_SIGNATURE.length + 8 + 2;
  // Per row: field count, then six lengths: two timestamps (8), an int4 (4), two jsonb
  // (a version byte and the text) and the views.
  for (const row of rows)
    length += 2 + 6 * 4 + 8 + 8 + 4 + (1 + row.readers.length) + (1 + row.pages.length) + row.block.views.length;
  const out = Buffer.alloc(length);
  let at = COPY_SIGNATURE.copy(out, 0);
  at = out.writeInt32BE(0, at);
  at = out.writeInt32BE(0, at);
  const timestamp = (ms: number): void => {
    at = out.writeInt32BE(8, at);
    at = out.writeBigInt64BE(BigInt(Math.round(ms - POSTGRES_EPOCH_MS)) * 1000n, at);
  };
  const bytes = (value: Uint8Array, version?: number): void => {
    at = out.writeInt32BE(value.length + (version === undefined ? 0 : 1), at);
    if (version !== undefined) at = out.writeUInt8(version, at);
    out.set(value, at);
    at += value.length;
  };
  for (const { block, readers, pages } of rows) {
    at = out.writeInt16BE(COLUMNS.length, at);
    timestamp(block.firstAt);
    timestamp(block.lastAt);
    at = out.writeInt32BE(4, at);
    at = out.writeInt32BE(block.count, at);
    bytes(readers, 1);
    bytes(pages, 1);
    bytes(block.views);
  }
  out.writeInt16BE(-1, at);
  return out;
}

/**
 * Writes blocks in one statement: a binary COPY on PGlite (the views' bytes go in as they
 * are, nothing parsed), an INSERT of six parameters per block on a PostgreSQL server (`pg`
 * sends the views as binary too).
 */
export async function insertPageViewBlocks(
  db: Pick<Database, 'query' | 'copyBinary'>,
  blocks: readonly PageViewBlock[],
): Promise<void> {
  if (blocks.length === 0) return;
  if (db.copyBinary) return db.copyBinary('page_view_blocks', COLUMNS, copyBinary(blocks));
  const params: unknown[] = [];
  const rows = blocks.map((block) => {
    const first = params.length;
    params.push(
      new Date(block.firstAt).toISOString(),
      new Date(block.lastAt).toISOString(),
      block.count,
      JSON.stringify(block.readers),
      JSON.stringify(block.pages),
      Buffer.from(block.views.buffer, block.views.byteOffset, block.views.byteLength),
    );
    return `($${first + 1}::timestamptz, $${first + 2}::timestamptz, $${first + 3}::int, $${first + 4}::jsonb, $${first + 5}::jsonb, $${first + 6}::bytea)`;
  });
  await db.query(`insert into page_view_blocks (${COLUMNS.join(', ')}) values ${rows.join(', ')}`, params);
}

interface RawBlock {
  id: string | number;
  first_at: Date | string;
  last_at: Date | string;
  count: number;
  readers: PageViewBlock['readers'] | string;
  pages: string[] | string;
  views: string;
}

/** A stored block with its id, the views' bytes decoded from base64 (what PGlite hands over fastest). */
export interface StoredBlock extends PageViewBlock {
  id: string;
}

const BLOCK_COLUMNS = `id, first_at, last_at, count, readers, pages, encode(views, 'base64') as views`;

function toBlock(raw: RawBlock): StoredBlock {
  return {
    id: String(raw.id),
    firstAt: new Date(raw.first_at).getTime(),
    lastAt: new Date(raw.last_at).getTime(),
    count: raw.count,
    readers: typeof raw.readers === 'string' ? (JSON.parse(raw.readers) as PageViewBlock['readers']) : raw.readers,
    pages: typeof raw.pages === 'string' ? (JSON.parse(raw.pages) as string[]) : raw.pages,
    views: Buffer.from(raw.views.replace(/\n/g, ''), 'base64'),
  };
}

/** The blocks with views in [from, to). */
export async function blocksBetween(db: Pick<Database, 'query'>, from: Date, to: Date): Promise<StoredBlock[]> {
  const rows = await db.query<RawBlock>(
    `select ${BLOCK_COLUMNS} from page_view_blocks where last_at >= $1::timestamptz and first_at < $2::timestamptz order by first_at, id`,
    [from.toISOString(), to.toISOString()],
  );
  return rows.map(toBlock);
}

export interface ViewFilter {
  /** A reader's e-mail (any case) or uid. */
  reader?: string;
  from?: Date;
  to?: Date;
  /** Only views that come after this one in the trail's order (newest first). */
  after?: { at: number; view: { block: bigint; n: number } | null };
  limit: number;
}

/** The trail's order, newest first: time, then a block's views before other events of the same millisecond, then block and place. */
export function compareViews(a: PageView, b: PageView): number {
  return b.at - a.at || Number(BigInt(b.block) - BigInt(a.block)) || b.n - a.n;
}

/**
 * The newest views that match, in the trail's order: blocks are read newest first, a few
 * at a time (more each round), until no block still unread can hold a view newer than
 * the `limit`-th found.
 */
export async function queryPageViews(db: Pick<Database, 'query'>, filter: ViewFilter): Promise<PageView[]> {
  const reader = filter.reader;
  const email = reader?.toLowerCase();
  const from = filter.from?.getTime() ?? -Infinity;
  const to = filter.to?.getTime() ?? Infinity;
  const after = filter.after;
  const found: PageView[] = [];
  let chunk = 16;
  let edge: { lastAt: string; id: string } | null = null;
  for (;;) {
    const params: unknown[] = [];
    const where: string[] = [];
    const param = (value: unknown): string => `$${params.push(value)}`;
    if (filter.from) where.push(`last_at >= ${param(filter.from.toISOString())}::timestamptz`);
    if (filter.to) where.push(`first_at < ${param(filter.to.toISOString())}::timestamptz`);
    if (after) where.push(`first_at <= ${param(new Date(after.at).toISOString())}::timestamptz`);
    if (edge) where.push(`(last_at, id) < (${param(edge.lastAt)}::timestamptz, ${param(edge.id)}::bigint)`);
    const rows = await db.query<RawBlock & { last_at_text: string }>(
      `select ${BLOCK_COLUMNS}, last_at::text as last_at_text from page_view_blocks
       ${where.length > 0 ? `where ${where.join(' and ')}` : ''} order by last_at desc, id desc limit ${chunk}`,
      params,
    );
    for (const raw of rows) {
      const readers =
        typeof raw.readers === 'string' ? (JSON.parse(raw.readers) as PageViewBlock['readers']) : raw.readers;
      const wanted = readers.map(
        ([uid, mail]) => reader === undefined || uid === reader || (mail !== null && mail.toLowerCase() === email),
      );
      // A block without the reader asked for: its views are not even decoded.
      if (!wanted.includes(true)) continue;
      const block = toBlock({ ...raw, readers });
      const id = BigInt(block.id);
      forEachView(block, (at, r, p, n) => {
        if (!wanted[r] || at < from || at >= to) return;
        if (after) {
          if (at > after.at) return;
          // The same millisecond: views come before the cursor's event only if it is a view placed later.
          if (
            at === after.at &&
            (after.view === null || id > after.view.block || (id === after.view.block && n >= after.view.n))
          )
            return;
        }
        const [uid, mail, groups] = block.readers[r] as PageViewBlock['readers'][number];
        found.push({ block: block.id, n, at, uid, email: mail, groups, path: block.pages[p] as string });
      });
    }
    const last = rows.at(-1);
    if (rows.length < chunk || !last) break;
    edge = { lastAt: last.last_at_text, id: String(last.id) };
    const edgeAt = new Date(last.last_at).getTime();
    // Blocks still unread hold views no newer than edgeAt.
    if (found.filter((view) => view.at > edgeAt).length >= filter.limit) break;
    chunk = Math.min(chunk * 4, 1024);
  }
  return found.sort(compareViews).slice(0, filter.limit);
}

/** Deletes the blocks whose views are all older than `cutoff`; returns how many views went. */
export async function deletePageViewsBefore(db: Pick<Database, 'query'>, cutoff: Date): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    'with gone as (delete from page_view_blocks where last_at < $1::timestamptz returning count) select coalesce(sum(count), 0)::int as n from gone',
    [cutoff.toISOString()],
  );
  return row?.n ?? 0;
}

/**
 * Merges the small blocks of each hour that has ended into as few blocks as hold them: a
 * quiet portal seals a block of a view or two a second, and would otherwise keep nearly a
 * row per view. Each hour is merged in one transaction (all of its blocks or none). Returns
 * the blocks it read and wrote.
 */
export async function compactPageViews(
  db: Pick<Database, 'query' | 'transaction'>,
  now = new Date(),
): Promise<{ read: number; written: number }> {
  const hours = await db.query<{ hour: Date | string }>(
    `select date_trunc('hour', first_at) as hour from page_view_blocks
     where count < ${BLOCK_CAPACITY / 4} and last_at < date_trunc('hour', $1::timestamptz)
     group by 1 having count(*) > 1 order by 1 limit 200`,
    [now.toISOString()],
  );
  let read = 0;
  let written = 0;
  for (const { hour } of hours) {
    const start = new Date(hour);
    await db.transaction(async (tx) => {
      const raws = await tx.query<RawBlock>(
        `delete from page_view_blocks
         where count < ${BLOCK_CAPACITY / 4} and first_at >= $1::timestamptz and first_at < $1::timestamptz + interval '1 hour'
         returning ${BLOCK_COLUMNS}`,
        [start.toISOString()],
      );
      const views: { at: number; reader: ViewReader; path: string }[] = [];
      for (const block of raws.map(toBlock))
        forEachView(block, (at, r, p) => {
          const [uid, email, groups] = block.readers[r] as PageViewBlock['readers'][number];
          views.push({ at, reader: { uid, email, groups }, path: block.pages[p] as string });
        });
      views.sort((a, b) => a.at - b.at);
      const merged: PageViewBlock[] = [];
      for (let i = 0; i < views.length; i += BLOCK_CAPACITY) merged.push(blockOf(views.slice(i, i + BLOCK_CAPACITY)));
      await insertPageViewBlocks(tx, merged);
      read += raws.length;
      written += merged.length;
    });
  }
  return { read, written };
}

/**
 * Where the gate puts page views: `record` writes three numbers into typed arrays (no
 * object, nothing for the garbage collector); a block is sealed at 4,096 views or by the
 * timer, and handed to an EventRecorder, which writes blocks off the request path, keeps
 * them while the database cannot be reached and counts what it had to drop, in views.
 */
export class PageViewLog {
  private at = new Float64Array(BLOCK_CAPACITY);
  private readerOf = new Int32Array(BLOCK_CAPACITY);
  private pageOf = new Int32Array(BLOCK_CAPACITY);
  private count = 0;
  private readers: ViewReader[] = [];
  private readerNumbers = new WeakMap<ViewReader, number>();
  private pages: string[] = [];
  private pageNumbers = new Map<string, number>();
  private readonly recorder: EventRecorder<PageViewBlock>;
  private readonly timer: NodeJS.Timeout;
  /** Views at which the open block is sealed: never more than the queue's limit, so a small limit still lets views through. */
  private readonly sealAt: number;

  constructor(
    options: Omit<RecorderOptions<PageViewBlock>, 'write' | 'size' | 'batchSize'> & {
      write: (blocks: PageViewBlock[]) => Promise<void>;
    },
  ) {
    this.recorder = new EventRecorder<PageViewBlock>({
      ...options,
      size: (block) => block.count,
      // A block is a statement of its own, written as soon as it is sealed.
      batchSize: 1,
      // The log's own timer seals, then writes.
      intervalMs: 3_600_000,
    });
    this.sealAt = Math.min(BLOCK_CAPACITY, options.limit ?? BLOCK_CAPACITY);
    const interval = options.intervalMs ?? 1000;
    this.timer = setInterval(() => {
      this.seal();
      void this.recorder.flush();
    }, interval);
    this.timer.unref();
  }

  /** One view of `path` by `reader` (the same object for a cached session: numbered once). */
  record(reader: ViewReader, path: string): void {
    if (this.recorder.full(this.count + 1)) return this.recorder.drop(1);
    let r = this.readerNumbers.get(reader);
    if (r === undefined) {
      r = this.readers.push(reader) - 1;
      this.readerNumbers.set(reader, r);
    }
    let p = this.pageNumbers.get(path);
    if (p === undefined) {
      p = this.pages.push(path) - 1;
      this.pageNumbers.set(path, p);
    }
    const i = this.count++;
    this.at[i] = Date.now();
    this.readerOf[i] = r;
    this.pageOf[i] = p;
    if (this.count >= this.sealAt) this.seal();
  }

  private seal(): void {
    if (this.count > 0) {
      const block = sealBlock(this.at, this.readerOf, this.pageOf, this.count, this.readers, this.pages);
      this.count = 0;
      this.recorder.record(block);
    }
    if (this.readers.length > INTERN_LIMIT || this.pages.length > INTERN_LIMIT) {
      this.readers = [];
      this.readerNumbers = new WeakMap();
      this.pages = [];
      this.pageNumbers = new Map();
    }
  }

  /** Seals what is open and writes what is queued. */
  flush(force = false): Promise<void> {
    this.seal();
    return this.recorder.flush(force);
  }

  get stats(): RecorderStats {
    const stats = this.recorder.stats;
    return { ...stats, queued: stats.queued + this.count };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.seal();
    await this.recorder.close();
  }
}
