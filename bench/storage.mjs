// What the audit trail costs at scale: 1,000,000 stored page views (plus their indexes)
// in disk, and the time of the insights query over them, on the embedded PGlite and on a
// PostgreSQL server (Debian's), with the very same schema, code and query the gate uses.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startPostgres } from '../tools/lib/postgres.mjs';
import { median, root } from './lib.mjs';

const dist = (module) => import(join(root, 'server', 'dist', 'db', module));

function folderBytes(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) bytes += statSync(join(entry.parentPath, entry.name)).size;
  return bytes;
}

/**
 * One million page views over 180 days by 2,000 readers over 150 pages, stored as the gate
 * stores them (page-views.ts): a row per reader, page and hour with a count, so reading
 * spread this thin is still nearly a row per view (the worst case for the store).
 */
async function fill(db, rows) {
  const { addPageViews, VIEW_INTERVAL_MS } = await dist('page-views.js');
  const hours = 180 * 24;
  const now = Date.now();
  const readers = Array.from({ length: 2000 }, (_, i) => ({
    uid: `reader-${i}`,
    email: `reader-${i}@studio.example`,
    groups: i % 3 === 0 ? ['staff'] : ['partner'],
  }));
  let pending = new Map();
  let n = 0;
  for (let hour = 0; hour < hours; hour++) {
    const start = now - (hour + 1) * 3_600_000;
    const count = Math.floor(((hour + 1) * rows) / hours) - Math.floor((hour * rows) / hours);
    for (let i = 0; i < count; i++, n++) {
      const at = start + Math.floor((i * 3_600_000) / count);
      const reader = readers[(n * 7919) % 2000];
      const path = `/docs/package-${n % 150}/`;
      const period = at - (at % VIEW_INTERVAL_MS);
      const key = `${period} ${reader.uid} ${path}`;
      const row = pending.get(key);
      if (row) {
        row.count += 1;
        row.lastAt = Math.max(row.lastAt, at);
      } else
        pending.set(key, { period, ...reader, path, via: 'page', clientIp: '', firstAt: at, lastAt: at, count: 1 });
    }
    if (pending.size >= 5000 || hour === hours - 1) {
      await addPageViews(db, [...pending.values()]);
      pending = new Map();
    }
  }
}

async function measure(kind, db, sizeOf, rows, log) {
  const { migrate } = await dist('migrations.js');
  const { insights } = await dist('insights.js');
  await migrate(db);
  const before = await sizeOf();
  const filled = Date.now();
  await fill(db, rows);
  await db.query('analyze page_views');
  // Measured after a checkpoint: the steady state, write-ahead log recycled.
  await db.query('checkpoint');
  const fillSeconds = (Date.now() - filled) / 1000;
  const after = await sizeOf();
  const pages = Array.from({ length: 200 }, (_, i) => `/docs/package-${i}/`);
  const time = async (query) => {
    const samples = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      await insights(db, query);
      samples.push(performance.now() - started);
    }
    return Math.round(median(samples));
  };
  const to = new Date(Date.now() + 1000);
  const all30 = await time({ from: new Date(Date.now() - 30 * 86_400_000), to, pages });
  const partner30 = await time({ group: 'partner', from: new Date(Date.now() - 30 * 86_400_000), to, pages });
  const all180 = await time({ from: new Date(Date.now() - 180 * 86_400_000), to, pages });
  log(
    `  ${kind}: ${rows.toLocaleString('en')} page views, ${((after - before) / 2 ** 20).toFixed(0)} MiB, insights 30 days ${all30} ms, partner ${partner30} ms, 180 days ${all180} ms`,
  );
  return {
    [`storage.${kind}.page_views`]: rows,
    [`storage.${kind}.mib`]: Math.round((after - before) / 2 ** 20),
    [`storage.${kind}.bytes_per_view`]: Math.round((after - before) / rows),
    [`storage.${kind}.fill_s`]: Math.round(fillSeconds),
    [`storage.${kind}.insights_30d_ms`]: all30,
    [`storage.${kind}.insights_30d_partner_ms`]: partner30,
    [`storage.${kind}.insights_180d_ms`]: all180,
  };
}

/**
 * Runs `measure(kind, db, sizeOf)` on a fresh PGlite in a folder of its own, then on a
 * throw-away PostgreSQL server (Debian's), and merges what each returns; `sizeOf` is the
 * database's size on disk in bytes.
 */
export async function onBothDatabases(measure) {
  const { openDatabase } = await dist('database.js');
  const results = {};
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-bench-pglite-'));
  const pglite = await openDatabase({ kind: 'pglite', dataDir });
  try {
    Object.assign(results, await measure('pglite', pglite, async () => folderBytes(dataDir)));
  } finally {
    await pglite.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const server = await startPostgres();
  const postgres = await openDatabase({ kind: 'postgres', url: server.url });
  try {
    const sizeOf = async () => Number((await postgres.query('select pg_database_size(current_database()) as n'))[0].n);
    Object.assign(results, await measure('postgres', postgres, sizeOf));
  } finally {
    await postgres.close();
    await server.stop();
  }
  return results;
}

export function measureStorage({ rows = 1_000_000, log }) {
  return onBothDatabases((kind, db, sizeOf) => measure(kind, db, sizeOf, rows, log));
}
