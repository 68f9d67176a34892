// Search speed in the browser for a signed-in reader: query time (p50/p95 over a fixed
// set of queries, each run several times) and how many compressed bytes of index the
// reader downloads. Measured in Debian's Chromium against the gate with the portal's one
// search (packages/search, served to the page as is) over the bundles the reader's groups
// may read (`searchBundlesFor`), as the search box runs it: open, merge, query, rank.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { chromium } from '@playwright/test';

import { searchBundlesFor, unitsOfGroups } from '@portal/access';
import { SEARCH_FILES_PATH } from '@portal/search';

import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { percentile } from './lib.mjs';
import { HELD_OUT, TUNING } from './search-questions.mjs';

const searchPackage = fileURLToPath(new URL('../packages/search/', import.meta.url));
/** Where the page imports packages/search from (answered by the test browser, never the gate). */
const SEARCH_MODULE = '/__bench/search/';

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

/** A signed-in browser context on the gate, closed with `browser.close()`. */
async function signedInBrowser(baseURL, cookie) {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  const context = await browser.newContext();
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, url: baseURL }]);
  return { browser, context };
}

/** The workspace packages packages/search imports, served to the page beside it. */
const BENCH_PACKAGES = {
  search: searchPackage,
  'built-site': fileURLToPath(new URL('../packages/built-site/', import.meta.url)),
};

/**
 * A page of the gate on which `import(SEARCH_MODULE + 'index.js')` gives packages/search as
 * it is, its import of `@portal/built-site` pointed at that package's file (a browser has no
 * package resolution). The page is robots.txt, which runs no script: on a page of the site,
 * the site's own scripts and its own search (opened once the page is idle) loaded beside
 * the search measured, over the same few connections to the gate.
 */
async function pageWithSearchModule(context, baseURL) {
  const page = await context.newPage();
  await page.route(`${baseURL}/__bench/*/*.js`, (route) => {
    const [, , name, file] = new URL(route.request().url()).pathname.split('/');
    const body = readFileSync(join(BENCH_PACKAGES[name], file), 'utf8').replace(
      /from '@portal\/([\w-]+)'/g,
      (_, pkg) => `from '/__bench/${pkg}/index.js'`,
    );
    return route.fulfill({ contentType: 'text/javascript', body });
  });
  await page.goto(`${baseURL}/robots.txt`);
  return page;
}

/** A URL path as the questions name pages: no highlight parameter, no trailing slash, any case. */
const samePage = (url) => new URL(url, 'http://portal.invalid').pathname.replace(/\/+$/, '').toLowerCase();

/**
 * Mean reciprocal rank of a question set (bench/search-questions.mjs): for each question, 1
 * over the place of its page among the first 10 results of the portal's one search over
 * the reader's bundles, 0 when it is not among them. Also which questions missed.
 */
export async function measureRelevance({ baseURL, cookie, groups }) {
  const bases = searchBundlesFor(unitsOfGroups(groups));
  const { browser, context } = await signedInBrowser(baseURL, cookie);
  try {
    const page = await pageWithSearchModule(context, baseURL);
    const results = {};
    for (const [set, questions] of [
      ['tuning', TUNING],
      ['held_out', HELD_OUT],
    ]) {
      const found = await page.evaluate(
        async ({ queries, bases, module }) => {
          const { openSearch, searchPages } = await import(module + 'index.js');
          const search = await openSearch(bases, { load: (bundle) => import(bundle + 'pagefind.js') });
          const answers = [];
          for (const query of queries)
            answers.push((await searchPages(search, query, { limit: 10 })).map((item) => item.url));
          return answers;
        },
        { queries: questions.map((question) => question.query), bases, module: SEARCH_MODULE },
      );
      const ranks = questions.map((question, index) => {
        const place = found[index].findIndex((url) => samePage(url) === samePage(question.page));
        return place === -1 ? 0 : 1 / (place + 1);
      });
      const mrr = ranks.reduce((sum, rank) => sum + rank, 0) / ranks.length;
      results[`search.mrr_${set}`] = Math.round(mrr * 1000) / 1000;
      results[`search.mrr_${set}_questions`] = questions.length;
      results[`search.mrr_${set}_missed`] = questions
        .filter((_, index) => ranks[index] < 1)
        .map((question) => `${question.query} → ${found[questions.indexOf(question)]?.[0] ?? 'nothing'}`);
    }
    return results;
  } finally {
    await browser.close();
  }
}

