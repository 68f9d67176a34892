// "What's new for you" at the size the issue names: a reader of 25 synced packages (20
// releases of 60 symbols each, 40 pages each) with 10,000 page views of their own among
// 200,000 of 2,000 other readers, and three builds' page texts; the gate's own code
// (server/dist: newsFor) over PGlite and a PostgreSQL server, the p95 of 200 answers with
// its bootstrap interval.
import { join } from 'node:path';

import { root } from './lib.mjs';
import { bootstrapInterval, percentile, round } from './stats.mjs';
import { onBothDatabases } from './storage.mjs';

const dist = (module) => import(join(root, 'server', 'dist', module));

const PACKAGES = 25;
const RELEASES = 20;
const SYMBOLS = 60;
const PAGES = 40;
const READER_VIEWS = 10_000;
const OTHER_VIEWS = 200_000;
const ROUNDS = 200;
const DAY = 86_400_000;

const body = (text) => ({ identity: Buffer.from(text) });

/** A build of 25 packages as the gate holds it in memory: pages, Markdown twins, each package's models. */
function makeSite(now) {
  const files = new Map();
  const pages = [];
  for (let p = 0; p < PACKAGES; p++) {
    const basePath = `/docs/package-${p}/`;
    const versions = Array.from({ length: RELEASES }, (_, r) => {
      const version = `1.${RELEASES - 1 - r}.0`;
      return {
        version,
        date: new Date(now - (r * 9 + p) * DAY).toISOString(),
        path: r === 0 ? `${basePath}api/` : `${basePath}${version}/api/`,
        symbols: Array.from({ length: SYMBOLS }, (_, s) => ({
          name: `symbol${s}`,
          slug: `symbol${s}`,
          kind: 'function',
          // Every third symbol's signature changes with each release.
          declaration: `function symbol${s}(key: string${s % 3 === 0 ? `, v${RELEASES - r}: number` : ''}): void`,
          summary: `What symbol ${s} does.`,
        })),
      };
    });
    const models = {
      id: `package-${p}`,
      package: `@noriginmedia/package-${p}`,
      title: `Package ${p}`,
      basePath,
      latest: versions[0].version,
      versions,
    };
    files.set(`${basePath}api/models.json`, {
      url: `${basePath}api/models.json`,
      etag: `m${p}`,
      access: 'private',
      units: ['layout'],
      kind: 'file',
      bodies: body(JSON.stringify(models)),
    });
    const urls = [basePath, `${basePath}api/`, ...Array.from({ length: PAGES - 2 }, (_, i) => `${basePath}guide-${i}`)];
    for (const [i, url] of urls.entries()) {
      pages.push({ url, access: 'private', units: ['layout'] });
      const text = `# Page ${i} of package ${p}\n\nCall \`symbol${i % SYMBOLS}\` and \`symbol${(i * 7) % SYMBOLS}\` from your app.\n`;
      files.set(url, {
        url,
        etag: `p${p}-${i}`,
        access: 'private',
        units: ['layout'],
        kind: 'page',
        bodies: body(`<title>Page ${i}</title>`),
      });
      const md = `${url.replace(/\/$/, '')}.md`;
      files.set(md, {
        url: md,
        etag: `md${p}-${i}`,
        access: 'private',
        units: ['layout'],
        kind: 'file',
        bodies: body(text),
      });
    }
  }
  return { id: 'bench', pages, lookup: (path) => files.get(path), notFound: undefined, files: files.size, bytes: 0 };
}

async function fill(db, now) {
  const { addPageViews } = await dist('db/page-views.js');
  const { recordPageTexts } = await dist('db/whats-new.js');
  const rows = [];
  const push = async (row) => {
    rows.push(row);
    if (rows.length >= 5000) await addPageViews(db, rows.splice(0));
  };
  // The reader: 10,000 views over 90 days, of every package's pages and reference symbols.
  for (let i = 0; i < READER_VIEWS; i++) {
    const at = now - Math.floor((i * 90 * DAY) / READER_VIEWS);
    const p = i % PACKAGES;
    const path =
      i % 4 === 0
        ? `/docs/package-${p}/1.${i % RELEASES}.0/api/symbol${i % SYMBOLS}`
        : `/docs/package-${p}/guide-${i % (PAGES - 2)}`;
    await push({
      period: at - (at % 3_600_000),
      uid: 'reader',
      email: 'dev@studio.example',
      groups: ['partner'],
      path,
      via: 'page',
      clientIp: '',
      firstAt: at,
      lastAt: at,
      count: 1,
    });
  }
  for (let i = 0; i < OTHER_VIEWS; i++) {
    const at = now - Math.floor((i * 180 * DAY) / OTHER_VIEWS);
    await push({
      period: at - (at % 3_600_000),
      uid: `other-${i % 2000}`,
      email: null,
      groups: ['partner'],
      path: `/docs/package-${i % PACKAGES}/guide-${i % (PAGES - 2)}`,
      via: 'page',
      clientIp: '',
      firstAt: at,
      lastAt: at,
      count: 1,
    });
  }
  if (rows.length > 0) await addPageViews(db, rows.splice(0));
  // Three builds: the baseline, then two that changed a third of the pages each.
  const site = makeSite(now);
  for (const [build, back] of [
    [0, 60],
    [1, 20],
    [2, 2],
  ]) {
    const texts = site.pages.map((page, i) => ({
      path: page.url,
      hash: `${page.url}:${build > 0 && i % 3 === build ? build : 0}`,
    }));
    await recordPageTexts(db, texts, new Date(now - back * DAY));
  }
  await db.query('analyze');
}

async function measure(kind, db, log) {
  const { migrate } = await dist('db/migrations.js');
  const { newsFor } = await dist('whats-new/service.js');
  await migrate(db);
  const now = Date.now();
  await fill(db, now);
  const site = makeSite(now);
  const reader = { uid: 'reader', units: ['layout'] };
  const since = new Date(now - 30 * DAY).toISOString();
  // Warm: the build's facts are worked out once per build, as in the gate.
  const first = await newsFor({ site, db }, reader, { since }, new Date(now));
  const samples = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await newsFor({ site, db }, reader, i % 2 === 0 ? { since } : {}, new Date(now));
    samples.push(performance.now() - started);
  }
  const p95 = percentile(samples, 95);
  const interval = bootstrapInterval(samples, (values) => percentile(values, 95));
  const releases = first.packages.reduce((n, pkg) => n + pkg.releases.length, 0);
  log(
    `  ${kind}: ${first.packages.length} packages with ${releases} releases, ${first.changedPages.length} changed pages; p95 ${round(p95, 1)} ms (${round(interval.low, 1)} to ${round(interval.high, 1)})`,
  );
  return {
    [`whatsnew.${kind}.p95_ms`]: round(p95, 1),
    [`whatsnew.${kind}.p95_ms.ci_low`]: round(interval.low, 1),
    [`whatsnew.${kind}.p95_ms.ci_high`]: round(interval.high, 1),
    [`whatsnew.${kind}.p95_ms_spread`]: samples.map((value) => round(value, 1)),
    [`whatsnew.${kind}.releases`]: releases,
  };
}

export function measureWhatsNew({ log }) {
  return onBothDatabases((kind, db) => measure(kind, db, log));
}
