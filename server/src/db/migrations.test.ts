import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freshDatabase, freshPostgresUrl, type DatabaseKind } from '../test/databases.js';
import { queryAudit } from './audit.js';
import { openDatabase, type Database } from './database.js';
import { listMigrations, migrate, MIGRATIONS_DIR } from './migrations.js';
import { Store } from './store.js';

describe('replicas starting together on an empty PostgreSQL database', () => {
  it('all three migrate it once, log no error and become ready', async () => {
    const url = await freshPostgresUrl();
    const logged: string[] = [];
    const log = {
      info: () => undefined,
      warn: (object: Record<string, unknown>, message: string) => logged.push(`warn ${message} ${String(object.err)}`),
      error: (object: Record<string, unknown>, message: string) =>
        logged.push(`error ${message} ${String(object.err)}`),
    };
    const replicas = await Promise.all(
      [1, 2, 3].map(() => Store.open({ database: { kind: 'postgres', url }, retentionDays: 180, log })),
    );
    try {
      await Promise.all(replicas.map((replica) => replica.whenReady()));
      expect(logged).toEqual([]);
      expect(replicas.map((replica) => replica.readyNow)).toEqual([true, true, true]);
      const tables = await replicas[0]?.db.query<{ table_name: string }>(
        "select table_name from information_schema.tables where table_schema = 'public' and table_name = 'audit_events'",
      );
      expect(tables).toHaveLength(1);
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()));
    }
  });

  it('applies each step once when three migrate at the same moment', async () => {
    const url = await freshPostgresUrl();
    const dbs = await Promise.all([1, 2, 3].map(() => openDatabase({ kind: 'postgres', url })));
    try {
      const reports = await Promise.all(dbs.map((db) => migrate(db)));
      const steps = await listMigrations();
      expect(reports.map((report) => report.applied.length).sort()).toEqual([0, 0, steps.length]);
      expect(reports.every((report) => report.to === steps.at(-1)?.version)).toBe(true);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  });
});

describe.each<DatabaseKind>(['pglite', 'postgres'])('a database made before the steps were files, on %s', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await freshDatabase(kind);
  });
  afterAll(() => db.close());

  it('goes on from the step it had, keeping its rows, and is checked like any other afterwards', async () => {
    const steps = await listMigrations();
    // Every step but the newest (whose version may follow a gap: numbers kept for other branches).
    const had = steps.at(-2)?.version ?? 0;
    // What the previous release left: its own version table and the steps up to `had`.
    await db.transaction(async (tx) => {
      await tx.query(
        'create table schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())',
      );
      for (const step of steps.slice(0, -1)) {
        const file = `${String(step.version).padStart(3, '0')}.do.${step.name}.sql`;
        await tx.exec(readFileSync(join(MIGRATIONS_DIR, file), 'utf8'));
        await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [step.version, step.name]);
      }
    });
    await db.query("insert into audit_events (kind, actor_uid, path) values ('page.view', 'u1', '/docs/whitelabel/')");

    const report = await migrate(db);
    expect(report).toEqual({
      from: had,
      to: steps.at(-1)?.version,
      applied: [`${steps.at(-1)?.version} ${steps.at(-1)?.name}`],
    });
    expect(await queryAudit(db, {})).toHaveLength(1);
    expect((await migrate(db)).applied).toEqual([]);
    // The old table stays for the release before this one.
    expect(await db.query('select version from schema_migrations')).toHaveLength(steps.length - 1);

    // Its steps now carry their files' checksums: an edited step is refused.
    await db.query("update schema_version set md5 = 'edited' where version = 1");
    await expect(migrate(db)).rejects.toThrow(/checksum failed for migration \[1\]/);
  });
});
