import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/**
 * The portal's store: PostgreSQL, either embedded (PGlite, PostgreSQL compiled to
 * WebAssembly, in a data folder: nothing to install) or a server (`DATABASE_URL`). Both
 * speak the same SQL, so the repositories and the migrations are written once.
 */
export interface Database {
  readonly kind: 'pglite' | 'postgres';
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction: all of it or none of it. */
  transaction<T>(work: (tx: Pick<Database, 'query'>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export type DatabaseConfig = { kind: 'pglite'; dataDir: string | null } | { kind: 'postgres'; url: string };

/**
 * PGlite keeps no lock of its own, and two processes writing one data folder would corrupt
 * it: the folder is claimed with a lock file naming the process, and a second portal is
 * refused at start with a message saying what to do. A lock left by a process that has
 * ended is taken over.
 */
function claimDataDir(dataDir: string): () => void {
  const lock = join(dataDir, 'portal.lock');
  try {
    const holder = Number(readFileSync(lock, 'utf8').trim());
    if (Number.isInteger(holder) && holder !== process.pid) {
      let alive = true;
      try {
        process.kill(holder, 0);
      } catch {
        alive = false;
      }
      if (alive)
        throw new Error(
          `the data folder ${dataDir} is in use by another portal (process ${holder}); stop it, or give this one its own DATA_DIR`,
        );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  writeFileSync(lock, String(process.pid));
  return () => rmSync(lock, { force: true });
}

class PGliteDatabase implements Database {
  readonly kind = 'pglite';
  constructor(
    private readonly db: PGlite,
    private readonly release: () => void = () => undefined,
  ) {}

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.db.query<Row>(sql, [...params])).rows;
  }

  transaction<T>(work: (tx: Pick<Database, 'query'>) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) =>
      work({
        query: async <Row>(sql: string, params: readonly unknown[] = []) =>
          (await tx.query<Row>(sql, [...params])).rows,
      }),
    );
  }

  async close(): Promise<void> {
    await this.db.close();
    this.release();
  }
}

class PostgresDatabase implements Database {
  readonly kind = 'postgres';
  constructor(private readonly pool: pg.Pool) {}

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.pool.query(sql, [...params])).rows as Row[];
  }

  async transaction<T>(work: (tx: Pick<Database, 'query'>) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('begin');
      const result = await work({
        query: async <Row>(sql: string, params: readonly unknown[] = []) =>
          (await client.query(sql, [...params])).rows as Row[],
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
  if (config.dataDir === null) return new PGliteDatabase(await PGlite.create());
  mkdirSync(config.dataDir, { recursive: true });
  const release = claimDataDir(config.dataDir);
  try {
    return new PGliteDatabase(await PGlite.create(config.dataDir), release);
  } catch (error) {
    release();
    throw error;
  }
}
