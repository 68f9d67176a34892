import { fileURLToPath } from 'node:url';

import Postgrator from 'postgrator';

import type { Database, Transaction } from './database.js';

/**
 * The schema, one step a file in `migrations/` (`NNN.do.what-it-does.sql`), for PGlite and
 * PostgreSQL alike. A step, once released, is never edited (postgrator checks each applied
 * file's checksum): add the next one.
 */
export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

/** The table postgrator keeps the applied steps in. */
const VERSION_TABLE = 'schema_version';

/** The advisory lock every replica takes to migrate: one migrates, the others wait and then find nothing to do. */
const MIGRATION_LOCK = 727_365_001;

export interface MigrationReport {
  from: number;
  to: number;
  applied: string[];
}

function migrator(tx: Transaction): Postgrator {
  return new Postgrator({
    driver: 'pg',
    migrationPattern: `${MIGRATIONS_DIR}*.sql`,
    schemaTable: VERSION_TABLE,
    execQuery: async (sql) => ({ rows: await tx.query(sql) }),
    execSqlScript: (sql) => tx.exec(sql),
  });
}

/** The steps on disk, oldest first (`1 audit-trail`, …). */
export async function listMigrations(): Promise<{ version: number; name: string }[]> {
  const steps = await new Postgrator({
    driver: 'pg',
    migrationPattern: `${MIGRATIONS_DIR}*.sql`,
    execQuery: () => Promise.reject(new Error('listing only')),
  }).getMigrations();
  return steps
    .filter((step) => step.action === 'do')
    .map(({ version, name }) => ({ version, name }))
    .sort((a, b) => a.version - b.version);
}

/**
 * A database made before the steps were files kept them in `schema_migrations` (version,
 * name, applied_at). Its steps are the same as the files of the same version: they are
 * recorded in postgrator's table with the files' checksums, so it goes on from there. The
 * old table stays, so the release before this one can still start on the database.
 */
async function adoptOldVersionTable(tx: Transaction, postgrator: Postgrator): Promise<void> {
  const [tables] = await tx.query<{ old: string | null; current: string | null }>(
    `select to_regclass('schema_migrations')::text as old, to_regclass('${VERSION_TABLE}')::text as current`,
  );
  if (!tables?.old || tables.current) return;
  const applied = await tx.query<{ version: number }>('select version from schema_migrations order by version');
  const files = new Map((await postgrator.getMigrations()).map((step) => [step.version, step]));
  // The table as postgrator makes it (Client.ensureTable), with its zero row.
  await tx.query(`create table ${VERSION_TABLE} (version bigint primary key, name text, md5 text, run_at timestamptz)`);
  await tx.query(`insert into ${VERSION_TABLE} (version) values (0)`);
  for (const { version } of applied) {
    const file = files.get(version);
    if (!file) throw new Error(`the database has schema step ${version}, which this release does not know`);
    await tx.query(`insert into ${VERSION_TABLE} (version, name, md5, run_at) values ($1, $2, $3, now())`, [
      version,
      file.name,
      file.md5,
    ]);
  }
}

/**
 * Brings the schema up to the newest step (or `upTo`); returns what it did. All of it runs in
 * one transaction under an advisory lock, so replicas that start together on an empty
 * database wait for the first instead of racing it, and a failed step leaves nothing half done.
 */
export async function migrate(db: Database, upTo?: number): Promise<MigrationReport> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    const postgrator = migrator(tx);
    await adoptOldVersionTable(tx, postgrator);
    const from = await postgrator.getDatabaseVersion();
    const applied = await postgrator.migrate(upTo === undefined ? 'max' : String(upTo));
    return {
      from,
      to: await postgrator.getDatabaseVersion(),
      applied: applied.map((step) => `${step.version} ${step.name}`),
    };
  });
}
