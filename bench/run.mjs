// `npm run bench` (full) and `npm run bench -- --quick`: every figure is a ratio against a
// peer measured in the same run, interleaved, median of several runs. Absolute figures are
// reported beside the ratios and never asserted. Writes bench/results/latest.json and the
// tables in docs/performance.md. See docs/performance.md for what each peer is.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import closeWithGrace from 'close-with-grace';
import { policy, readersOf, unitsOfGroups } from '@portal/access';

import { buildServer, buildSiteIfStale } from '../scripts/build-if-stale.mjs';
import { assertChromiumInstalled } from '../scripts/chromium.mjs';
import { signInWithPassword, startSession } from '../scripts/portal-client.mjs';
import { readSeed, seedReaders, startAuthEmulator } from '../tools/lib/emulator.mjs';
import { measureBuilds } from './build.mjs';
import { buildPeers, measureClient } from './client.mjs';
import {
  addOrganisations,
  addReaders,
  licensedReader,
  measureAdminList,
  measureImport,
  ORGANISATIONS,
} from './admin.mjs';
import { measureAgents } from './agents.mjs';
import { measureGate, startNginx, startNodeHttpPeer, twinSite } from './gate.mjs';
import { DOC_PATH, ensureTools, root, signedInCookies, startGate, workDir } from './lib.mjs';
import { renderPerformance } from './report.mjs';
import { measureDialog, measureRelevance, measureSearch, QUERIES } from './search.mjs';
import { HELD_OUT, TUNING } from './search-questions.mjs';
import { measureReference } from './reference.mjs';
import { measureSources } from './sources.mjs';
import { measureStorage } from './storage.mjs';

const PARTS = ['build', 'sources', 'reference', 'client', 'lighthouse', 'gate', 'search', 'agents', 'admin', 'storage'];
const USAGE = `usage: node bench/run.mjs [--quick] [--only=${PARTS.join(',')}]
  --quick        every part with fewer rounds, no 2,000-page build
  --only=a,b     only these parts; writes bench/results/partial.json, not latest.json
  --help         this text`;

