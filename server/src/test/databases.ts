import { randomBytes } from 'node:crypto';

import pg from 'pg';
import { inject } from 'vitest';

import { openDatabase, type Database } from '../db/database.js';

export type DatabaseKind = 'pglite' | 'postgres';

/**
 * An empty database of a test's own: an in-memory PGlite, or a new database on the test
 * run's PostgreSQL cluster, so test files running side by side never see each other's rows.
 */
export async function freshDatabase(kind: DatabaseKind): Promise<Database> {
  if (kind === 'pglite') return openDatabase({ kind: 'pglite', dataDir: null });
  return openDatabase({ kind: 'postgres', url: await freshPostgresUrl() });
}

/** The URL of a new, empty database on the test run's PostgreSQL cluster (for tests that connect more than once). */
export async function freshPostgresUrl(): Promise<string> {
  const base = inject('postgresUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return base.replace(/\/[^/]+$/, `/${name}`);
}
