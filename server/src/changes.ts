import type { Database } from './db/database.js';
import { oneAtATime } from './one-at-a-time.js';
import type { SharedState, SharedSubject } from './shared.js';

/** How often a replica reads the feed with no hint: the longest a lost message delays a change. */
export const CHANGE_POLL_MS = 500;

/** How long events are kept: far longer than any replica may go without reading the feed and still serve. */
const KEEP_MS = 60 * 60_000;
const SWEEP_EVERY_MS = 10 * 60_000;

/** Events read at once; more wait for the next read, which follows at once. */
const BATCH = 500;

interface Cursor {
  tx: string;
  seq: number;
}

/**
 * The change feed (migration 015): every broadcast, and every change of the access data (a
 * trigger, in the change's own transaction), as a row of `change_events`. Each replica reads
 * the rows it has not seen every CHANGE_POLL_MS, and at once when Redis hints that one was
 * kept, and hands each to its listeners (the shared state's); its own are skipped, as its
 * listeners had them when they were made.
 *
 * Rows are read in the order of their transaction ids, and only below the oldest transaction
 * still running (`pg_snapshot_xmin`): a row whose transaction commits after a later one's is
 * therefore never passed over, as reading by `seq` alone would.
 */
export class ChangeFeed {
  private cursor: Cursor | null = null;
  private readonly own = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private lastSweep = 0;
  private closed = false;
  /** Reads that failed since start (its warnings are every twentieth). */
  private failures = 0;

  constructor(
    private readonly options: {
      db: Database;
      shared: SharedState;
      log: { warn(object: Record<string, unknown>, message: string): void };
      pollMs?: number;
    },
  ) {}

  /**
   * Starts after what is committed now (what the replica loads next already includes it), keeps
   * every later broadcast in the feed, and reads on.
   */
  async start(): Promise<void> {
    const [{ xmin }] = (await this.options.db.query<{ xmin: string }>(
      'select pg_snapshot_xmin(pg_current_snapshot())::text as xmin',
    )) as [{ xmin: string }];
    this.cursor = { tx: xmin, seq: -1 };
    this.options.shared.useFeed((subject) => this.append(subject));
    this.options.shared.onHint(() => void this.read());
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.read().finally(() => this.schedule());
    }, this.options.pollMs ?? CHANGE_POLL_MS);
    this.timer.unref();
  }

  private async append(subject: SharedSubject): Promise<number> {
    const [row] = (await this.options.db.query<{ seq: string }>(
      'insert into change_events (subject) values ($1) returning seq',
      [subject],
    )) as [{ seq: string }];
    const seq = Number(row.seq);
    this.own.add(seq);
    return seq;
  }

  /** Reads what is new now; a read asked for while one runs follows it. */
  readonly read = oneAtATime(() => this.readOnce());

  /** One batch; true when there may be more. */
  private async readOnce(): Promise<boolean> {
    if (this.closed || !this.cursor) return false;
    let rows: { seq: string; tx: string; subject: SharedSubject }[];
    try {
      rows = await this.options.db.query(
        `select seq, tx::text as tx, subject from change_events
          where (tx, seq) > ($1::xid8, $2::bigint) and tx < pg_snapshot_xmin(pg_current_snapshot())
          order by tx, seq limit ${BATCH}`,
        [this.cursor.tx, this.cursor.seq],
      );
    } catch (error) {
      this.failures += 1;
      if (this.failures === 1 || this.failures % 20 === 0)
        this.options.log.warn({ err: (error as Error).message }, 'could not read the change feed; trying again');
      return false;
    }
    // A batch names the access data once, however many of its rows changed it.
    let access: SharedSubject | null = null;
    for (const row of rows) {
      const seq = Number(row.seq);
      this.cursor = { tx: row.tx, seq };
      if (this.own.delete(seq)) continue;
      if (row.subject.access !== undefined && Object.keys(row.subject).length === 1) access = row.subject;
      else this.options.shared.deliver(row.subject);
    }
    if (access) this.options.shared.deliver(access);
    await this.sweep();
    return rows.length === BATCH;
  }

  private async sweep(): Promise<void> {
    if (Date.now() - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = Date.now();
    await this.options.db
      .query(`delete from change_events where at < now() - interval '${KEEP_MS / 1000} seconds'`)
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    // Waits for a read that runs; once closed, a read reads nothing.
    await this.read();
  }
}
