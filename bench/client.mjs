// What a signed-in reader's browser pays for the gate: the JavaScript a doc page loads
// first (compressed bytes, as the server sends them) and its Largest Contentful Paint, for
// the portal and two peers built from the same sources (bench/variants/README.md):
// "ungated" (no sign-in at all) and "client-guard" (Firebase SDK in Root, nothing renders
// until it resolves). All three are served by the same gate server code from memory, the
// peers with every file public, so only the pages' own code differs.
import { cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { chromium } from '@playwright/test';
import { writeManifest } from '@portal/built-site/write';

import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { coldBuild } from './build.mjs';
import { copySiteSources, DOC_PATH, median, rewrite, root, round, workDir } from './lib.mjs';
import { ratioWithInterval } from './stats.mjs';

/** Lighthouse's desktop network profile (40 ms round trip, 10 Mbit/s), applied through the DevTools protocol. */
export const NETWORK = {
  latency: 40,
  downloadThroughput: (10 * 1024 * 1024) / 8,
  uploadThroughput: (10 * 1024 * 1024) / 8,
};

const GUARD_MODULES = [
  "    './src/clientModules/session.ts',\n",
  "    './src/clientModules/route-guard.ts',\n",
  "    './src/clientModules/prefetch-gate.ts',\n",
];
const AUTH_ITEM = "        { type: 'custom-authItem', position: 'right' },\n";

/**
 * Builds the two peers (Faster, like the portal) with every file public in their
 * manifests. `authConfig` is the portal's /api/auth-config answer, baked into the
 * client-guard peer the way the specification's portal baked its Firebase config.
 */
export async function buildPeers({ authConfig, log }) {
  const peers = {};
  for (const name of ['ungated', 'client-guard']) {
    const dir = copySiteSources(join(workDir, `peer-${name}`));
    cpSync(join(root, 'bench', 'variants', name), dir, {
      recursive: true,
      filter: (source) => !source.endsWith('README.md'),
    });
    const configFile = join(dir, 'docusaurus.config.ts');
    let config = readFileSync(configFile, 'utf8');
    for (const line of GUARD_MODULES) config = rewrite(config, line, '', `the client module ${line.trim()}`);
    if (name === 'ungated') config = rewrite(config, AUTH_ITEM, '', 'the Login/Logout navbar item');
    writeFileSync(configFile, config);
    if (name === 'client-guard') {
      writeFileSync(join(dir, 'src', 'auth', 'firebase-config.json'), JSON.stringify(authConfig, null, 2));
    }
    const build = join(dir, 'build');
    const run = await coldBuild(dir, build, 'faster');
    // Every file public: the manifest step asks only `get(url)` of its readers map.
    await writeManifest(build, { get: () => 'public' }, { compressionCache: join(workDir, 'peer-compressed') });
    log(`  peer build "${name}": ${(run.wallMs / 1000).toFixed(1)} s`);
    peers[name] = build;
  }
  return peers;
}

/** Bytes the server sends for a file: its brotli form when the build step made one. */
function sentBytes(buildDir, urlPath) {
  const file = join(buildDir, decodeURIComponent(urlPath));
  return existsSync(file + '.br') ? statSync(file + '.br').size : statSync(file).size;
}

async function loadOnce(context, baseURL, buildDir) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, ...NETWORK });
  const scripts = new Set();
  const scriptsInFlight = new Set();
  let lastScriptAt = Date.now();
  const isScript = (request) => request.resourceType() === 'script' && new URL(request.url()).origin === baseURL;
  page.on('request', (request) => {
    if (isScript(request)) scriptsInFlight.add(request);
  });
  const settle = (request, arrived) => {
    if (!scriptsInFlight.delete(request)) return;
    lastScriptAt = Date.now();
    if (arrived) scripts.add(new URL(request.url()).pathname);
  };
  page.on('requestfinished', (request) => settle(request, true));
  page.on('requestfailed', (request) => settle(request, false));
  const response = await page.goto(baseURL + DOC_PATH, { waitUntil: 'load' });
  if (response?.status() !== 200) throw new Error(`${baseURL}${DOC_PATH} answered ${response?.status()}`);
  await page.locator('article h1').first().waitFor({ state: 'visible', timeout: 30_000 });
  // Until no script has been asked for or arrived for a second (the idle prefetches
  // included). Scripts only: an API call whose answer the page never reads stays "in
  // flight" to DevTools, so "network idle" can wait for ever.
  const started = Date.now();
  while (scriptsInFlight.size > 0 || Date.now() - lastScriptAt < 1000) {
    if (Date.now() - started > 30_000) throw new Error(`${baseURL}${DOC_PATH}: scripts still loading after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (new URL(page.url()).pathname !== DOC_PATH) throw new Error(`${baseURL}${DOC_PATH} ended at ${page.url()}`);
  const paint = await page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          const fcp = performance.getEntriesByName('first-contentful-paint')[0];
          resolve({ lcp: entries[entries.length - 1].startTime, fcp: fcp ? fcp.startTime : null });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
  await page.close();
  const jsBytes = [...scripts].reduce((sum, path) => sum + sentBytes(buildDir, path), 0);
  return { ...paint, jsBytes, jsFiles: scripts.size };
}

/** Signs in through the client-guard peer's own login page; the SDK keeps the user in IndexedDB. */
async function signInClientGuard(context, baseURL, reader) {
  const page = await context.newPage();
  await page.goto(`${baseURL}/login?next=${encodeURIComponent(DOC_PATH)}`);
  await page.getByLabel('E-mail').fill(reader.email);
  await page.getByLabel('Password').fill(reader.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(baseURL + DOC_PATH, { timeout: 30_000 });
  await page.locator('article h1').first().waitFor();
  await page.close();
}

/**
 * `targets`: { portal, ungated, 'client-guard' }, each { baseURL, buildDir }, the portal's
 * also `cookie` (what a signed-in browser holds, `signedInCookies`: "__session=…; portal_groups=…; …").
 * Runs rotate the order of the three every round.
 */
export async function measureClient({ targets, reader, runs, log }) {
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  try {
    const contexts = {};
    for (const [name, target] of Object.entries(targets)) {
      const context = await browser.newContext({ viewport: { width: 1350, height: 940 } });
      if (target.cookie) {
        await context.addCookies(
          target.cookie.split(/;\s*/).map((pair) => {
            const [cookieName, ...value] = pair.split('=');
            return { name: cookieName, value: value.join('='), url: target.baseURL };
          }),
        );
      }
      if (name === 'client-guard') await signInClientGuard(context, target.baseURL, reader);
      contexts[name] = context;
    }
    const names = Object.keys(targets);
    const results = Object.fromEntries(names.map((name) => [name, []]));
    for (let r = 0; r < runs; r++) {
      const order = names.map((_, i) => names[(i + r) % names.length]);
      for (const name of order) {
        results[name].push(await loadOnce(contexts[name], targets[name].baseURL, targets[name].buildDir));
      }
      log(`  load ${r + 1}/${runs}: ` + names.map((n) => `${n} LCP ${Math.round(results[n][r].lcp)} ms`).join(', '));
    }
    const lcp = (name) => median(results[name].map((x) => x.lcp));
    const fcp = (name) => median(results[name].map((x) => x.fcp));
    const js = (name) => median(results[name].map((x) => x.jsBytes));
    const kib = (bytes) => round(bytes / 1024, 1);
    // The portal's median over the peer's, with the interval of the loads resampled as pairs.
    const ratio = (key, field, peer) =>
      ratioWithInterval(
        key,
        results.portal.map((load) => load[field]),
        results[peer].map((load) => load[field]),
        { of: 'ratioOfMedians' },
      );
    return {
      'client.doc_page': DOC_PATH,
      'client.doc_page_js_kib': kib(js('portal')),
      'client.doc_page_js_kib_ungated': kib(js('ungated')),
      'client.doc_page_js_kib_client_guard': kib(js('client-guard')),
      'client.doc_page_js_files': results.portal[0].jsFiles,
      ...ratio('client.doc_page_js_vs_ungated', 'jsBytes', 'ungated'),
      ...ratio('client.doc_page_js_vs_client_guard', 'jsBytes', 'client-guard'),
      'client.lcp_ms': Math.round(lcp('portal')),
      'client.lcp_ms_ungated': Math.round(lcp('ungated')),
      'client.lcp_ms_client_guard': Math.round(lcp('client-guard')),
      'client.fcp_ms': Math.round(fcp('portal')),
      'client.fcp_ms_ungated': Math.round(fcp('ungated')),
      'client.fcp_ms_client_guard': Math.round(fcp('client-guard')),
      ...ratio('client.lcp_vs_ungated', 'lcp', 'ungated'),
      ...ratio('client.lcp_vs_client_guard', 'lcp', 'client-guard'),
      'client.loads_per_build': runs,
    };
  } finally {
    await browser.close();
  }
}