let flags;
try {
  ({ values: flags } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  console.error(`${error.message}\n${USAGE}`);
  process.exit(2);
}
if (flags.help) {
  console.log(USAGE);
  process.exit(0);
}
const quick = flags.quick;
const only = flags.only?.split(',');
const unknown = only?.filter((part) => !PARTS.includes(part)) ?? [];
if (unknown.length > 0) {
  console.error(`There is no part ${unknown.join(', ')} to measure.\n${USAGE}`);
  process.exit(2);
}
const wanted = (part) => !only || only.includes(part);
const buildDir = join(root, 'site', 'build');
const started = Date.now();
const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

// How much of everything: the full run took 42 to 51 minutes on the 2-core machine this was
// written on (docs/performance.md). --quick runs fewer rounds of every part and leaves the
// 2,000-page growth build to the full run (it alone takes about two minutes there).
const plan = quick
  ? {
      buildRounds: 1,
      sourcesRounds: 1,
      referenceRounds: 1,
      growth: [500],
      loads: 3,
      gateRounds: 2,
      gateSeconds: 2,
      agentRounds: 2,
      agentSeconds: 2,
      lighthouseRuns: 1,
      searchRepeats: 3,
    }
  : {
      buildRounds: 3,
      sourcesRounds: 2,
      // Its goal lies near its figure: a median of three, not the mean of two.
      referenceRounds: 3,
      growth: [500, 2000],
      loads: 15,
      // Short runs, many rounds: each ratio is a median over rounds (bench/gate.mjs).
      gateRounds: 9,
      gateSeconds: 3,
      agentRounds: 5,
      agentSeconds: 5,
      lighthouseRuns: 5,
      searchRepeats: 10,
    };

const tools = ensureTools();
assertChromiumInstalled();
buildServer();
buildSiteIfStale();
mkdirSync(workDir, { recursive: true });

const results = {
  meta: {
    command: `npm run bench${quick ? ' -- --quick' : ''}`,
    measuredAt: new Date().toISOString(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    quick,
  },
};

// A run that fails part-way keeps what it measured (bench/results/unfinished.json).
let finished = false;
process.on('exit', () => {
  if (finished) return;
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', 'unfinished.json'), JSON.stringify(results, null, 2) + '\n');
});

// Builds first, while nothing else runs.
if (wanted('build')) {
  log(`Build: portal with Faster vs webpack × ${plan.buildRounds}, then ${plan.growth.join(' and ')} generated pages`);
  Object.assign(results, await measureBuilds({ rounds: plan.buildRounds, growth: plan.growth, log }));
}
if (wanted('sources')) {
  log(
    `Package sources: a sync with nothing changed, the build with every synced version vs the newest only, and the rebuild after a release vs a full build × ${plan.sourcesRounds}`,
  );
  Object.assign(results, await measureSources({ rounds: plan.sourcesRounds, log }));
}
if (wanted('reference')) {
  log(`API reference: the full build with it vs without it × ${plan.referenceRounds}`);
  Object.assign(results, await measureReference({ rounds: plan.referenceRounds, log }));
}

const emulator = await startAuthEmulator();
// One secret for every gate server this run starts, so one session works on all of them.
// The admin list is timed with 200 calls in a row: more than an administrator's limit.
const gateEnv = { SESSION_SECRET: randomBytes(32).toString('hex'), ADMIN_RATE_LIMIT: '100000' };
const stoppers = [];
// Ctrl-C mid-run: the servers close and the emulator's folder goes before the run ends
// (the exit handler above keeps what was measured).
closeWithGrace({ delay: 30_000 }, async ({ err }) => {
  if (err) console.error(err);
  for (const stop of stoppers) await stop();
  await emulator.stop();
});
try {
  await seedReaders(emulator.host, emulator.projectId);
  const reader = readSeed().find((r) => r.password && !r.disabled);
  const portal = await startGate({ siteDir: buildDir, emulatorHost: emulator.host, env: gateEnv });
  stoppers.push(portal.stop);
  /** A session on the portal for a demo reader of the seed file. */
  const sessionOf = async ({ email, password }) =>
    startSession(portal.baseURL, await signInWithPassword(emulator.host, email, password));
  const cookie = await sessionOf(reader);
  // Search is measured for a partner (the partner group: every product, one shelf of them
  // searched as one bundle) and, as the gate is, for a partner's developer whose
  // organisation is licensed for some units only (a bundle per unit to merge).
  const partner = readSeed().find((r) => r.role === 'partner');
  const partnerCookie = await sessionOf(partner);
  const adminCookie = await sessionOf(readSeed().find((r) => r.role === 'admin'));
  // The licensable units, the benchmark page's first: a licence of the first n reads it.
  const docUnit = readersOf(DOC_PATH)[0];
  const licensable = policy.units.filter((unit) => unit.licensable).map((unit) => unit.name);
  const licensed = [docUnit, ...licensable.filter((unit) => unit !== docUnit)];

  // The peer builds serve the client figures and the Lighthouse comparison of the doc page.
  let peers = null;
  if (wanted('client') || wanted('lighthouse')) {
    log('Peers: ungated and client-guard builds of the same sources');
    const authConfig = await (await fetch(`${portal.baseURL}/api/auth-config`)).json();
    const builds = await buildPeers({ authConfig, log });
    peers = { builds };
    peers.ungated = await startGate({ siteDir: builds.ungated, emulatorHost: emulator.host, env: gateEnv });
    stoppers.push(peers.ungated.stop);
    peers.guard = await startGate({ siteDir: builds['client-guard'], emulatorHost: emulator.host, env: gateEnv });
    stoppers.push(peers.guard.stop);
  }

  if (wanted('client')) {
    log(`Client: JS weight and LCP of ${DOC_PATH}, ${plan.loads} cold loads each`);
    Object.assign(
      results,
      await measureClient({
        targets: {
          portal: { baseURL: portal.baseURL, buildDir, cookie: await signedInCookies(portal.baseURL, cookie) },
          ungated: { baseURL: peers.ungated.baseURL, buildDir: peers.builds.ungated },
          'client-guard': { baseURL: peers.guard.baseURL, buildDir: peers.builds['client-guard'] },
        },
        reader,
        runs: plan.loads,
        log,
      }),
    );
  }

  if (wanted('lighthouse')) {
    const { measureLighthouse, PAGES } = await import('./lighthouse.mjs');
    log(
      `Lighthouse: ${Object.keys(PAGES).length} pages and the ungated doc page × desktop and mobile × ${plan.lighthouseRuns}`,
    );
    Object.assign(
      results,
      await measureLighthouse({
        baseURL: portal.baseURL,
        cookie: await signedInCookies(portal.baseURL, cookie),
        // The refusal page as a partner meets it (bench/lighthouse.mjs PAGES.refusal).
        refusalCookie: await signedInCookies(portal.baseURL, partnerCookie),
        runs: plan.lighthouseRuns,
        peers: { doc_ungated: { baseURL: peers.ungated.baseURL, path: PAGES.doc } },
        log,
      }),
    );
    for (const form of ['desktop', 'mobile']) {
      const portalScore = results[`lighthouse.doc.${form}.performance`];
      const peerScore = results[`lighthouse.doc_ungated.${form}.performance`];
      results[`lighthouse.doc.${form}.performance_vs_ungated`] = Math.round((portalScore / peerScore) * 1000) / 1000;
    }
  }

  if (peers) {
    await peers.ungated.stop();
    await peers.guard.stop();
  }

  if (wanted('gate')) {
    log(`Gate: private vs public vs nginx vs Node.js http, ${plan.gateRounds} rounds of ${plan.gateSeconds} s`);
    const twinDir = twinSite(buildDir, DOC_PATH);
    const twin = await startGate({ siteDir: twinDir, emulatorHost: emulator.host, env: gateEnv });
    const unrecorded = await startGate({
      siteDir: twinDir,
      emulatorHost: emulator.host,
      env: { ...gateEnv, AUDIT_PAGE_VIEWS: 'false' },
    });
    // Issue 30's reader: an organisation licensed for 20 units, made on both gates.
    const gateCookie = await licensedReader({
      baseURLs: [twin.baseURL, unrecorded.baseURL],
      adminCookie,
      emulator,
      id: 'gate-twenty',
      units: licensed.slice(0, 20),
    });
    const nginx = await startNginx(tools.nginx, buildDir);
    // The peer answers with what the gate answered the reader for the private page.
    const nodeHttp = await startNodeHttpPeer(twin.baseURL + DOC_PATH, {
      'Accept-Encoding': 'gzip',
      Cookie: gateCookie,
    });
    try {
      Object.assign(
        results,
        await measureGate({
          gateURL: twin.baseURL,
          unrecordedURL: unrecorded.baseURL,
          gatePid: twin.pid,
          unrecordedPid: unrecorded.pid,
          nginxURL: nginx.baseURL,
          nodeURL: nodeHttp.baseURL,
          nodePid: nodeHttp.pid,
          cookie: gateCookie,
          reader: 'a partner licensed for 20 units',
          docPath: DOC_PATH,
          wrkPath: tools.wrk,
          rounds: plan.gateRounds,
          seconds: plan.gateSeconds,
          log,
        }),
      );
    } finally {
      await twin.stop();
      await unrecorded.stop();
      await nginx.stop();
      await nodeHttp.stop();
    }
  }

  if (wanted('search')) {
    log(`Search: ${QUERIES.length} queries × ${plan.searchRepeats} rounds, as a partner over the merged bundles`);
    Object.assign(
      results,
      await measureSearch({
        baseURL: portal.baseURL,
        cookie: partnerCookie,
        reader: 'the partner group',
        units: unitsOfGroups(partner.groups),
        buildDir,
        repeats: plan.searchRepeats,
      }),
    );
    log(`Search box: the first query after the dialog opens and the next ones, ${quick ? 2 : 5} fresh browsers`);
    Object.assign(
      results,
      await measureDialog({ baseURL: portal.baseURL, cookie: partnerCookie, rounds: quick ? 2 : 5 }),
    );
    // Issue 30's reader: an organisation licensed for 25 units, a bundle for each.
    log('Search: the same, as a partner licensed for 25 units, and the search box’s first query');
    const searchUnits = licensed.slice(0, 25);
    const licensedCookie = await licensedReader({
      baseURLs: [portal.baseURL],
      adminCookie,
      emulator,
      id: 'search-twenty-five',
      units: searchUnits,
    });
    const asLicensed = (figures) =>
      Object.fromEntries(
        Object.entries(figures).map(([key, value]) => [key.replace(/^search\./, 'search.licensed.'), value]),
      );
    Object.assign(
      results,
      asLicensed(
        await measureSearch({
          baseURL: portal.baseURL,
          cookie: licensedCookie,
          reader: 'a partner licensed for 25 units',
          units: searchUnits,
          buildDir,
          repeats: plan.searchRepeats,
        }),
      ),
      asLicensed(await measureDialog({ baseURL: portal.baseURL, cookie: licensedCookie, rounds: quick ? 2 : 3 })),
    );
    log(`Search relevance: ${TUNING.length} tuning and ${HELD_OUT.length} held-out questions, as staff (every page)`);
    Object.assign(
      results,
      // The demo staff reader is staff by the policy's e-mail-domain rule, without a groups claim.
      await measureRelevance({ baseURL: portal.baseURL, cookie, groups: reader.groups ?? ['staff'] }),
    );
  }
  if (wanted('agents')) {
    log('Agents: MCP tools and the search API with a token; token vs session on the same Markdown');
    // Page views off, so the two reads differ only in the check; a token limit wrk cannot reach.
    const agents = await startGate({
      siteDir: buildDir,
      emulatorHost: emulator.host,
      env: { ...gateEnv, AUDIT_PAGE_VIEWS: 'false', TOKEN_RATE_LIMIT: '1000000' },
    });
    try {
      Object.assign(
        results,
        await measureAgents({
          baseURL: agents.baseURL,
          cookie: partnerCookie,
          docPath: DOC_PATH,
          wrkPath: tools.wrk,
          rounds: plan.agentRounds,
          seconds: plan.agentSeconds,
          repeats: plan.searchRepeats,
          log,
        }),
      );
    } finally {
      await agents.stop();
    }
  }
  if (wanted('admin')) {
    log(`Admin: a page of 50 readers out of 10,000 in ${ORGANISATIONS} organisations`);
    await addReaders(emulator, 10_000);
    await addOrganisations({ baseURL: portal.baseURL, cookie: adminCookie, units: licensable });
    Object.assign(results, await measureAdminList({ baseURL: portal.baseURL, cookie: adminCookie, log }));
    Object.assign(results, await measureImport({ baseURL: portal.baseURL, cookie: adminCookie, log }));
  }
} finally {
  for (const stop of stoppers) await stop();
  await emulator.stop();
}

if (wanted('storage')) {
  log(`Storage: ${quick ? '200,000' : '1,000,000'} page views on PGlite and on PostgreSQL`);
  Object.assign(results, await measureStorage({ rows: quick ? 200_000 : 1_000_000, log }));
}

results.meta.seconds = Math.round((Date.now() - started) / 1000);
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const resultsFile = join(root, 'bench', 'results', only ? 'partial.json' : 'latest.json');
writeFileSync(resultsFile, JSON.stringify(results, null, 2) + '\n');
if (!only) {
  const performance = join(root, 'docs/performance.md');
  writeFileSync(performance, await renderPerformance(readFileSync(performance, 'utf8'), results));
  for (const dir of ['build-portal', 'peer-ungated', 'peer-client-guard', 'gate-site', 'nginx', 'node-http-peer']) {
    if (existsSync(join(workDir, dir))) rmSync(join(workDir, dir), { recursive: true, force: true });
  }
}
finished = true;
log(`Done in ${results.meta.seconds} s: ${resultsFile}${only ? '' : ' and docs/performance.md'}`);
