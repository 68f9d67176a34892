import { mkdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

import pg from 'pg';
import lockfile from 'proper-lockfile';

/**
 * The portal's store: PostgreSQL, either embedded (PGlite, PostgreSQL compiled to
 * WebAssembly, in a data folder: nothing to install) or a server (`DATABASE_URL`). Both
 * speak the same SQL, so the repositories and the migrations are written once.
 */
export interface Database {
  readonly kind: 'pglite' | 'postgres';
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction: all of it or none of it. */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * Runs `work` while this process holds the lock `key` alone among every process on the
   * database (a PostgreSQL advisory lock on a connection of its own; PGlite has one process).
   * The database is free for other queries meanwhile.
   */
  exclusive<T>(key: number, work: () => Promise<T>): Promise<T>;
  /** Runs a script of several statements with no parameters; the rows of all of them, in order (pg-boss's own SQL). */
  script<Row = Record<string, unknown>>(sql: string): Promise<Row[]>;
  /**
   * Appends rows (a value per column: text, null, boolean, Date, text[] or a JSON object)
   * where the store can do it cheaper than INSERT: PGlite's COPY, formatted in its thread.
   * `pg` has no COPY of its own, so on a PostgreSQL server bulk writes use INSERT.
   */
  copy?(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void>;
  close(): Promise<void>;
}

/** What a transaction can do: queries, and scripts of several statements (the migrations). */
export interface Transaction extends Pick<Database, 'query'> {
  exec(script: string): Promise<void>;
}

export type DatabaseConfig = { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string };

/** How long a data folder's lock lives without being renewed: a portal killed outright frees its folder after this. */
const LOCK_STALE_MS = 10_000;

/**
 * PGlite keeps no lock of its own, and two processes writing one data folder would corrupt
 * it: the folder is claimed with a lock (`proper-lockfile`: a directory beside it, renewed
 * while the process lives, removed at exit), and a second portal is refused at start with a
 * message saying what to do.
 */
function claimDataDir(dataDir: string): () => void {
  let release: () => void;
  let released = false;
  try {
    release = lockfile.lockSync(dataDir, {
      stale: LOCK_STALE_MS,
      // Losing the lock (the process stalled past the stale time and another took the folder) must not go on
      // writing; after our own release, a renewal still under way reports the lock gone, which is no loss.
      onCompromised: (error) => {
        if (!released) throw new Error(`lost the lock on the data folder ${dataDir}: ${error.message}`);
      },
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
    throw new Error(
      `the data folder ${dataDir} is in use by another portal; stop it, or give this one its own DATA_DIR (a portal that was killed frees it within ${LOCK_STALE_MS / 1000} s)`,
    );
  }
  return () => {
    released = true;
    try {
      release();
    } catch {
      // Already released, or lost (said when it was lost): nothing left to free.
    }
  };
}

/** A query that failed in the database thread, with PostgreSQL's fields (code, detail, constraint). */
export class DatabaseError extends Error {
  code?: string;
  detail?: string;
  constraint?: string;
  severity?: string;
}

type Answer = {
  id: number;
  error?: Record<string, string | undefined>;
  rows?: unknown[];
  tx?: number;
  ready?: boolean;
};

/**
 * PGlite in a thread of its own (pglite-worker.mjs). PGlite runs in the thread that calls
 * it, and a write costs it some ten microseconds a row: on the thread that answers
 * requests, recording every page view cost half the gate's throughput. Here the request
 * thread only hands the rows over; queries, transactions and errors behave as before.
 */
class PGliteDatabase implements Database {
  readonly kind = 'pglite';
  private readonly pending = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private stopped: Error | null = null;

  private constructor(
    private readonly worker: Worker,
    private readonly release: () => void,
  ) {
    worker.on('message', (answer: Answer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if (this.pending.size === 0) worker.unref();
      if (answer.error) waiting.reject(Object.assign(new DatabaseError(answer.error.message), answer.error));
      else waiting.resolve(answer);
    });
    const stop = (error: Error): void => {
      this.stopped ??= error;
      for (const waiting of this.pending.values()) waiting.reject(this.stopped);
      this.pending.clear();
    };
    worker.on('error', stop);
    worker.on('exit', (code) => stop(new Error(`the database thread stopped (exit code ${code})`)));
    worker.unref();
  }

  /** Starts the thread and waits until PGlite has opened the folder (or memory, for null). */
  static open(dataDir: string | null, release: () => void = () => undefined): Promise<PGliteDatabase> {
    const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir } });
    return new Promise((resolve, reject) => {
      const failed = (error: Error): void => {
        void worker.terminate();
        reject(error);
      };
      worker.once('error', failed);
      worker.once('message', (answer: Answer) => {
        worker.off('error', failed);
        if (answer.ready) resolve(new PGliteDatabase(worker, release));
        else failed(Object.assign(new DatabaseError(answer.error?.message ?? 'PGlite did not start'), answer.error));
      });
    });
  }

  private ask(request: Record<string, unknown>): Promise<Answer> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...request });
    });
  }

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.ask({ type: 'query', sql, params })).rows as Row[];
  }

  async script<Row>(sql: string): Promise<Row[]> {
    return (await this.ask({ type: 'exec', sql })).rows as Row[];
  }

  private readonly locks = new Map<number, Promise<unknown>>();

  async exclusive<T>(key: number, work: () => Promise<T>): Promise<T> {
    // One process holds the data folder: a queue per key in it is the whole lock.
    const before = this.locks.get(key) ?? Promise.resolve();
    const run = before.then(work, work);
    const settled = run.catch(() => undefined);
    this.locks.set(key, settled);
    try {
      return await run;
    } finally {
      if (this.locks.get(key) === settled) this.locks.delete(key);
    }
  }

  async copy(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void> {
    await this.ask({ type: 'copy', table, columns, rows });
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const { tx } = await this.ask({ type: 'begin' });
    let result: T;
    try {
      result = await work({
        query: async <Row>(sql: string, params: readonly unknown[] = []) =>
          (await this.ask({ type: 'query', sql, params, tx })).rows as Row[],
        exec: async (script: string) => void (await this.ask({ type: 'exec', sql: script, tx })),
      });
    } catch (error) {
      await this.ask({ type: 'end', tx, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.ask({ type: 'end', tx, commit: true });
    return result;
  }

  async close(): Promise<void> {
    try {
      if (!this.stopped) await this.ask({ type: 'close' });
    } finally {
      await this.worker.terminate();
      this.release();
    }
  }
}

class PostgresDatabase implements Database {
  readonly kind = 'postgres';
  constructor(private readonly pool: pg.Pool) {}

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.pool.query(sql, [...params])).rows as Row[];
  }

  async exclusive<T>(key: number, work: () => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [key]);
    } catch (error) {
      client.release(true);
      throw error;
    }
    try {
      return await work();
    } finally {
      // A connection whose unlock failed is dropped, and its lock with it.
      await client.query('select pg_advisory_unlock($1)', [key]).then(
        () => client.release(),
        () => client.release(true),
      );
    }
  }

  async script<Row>(sql: string): Promise<Row[]> {
    const client = await this.pool.connect();
    try {
      // Without parameters pg sends the simple query protocol: one result per statement.
      const results = (await client.query(sql)) as unknown as pg.QueryResult | pg.QueryResult[];
      return (Array.isArray(results) ? results : [results]).flatMap((result) => result.rows ?? []) as Row[];
    } catch (error) {
      // A script's own BEGIN that failed midway: the connection goes back to the pool out of it.
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const result = await work({
        query: async <Row>(sql: string, params: readonly unknown[] = []) =>
          (await client.query(sql, [...params])).rows as Row[],
        // Without parameters pg sends the simple query protocol, which runs several statements.
        exec: async (script: string) => void (await client.query(script)),
      });
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** Opens the store; a PostgreSQL server is connected to lazily, so a down server does not stop the start. */
export async function openDatabase(config: DatabaseConfig): Promise<Database> {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: config.url,
      max: 5,
      connectionTimeoutMillis: 3000,
      // Idle clients of a server that went away are dropped, not reused.
      idleTimeoutMillis: 10_000,
    });
    // A server that restarts ends idle connections; the pool reports it here instead of crashing the process.
    pool.on('error', () => undefined);
    return new PostgresDatabase(pool);
  }
  if (config.dataDir === null) return PGliteDatabase.open(null);
  mkdirSync(config.dataDir, { recursive: true });
  const release = claimDataDir(config.dataDir);
  try {
    return await PGliteDatabase.open(config.dataDir, release);
  } catch (error) {
    release();
    throw error;
  }
}
