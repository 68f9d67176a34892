// Search speed in the browser for a signed-in reader: query time (p50/p95 over a fixed
// set of queries, each run several times) and how many compressed bytes of index the
// reader downloads. Measured with Pagefind's own API in Debian's Chromium against the gate,
// loading the bundles the reader's groups may read and merging them, as the site does
// (site/src/search/pagefind.ts): the public one first, then every other unit of theirs.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { chromium } from '@playwright/test';

import { accessUnits, mayRead } from '@portal/access';

import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';

/** Words readers type: package names with dots and dashes, API names, prefixes, phrases. */
export const QUERIES = [
  'dash.js',
  'hls.js',
  'player-adapter-dash.js',
  'useFocusable',
  'setFocus',
  'focus boundary',
  'layout engine',
  'virtualis',
  'widevine',
  'drm licence',
  'tizen',
  'webos',
  'conviva',
  'nielsen',
  'vast',
  'subtitles',
  'preload',
  'shaka',
  'whitelabel brand',
  'jenkins',
  'release flow',
  'sentry',
  'cypress',
  'theme tokens',
  'react native',
  'playback error',
  'tracking manager',
  'scheduler',
  'bitmovin',
  'play',
];

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Total compressed size of a search bundle, as the gate would send it (brotli where built). */
export function bundleBytes(buildDir, prefix) {
  const manifest = JSON.parse(readFileSync(join(buildDir, 'portal-manifest.json'), 'utf8'));
  let bytes = 0;
  let files = 0;
  for (const entry of Object.values(manifest.entries)) {
    if (!entry.url.startsWith(prefix)) continue;
    files += 1;
    bytes += entry.br?.size ?? entry.gzip?.size ?? entry.size;
  }
  return { bytes, files };
}

/** The search bundles a reader with `groups` loads: public first, then each unit they are in. */
export function searchBases(groups) {
  return accessUnits()
    .filter((unit) => mayRead(groups, unit.readers))
    .map((unit) => `/search/${unit.id}/`);
}

export async function measureSearch({ baseURL, cookie, groups, buildDir, repeats = 5 }) {
  const bases = searchBases(groups);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const context = await browser.newContext();
    const [name, value] = cookie.split('=');
    await context.addCookies([{ name, value, url: baseURL }]);
    // Every byte of the index the browser fetches, from the page or Pagefind's worker.
    let downloaded = 0;
    context.on('requestfinished', async (request) => {
      if (!bases.some((base) => request.url().includes(base))) return;
      const sizes = await request.sizes().catch(() => null);
      if (sizes) downloaded += sizes.responseBodySize + sizes.responseHeadersSize;
    });
    const page = await context.newPage();
    await page.goto(`${baseURL}/docs/`);
    const timings = await page.evaluate(
      async ({ queries, repeats: times, bases: [primary, ...merged] }) => {
        const coldStart = performance.now();
        const pagefind = await import(primary + 'pagefind.js');
        await pagefind.options({ basePath: primary, excerptLength: 24 });
        for (const base of merged) await pagefind.mergeIndex(base);
        await pagefind.init();
        const first = await pagefind.search(queries[0]);
        await Promise.all(first.results.slice(0, 8).map((result) => result.data()));
        const cold = performance.now() - coldStart;
        // First use of each query loads its index chunks and result fragments over the
        // network; the steady state a reader typing meets is measured after that.
        for (const query of queries) {
          const found = await pagefind.search(query);
          await Promise.all(found.results.slice(0, 8).map((result) => result.data()));
        }
        const samples = [];
        for (let round = 0; round < times; round++) {
          for (const query of queries) {
            const started = performance.now();
            const found = await pagefind.search(query);
            await Promise.all(found.results.slice(0, 8).map((result) => result.data()));
            samples.push(performance.now() - started);
          }
        }
        return { samples, cold };
      },
      { queries: QUERIES, repeats, bases },
    );
    const sorted = [...timings.samples].sort((a, b) => a - b);
    const total = bases
      .map((base) => bundleBytes(buildDir, base))
      .reduce((sum, bundle) => ({ bytes: sum.bytes + bundle.bytes, files: sum.files + bundle.files }));
    return {
      'search.reader_groups': groups.join('+'),
      'search.bundles_merged': bases.length,
      'search.query_p50_ms': Math.round(percentile(sorted, 50) * 100) / 100,
      'search.query_p95_ms': Math.round(percentile(sorted, 95) * 100) / 100,
      'search.queries_measured': sorted.length,
      'search.first_query_cold_ms': Math.round(timings.cold),
      'search.downloaded_bytes': downloaded,
      'search.index_compressed_bytes': total.bytes,
      'search.index_files': total.files,
      'search.public_index_compressed_bytes': bundleBytes(buildDir, '/search/public/').bytes,
    };
  } finally {
    await browser.close();
  }
}
