// Lighthouse scores (performance, accessibility, best practices, SEO) and the layout shift
// (CLS) of the home page, a doc page, a blog post, the login page, the 404 of a deep unknown
// path and the refusal page (403), on desktop and mobile: as a signed-in reader (the session
// cookie and the groups hint a browser holds after signing in), the login page as the
// signed-out visitor who sees its form, the refusal page as a partner. Lighthouse 12
// (13 needs Node 22) drives Debian's Chromium through chrome-launcher with the project's
// flags; throttling is Lighthouse's default simulation. Runs interleave (every page and
// form factor once per round) so that a slow moment of the machine does not land on one
// page only; each figure is the median over the rounds.
//   node bench/lighthouse.mjs <baseURL> <cookies> [runs]   prints the result as JSON
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { chromium } from '@playwright/test';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';

import { assertChromiumInstalled, chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { DOC_PATH, median } from './lib.mjs';
import { ratioWithInterval } from './stats.mjs';

export const PAGES = {
  home: '/',
  doc: DOC_PATH,
  blog: '/blog/welcome',
  login: '/login',
  // A deep unknown path (404), as issue 34 names it.
  not_found: '/docs/player-manager-mono/packages/no-such-package/no-such-page/',
  // The refusal page (403): the internal guidelines, asked for by a partner (`refusalCookie`).
  refusal: '/docs/frontend-guidelines/',
};

/** Pages measured without the reader's cookies. */
const SIGNED_OUT = new Set(['login']);

/** Pages answered with an error status on purpose: Lighthouse reports them rather than stopping. */
const ERROR_STATUS = { not_found: 404, refusal: 403 };

/** Page JavaScript a run saw arrive, in bytes as sent (compressed). */
function scriptBytes(lhr) {
  const items = lhr.audits['network-requests']?.details?.items ?? [];
  return items
    .filter((item) => item.resourceType === 'Script')
    .reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

const FORM_FACTORS = {
  desktop: desktopConfig,
  mobile: undefined, // Lighthouse's default config: a mobile device on a slow 4G network
};

const CATEGORIES = {
  performance: 'performance',
  accessibility: 'accessibility',
  'best-practices': 'best_practices',
  seo: 'seo',
};

// Audits that cannot cost points: they only report, or do not apply to the page.
const UNSCORED = new Set(['informative', 'notApplicable', 'manual', 'error']);

/** The audits of one report that cost points, per category key (empty ones left out). */
function failingAudits(lhr, prefix) {
  const failing = {};
  for (const [id, key] of Object.entries(CATEGORIES)) {
    const threshold = id === 'performance' ? 0.9 : 1;
    const ids = lhr.categories[id].auditRefs
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit && !UNSCORED.has(audit.scoreDisplayMode))
      .filter((audit) => audit.score !== null && audit.score < threshold)
      .map((audit) => audit.id);
    if (ids.length) failing[`${prefix}.${key}`] = ids;
  }
  return failing;
}

// Lighthouse now and then fails to record a run (NO_NAVSTART, NO_FCP on a busy machine);
// such a run is repeated, up to this many times, rather than losing the whole bench.
const ATTEMPTS = 3;

/**
 * Puts `cookie` ("a=1; b=2") in the browser's cookie jar for `url`'s origin, or empties the
 * jar when it is null. In the jar, not in a request header: the page's scripts read the
 * groups hint from `document.cookie`, as they do in a reader's browser. Lighthouse keeps
 * cookies between runs (it clears caches and workers only), so this is done before each run.
 */
async function setCookies(port, url, cookie) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    await context.clearCookies();
    if (cookie) {
      // For the whole site (path "/"), as the gate sets them; a `url` would limit them to its folder.
      const { hostname } = new URL(url);
      const cookies = cookie.split(/;\s*/).map((pair) => {
        const [name, ...value] = pair.split('=');
        return { name, value: value.join('='), domain: hostname, path: '/' };
      });
      await context.addCookies(cookies);
    }
  } finally {
    await browser.close();
  }
}

async function runOnce(url, port, cookie, config, { status, log }) {
  if (status !== undefined) {
    // The page must answer as it is meant to (a 403 needs the refusal cookie); a 200 or a
    // redirect would be measuring another page.
    const answered = await fetch(url, { headers: cookie ? { cookie } : {}, redirect: 'manual' });
    if (answered.status !== status) throw new Error(`${url} answered ${answered.status}, not ${status}`);
  }
  for (let attempt = 1; ; attempt++) {
    await setCookies(port, url, cookie);
    const result = await lighthouse(
      url,
      {
        port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: Object.keys(CATEGORIES),
        // The 404 and refusal pages are measured as readers get them, status and all.
        ignoreStatusCode: status !== undefined,
      },
      config,
    );
    const lhr = result?.lhr;
    const error = !lhr
      ? 'no report'
      : lhr.runtimeError
        ? `${lhr.runtimeError.code}: ${lhr.runtimeError.message}`
        : null;
    if (!error) return lhr;
    if (attempt === ATTEMPTS) throw new Error(`Lighthouse, ${url}: ${error}`);
    log(`lighthouse ${url}: ${error}; running it again`);
  }
}

/**
 * Runs Lighthouse `runs` times over `targets` (name → { baseURL, path, cookie, status }) ×
 * `formFactors`, interleaved: every target and form factor once per round. Returns each
 * round's figures per `<name>.<formFactor>` (the categories' scores, `lcp_ms`, `tbt_ms`,
 * `cls`, `script_bytes`) and the failing audits of the last round.
 */