/**
 * The search box as a reader meets it, in a fresh browser each round: the page loads, the
 * pointer rests on the search button (the box opens the reader's search then), the dialog
 * opens with Ctrl-K and the first query is typed; timed in the page from the key that opens
 * the dialog to the results of that query on screen. Two ways of opening: at once, as soon
 * as the page has hydrated (the search is still loading: the worst case), and after reading
 * the page for `readMs` (the box has opened the search while the page was idle). Then the
 * other queries, each from its input to its results (with the box's debounce): first the
 * first use of each, then each again, warm.
 */
export async function measureDialog({ baseURL, cookie, rounds = 3, readMs = 5000 }) {
  const first = [];
  const firstAfterReading = [];
  const firstSinceTypedAfterReading = [];
  const firstSinceTypedAtOnce = [];
  const next = [];
  const warm = [];
  for (let round = 0; round < rounds * 2; round++) {
    const reading = round % 2 === 1;
    const { browser, context } = await signedInBrowser(baseURL, cookie);
    try {
      const page = await context.newPage();
      await page.goto(`${baseURL}/docs/`);
      await page.locator('html[data-has-hydrated="true"]').waitFor({ state: 'attached' });
      // Timestamps taken in the page: the key that opens the dialog, each input, each answer.
      await page.evaluate(() => {
        const marks = (window.__searchMarks = { opened: 0, typed: 0, answered: new Map() });
        window.addEventListener(
          'keydown',
          (event) => {
            if (event.key.toLowerCase() === 'k' && event.ctrlKey) marks.opened = performance.now();
          },
          true,
        );
        document.addEventListener(
          'input',
          (event) => {
            marks.typed = performance.now();
            // The same query typed again is answered anew.
            marks.answered.delete(event.target.value.trim());
          },
          true,
        );
        new MutationObserver(() => {
          const answered = document.querySelector('[aria-label="Search results"]')?.getAttribute('data-answered');
          if (answered && !marks.answered.has(answered)) marks.answered.set(answered, performance.now());
        }).observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          attributeFilter: ['data-answered'],
        });
      });
      await page
        .getByRole('button', { name: /^Search/ })
        .first()
        .hover();
      if (reading) await page.waitForTimeout(readMs);
      await page.keyboard.press('Control+k');
      const box = page.getByRole('searchbox', { name: 'Search' });
      // Each query twice: its first use (its index chunks and pages fetched), then warm.
      for (const [index, query] of [...QUERIES, ...QUERIES].entries()) {
        await box.fill(query);
        await page.locator(`[aria-label="Search results"][data-answered="${query}"]`).waitFor({ state: 'attached' });
        const [elapsed, sinceTyped] = await page.evaluate(
          ({ query, index }) => {
            const marks = window.__searchMarks;
            const answered = marks.answered.get(query);
            return [answered - (index === 0 ? marks.opened : marks.typed), answered - marks.typed];
          },
          { query, index },
        );
        if (index === 0) {
          (reading ? firstAfterReading : first).push(elapsed);
          (reading ? firstSinceTypedAfterReading : firstSinceTypedAtOnce).push(sinceTyped);
        } else (index < QUERIES.length ? next : warm).push(elapsed);
      }
    } finally {
      await browser.close();
    }
  }
  const ascending = (values) => [...values].sort((a, b) => a - b);
  const sortedFirst = ascending(first);
  const sortedAfterReading = ascending(firstAfterReading);
  const sortedNext = ascending(next);
  const sortedWarm = ascending(warm);
  return {
    'search.dialog_first_query_at_once_median_ms': Math.round(percentile(sortedFirst, 50)),
    'search.dialog_first_query_at_once_max_ms': Math.round(sortedFirst.at(-1)),
    'search.dialog_first_query_after_reading_median_ms': Math.round(percentile(sortedAfterReading, 50)),
    'search.dialog_first_query_after_reading_max_ms': Math.round(sortedAfterReading.at(-1)),
    'search.dialog_reading_ms': readMs,
    // The same first queries from the input of the query (without the time to type it): all,
    // at once, and after reading (the box's search opened while the page was idle, as issue 34 asks).
    'search.dialog_first_query_from_typing_median_ms': Math.round(
      percentile(ascending([...firstSinceTypedAtOnce, ...firstSinceTypedAfterReading]), 50),
    ),
    'search.dialog_first_query_at_once_from_typing_median_ms': Math.round(
      percentile(ascending(firstSinceTypedAtOnce), 50),
    ),
    'search.dialog_first_query_after_reading_from_typing_median_ms': Math.round(
      percentile(ascending(firstSinceTypedAfterReading), 50),
    ),
    'search.dialog_first_query_after_reading_from_typing_max_ms': Math.round(Math.max(...firstSinceTypedAfterReading)),
    'search.dialog_first_query_rounds': first.length,
    'search.dialog_next_queries_first_use_p50_ms': Math.round(percentile(sortedNext, 50)),
    'search.dialog_next_queries_first_use_p95_ms': Math.round(percentile(sortedNext, 95)),
    'search.dialog_warm_p50_ms': Math.round(percentile(sortedWarm, 50)),
    'search.dialog_warm_p95_ms': Math.round(percentile(sortedWarm, 95)),
  };
}