export async function lighthouseRounds({ targets, runs, formFactors = Object.keys(FORM_FACTORS), log = () => {} }) {
  assertChromiumInstalled();
  const samples = {};
  let failing = {};
  const chrome = await launch({
    chromePath: chromiumPath,
    chromeFlags: [...chromiumArgs, '--headless=new'],
    ignoreDefaultFlags: true,
  });
  try {
    for (let round = 1; round <= runs; round++) {
      for (const [page, target] of Object.entries(targets)) {
        for (const formFactor of formFactors) {
          const url = target.baseURL.replace(/\/+$/, '') + target.path;
          const lhr = await runOnce(url, chrome.port, target.cookie, FORM_FACTORS[formFactor], {
            status: target.status,
            log,
          });
          if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
            throw new Error(`${url} ended at ${lhr.finalDisplayedUrl}: is the cookie a signed-in reader's?`);
          }
          const prefix = `${page}.${formFactor}`;
          const sample = (samples[prefix] ??= { lcp_ms: [], tbt_ms: [], cls: [], script_bytes: [] });
          for (const [id, key] of Object.entries(CATEGORIES)) {
            const score = lhr.categories[id].score;
            if (score === null) throw new Error(`Lighthouse, ${url}: no ${id} score`);
            (sample[key] ??= []).push(Math.round(score * 100));
          }
          sample.lcp_ms.push(lhr.audits['largest-contentful-paint'].numericValue);
          sample.tbt_ms.push(lhr.audits['total-blocking-time'].numericValue);
          sample.cls.push(lhr.audits['cumulative-layout-shift'].numericValue);
          sample.script_bytes.push(scriptBytes(lhr));
          if (round === runs) failing = { ...failing, ...failingAudits(lhr, prefix) };
          log(
            `lighthouse ${round}/${runs} ${prefix}: ` +
              Object.values(CATEGORIES)
                .map((key) => `${key} ${sample[key].at(-1)}`)
                .join(', ') +
              `, TBT ${Math.round(sample.tbt_ms.at(-1))} ms, CLS ${sample.cls.at(-1).toFixed(3)}`,
          );
        }
      }
    }
  } finally {
    await chrome.kill();
  }
  return { samples, failing };
}

/**
 * Runs Lighthouse `runs` times over every page × form factor and returns the medians as
 * flat keys `lighthouse.<page>.<formFactor>.<category|lcp_ms|cls>`, plus the failing audits
 * of the last round (`lighthouse.failing`). `cookie` holds the signed-in reader's cookies,
 * `refusalCookie` those of a reader refused `PAGES.refusal` (without it, that page is left
 * out). `peers` (name → { baseURL, path, peerOf }) run in the same rounds; each gives the
 * ratio of its page's performance score, `lighthouse.<peerOf>.<form>.performance_vs_<rest of its name>`.
 */
export async function measureLighthouse({ baseURL, cookie, refusalCookie, runs, peers = {}, log = () => {} }) {
  const targets = {
    ...Object.fromEntries(
      Object.entries(PAGES)
        // Without a refused reader's cookies (the command line below), no refusal page.
        .filter(([page]) => page !== 'refusal' || refusalCookie)
        .map(([page, path]) => [
          page,
          {
            baseURL,
            path,
            cookie: SIGNED_OUT.has(page) ? null : page === 'refusal' ? refusalCookie : cookie,
            status: ERROR_STATUS[page],
          },
        ]),
    ),
    ...Object.fromEntries(Object.entries(peers).map(([name, peer]) => [name, { cookie, ...peer }])),
  };
  const { samples, failing } = await lighthouseRounds({ targets, runs, log });
  const results = {
    'lighthouse.runs': runs,
    'lighthouse.pages': Object.fromEntries(Object.entries(targets).map(([page, target]) => [page, target.path])),
  };
  for (const [prefix, sample] of Object.entries(samples)) {
    for (const key of Object.values(CATEGORIES))
      results[`lighthouse.${prefix}.${key}`] = Math.round(median(sample[key]));
    results[`lighthouse.${prefix}.lcp_ms`] = Math.round(median(sample.lcp_ms));
    results[`lighthouse.${prefix}.tbt_ms`] = Math.round(median(sample.tbt_ms));
    // CLS to three places, as Lighthouse shows it; the largest of the runs, so one shift counts.
    results[`lighthouse.${prefix}.cls`] = Math.round(Math.max(...sample.cls) * 1000) / 1000;
  }
  for (const [name, peer] of Object.entries(peers)) {
    if (!peer.peerOf) continue;
    for (const form of Object.keys(FORM_FACTORS)) {
      Object.assign(
        results,
        ratioWithInterval(
          `lighthouse.${peer.peerOf}.${form}.performance_vs_${name.slice(peer.peerOf.length + 1)}`,
          samples[`${peer.peerOf}.${form}`].performance,
          samples[`${name}.${form}`].performance,
          { of: 'ratioOfMedians' },
        ),
      );
    }
  }
  results['lighthouse.failing'] = failing;
  return results;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let positionals = [];
  try {
    ({ positionals } = parseArgs({ allowPositionals: true }));
  } catch {
    // an unknown flag: the usage below says what it takes
  }
  const [baseURL, cookie, runs = '1'] = positionals;
  if (!baseURL || !cookie || positionals.length > 3 || !/^[1-9]\d*$/.test(runs)) {
    console.error('usage: node bench/lighthouse.mjs <baseURL> "<session cookie>; portal_groups=<groups>" [runs]');
    process.exit(2);
  }
  const results = await measureLighthouse({
    baseURL,
    cookie,
    runs: Number(runs),
    log: (line) => console.error(line),
  });
  console.log(JSON.stringify(results, null, 2));
}