export async function measureSearch({ baseURL, cookie, reader, units, buildDir, repeats = 5 }) {
  const bases = searchBundlesFor(units);
  const { browser, context } = await signedInBrowser(baseURL, cookie);
  try {
    // Every byte of the index the browser fetches, from the page or Pagefind's worker: the
    // bundles' first files in one answer, then the files of each bundle it reads.
    let downloaded = 0;
    context.on('requestfinished', async (request) => {
      const url = request.url();
      if (new URL(url).pathname !== SEARCH_FILES_PATH && !bases.some((base) => url.includes(base))) return;
      const sizes = await request.sizes().catch(() => null);
      if (sizes) downloaded += sizes.responseBodySize + sizes.responseHeadersSize;
    });
    const page = await pageWithSearchModule(context, baseURL);
    const timings = await page.evaluate(
      async ({ queries, repeats: times, bases, module }) => {
        const coldStart = performance.now();
        const { openSearch, searchPages } = await import(module + 'index.js');
        const search = await openSearch(bases, { load: (bundle) => import(bundle + 'pagefind.js') });
        await searchPages(search, queries[0]);
        const cold = performance.now() - coldStart;
        // First use of each query loads its index chunks and result fragments over the
        // network; the steady state a reader typing meets is measured after that.
        for (const query of queries) await searchPages(search, query);
        const samples = [];
        const byQuery = {};
        for (let round = 0; round < times; round++) {
          for (const query of queries) {
            const started = performance.now();
            await searchPages(search, query);
            samples.push(performance.now() - started);
            (byQuery[query] ??= []).push(samples.at(-1));
          }
        }
        return { samples, cold, byQuery };
      },
      { queries: QUERIES, repeats, bases, module: SEARCH_MODULE },
    );
    const sorted = [...timings.samples].sort((a, b) => a - b);
    const total = bases
      .map((base) => bundleBytes(buildDir, base))
      .reduce((sum, bundle) => ({ bytes: sum.bytes + bundle.bytes, files: sum.files + bundle.files }));
    return {
      'search.reader': reader,
      'search.bundles_merged': bases.length,
      'search.query_p50_ms': Math.round(percentile(sorted, 50) * 100) / 100,
      'search.query_p95_ms': Math.round(percentile(sorted, 95) * 100) / 100,
      'search.queries_measured': sorted.length,
      'search.first_query_cold_ms': Math.round(timings.cold),
      // Where the p95 comes from: the queries with the slowest median.
      'search.slowest_queries_median_ms': Object.fromEntries(
        Object.entries(timings.byQuery)
          .map(([query, times]) => [
            query,
            Math.round(
              percentile(
                [...times].sort((a, b) => a - b),
                50,
              ),
            ),
          ])
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5),
      ),
      'search.downloaded_bytes': downloaded,
      'search.index_compressed_bytes': total.bytes,
      'search.index_files': total.files,
      'search.public_index_compressed_bytes': bundleBytes(buildDir, '/search/public/').bytes,
    };
  } finally {
    await browser.close();
  }
}
