// `npm run bench` (full) and `npm run bench -- --quick`: every figure with a goal is a ratio
// against a peer measured in the same run, in interleaved rounds, with the bootstrap 95 %
// interval of its rounds (bench/stats.mjs). Absolute figures are reported beside the ratios
// and never asserted. Writes bench/results/latest.json and the tables in
// docs/performance.md, which says what each peer is.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import closeWithGrace from 'close-with-grace';
import { policy, readersOf, unitsOfGroups } from '@portal/access';

import { buildServer, buildSiteIfStale, syncSources } from '../scripts/build-if-stale.mjs';
import { assertChromiumInstalled } from '../scripts/chromium.mjs';
import { signInWithPassword, startSession } from '../scripts/portal-client.mjs';
import { readSeed, seedReaders, startAuthEmulator } from '../tools/lib/emulator.mjs';
import { measureBuilds, measureGrowth } from './build.mjs';
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
import { addVerdicts, renderPerformance } from './report.mjs';
import { measureDialog, measureRelevance, measureSearch, QUERIES } from './search.mjs';
import { HELD_OUT, TUNING } from './search-questions.mjs';
import { measureReference } from './reference.mjs';
import { measureReleases } from './releases.mjs';
import { measureSources } from './sources.mjs';
import { measureStorage } from './storage.mjs';
import { measureWhatsNew } from './whats-new.mjs';

// What `npm run bench` runs, and the parts that run only when named: a full run fits in 20
// minutes on the two-core machine (docs/operations.md gives each part's time).
const DEFAULT_PARTS = ['client', 'lighthouse', 'gate', 'search', 'agents', 'admin', 'whatsnew'];
const NAMED_PARTS = ['build', 'growth', 'sources', 'releases', 'reference', 'storage', 'startup'];
const PARTS = [...DEFAULT_PARTS, ...NAMED_PARTS];
const USAGE = `usage: node bench/run.mjs [--quick] [--only=${PARTS.join(',')}]
  (no flag)      the parts ${DEFAULT_PARTS.join(', ')}; writes bench/results/latest.json and docs/performance.md
  --quick        the same parts with fewer rounds
  --only=a,b     only these parts, ${NAMED_PARTS.join(', ')} among them; writes bench/results/partial.json
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
const wanted = (part) => (only ? only.includes(part) : DEFAULT_PARTS.includes(part));
const buildDir = join(root, 'site', 'build');
const started = Date.now();
const log = (line) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);

// Rounds and sizes per part. Every ratio's interval comes from its rounds, so a part keeps
// as many as fit; --quick keeps one or a few, and a single round has no interval.
const plan = quick
  ? {
      buildRounds: 1,
      growthRounds: 1,
      sourcesRounds: 1,
      releaseRounds: 2,
      referenceRounds: 1,
      loads: 3,
      gateRounds: 3,
      gateSeconds: 1,
      agentRounds: 2,
      agentSeconds: 2,
      agentRepeats: 3,
      lighthouseRuns: 1,
      searchRepeats: 3,
      dialogRounds: 1,
      storageRows: 200_000,
      startupRuns: 2,
    }
  : {
      buildRounds: 2,
      growthRounds: 2,
      sourcesRounds: 2,
      releaseRounds: 5,
      referenceRounds: 3,
      loads: 10,
      gateRounds: 10,
      gateSeconds: 2,
      agentRounds: 3,
      agentSeconds: 3,
      agentRepeats: 10,
      lighthouseRuns: 3,
      searchRepeats: 5,
      dialogRounds: 2,
      storageRows: 1_000_000,
      startupRuns: 5,
    };

const tools = ensureTools();
assertChromiumInstalled();
buildServer();
await syncSources();
buildSiteIfStale();
mkdirSync(workDir, { recursive: true });

const results = {
  meta: {
    command: `npm run bench${quick ? ' -- --quick' : ''}${only ? ` -- --only=${only.join(',')}` : ''}`,
    measuredAt: new Date().toISOString(),
    machine: `${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
    quick,
    // Seconds each part took, as it ran in this run.
    parts: {},
  },
};

/** Runs one part if it is wanted, timing it into `results.meta.parts`. */
async function part(name, measure) {
  if (!wanted(name)) return;
  const partStarted = Date.now();
  Object.assign(results, await measure());
  results.meta.parts[name] = Math.round((Date.now() - partStarted) / 1000);
}

// A run that fails part-way keeps what it measured (bench/results/unfinished.json).
let finished = false;
process.on('exit', () => {
  if (finished) return;
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  writeFileSync(join(root, 'bench', 'results', 'unfinished.json'), JSON.stringify(results, null, 2) + '\n');
});

// Builds first, while nothing else runs.
await part('build', () => {
  log(`Build: portal with Faster vs webpack × ${plan.buildRounds}`);
  return measureBuilds({ rounds: plan.buildRounds, log });
});
await part('growth', () => {
  log(`Build growth: 500 and 2,000 generated pages × ${plan.growthRounds}`);
  return measureGrowth({ rounds: plan.growthRounds, log });
});
await part('sources', () => {
  log(
    `Package sources: a sync with nothing changed, the build with every synced version vs the newest only, and the rebuild after a release vs a full build × ${plan.sourcesRounds}`,
  );
  return measureSources({ rounds: plan.sourcesRounds, log });
});
await part('reference', () => {
  log(`API reference: the full build with it vs without it × ${plan.referenceRounds}`);
  return measureReference({ rounds: plan.referenceRounds, log });
});

const needsGate = ['client', 'lighthouse', 'gate', 'search', 'agents', 'admin', 'startup', 'releases'].some(wanted);
const emulator = needsGate ? await startAuthEmulator() : null;
// One secret for every gate server this run starts, so one session works on all of them.
// The admin list is timed with 200 calls in a row: more than an administrator's limit.
const gateEnv = { SESSION_SECRET: randomBytes(32).toString('hex'), ADMIN_RATE_LIMIT: '100000' };
const stoppers = [];
// Ctrl-C mid-run: the servers close and the emulator's folder goes before the run ends
// (the exit handler above keeps what was measured).
closeWithGrace({ delay: 30_000 }, async ({ err }) => {
  if (err) console.error(err);
  for (const stop of stoppers) await stop();
  await emulator?.stop();
});
if (emulator) {
  try {
    await measureWithGates();
  } finally {
    for (const stop of stoppers) await stop();
    await emulator.stop();
  }
}

async function measureWithGates() {
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
    const peersStarted = Date.now();
    log('Peers: ungated and client-guard builds of the same sources');
    const authConfig = await (await fetch(`${portal.baseURL}/api/auth-config`)).json();
    const builds = await buildPeers({ authConfig, log });
    peers = { builds };
    peers.ungated = await startGate({ siteDir: builds.ungated, emulatorHost: emulator.host, env: gateEnv });
    stoppers.push(peers.ungated.stop);
    peers.guard = await startGate({ siteDir: builds['client-guard'], emulatorHost: emulator.host, env: gateEnv });
    stoppers.push(peers.guard.stop);
    results.meta.parts.peers = Math.round((Date.now() - peersStarted) / 1000);
  }

  await part('client', async () => {
    log(`Client: JS weight and LCP of ${DOC_PATH}, ${plan.loads} cold loads each`);
    return measureClient({
      targets: {
        portal: { baseURL: portal.baseURL, buildDir, cookie: await signedInCookies(portal.baseURL, cookie) },
        ungated: { baseURL: peers.ungated.baseURL, buildDir: peers.builds.ungated },
        'client-guard': { baseURL: peers.guard.baseURL, buildDir: peers.builds['client-guard'] },
      },
      reader,
      runs: plan.loads,
      log,
    });
  });

  await part('lighthouse', async () => {
    const { measureLighthouse, PAGES } = await import('./lighthouse.mjs');
    log(
      `Lighthouse: ${Object.keys(PAGES).length} pages and the ungated doc page × desktop and mobile × ${plan.lighthouseRuns}`,
    );
    return measureLighthouse({
      baseURL: portal.baseURL,
      cookie: await signedInCookies(portal.baseURL, cookie),
      // The refusal page as a partner meets it (bench/lighthouse.mjs PAGES.refusal).
      refusalCookie: await signedInCookies(portal.baseURL, partnerCookie),
      runs: plan.lighthouseRuns,
      peers: { doc_ungated: { baseURL: peers.ungated.baseURL, path: PAGES.doc, peerOf: 'doc' } },
      log,
    });
  });

  if (peers) {
    await peers.ungated.stop();
    await peers.guard.stop();
  }

  await part('releases', () => {
    log(
      `Releases: a builder and three gates on PostgreSQL, Redis and s3rver; a first release, then ${plan.releaseRounds} timed`,
    );
    return measureReleases({ rounds: plan.releaseRounds, emulator, gateEnv, log });
  });

  await part('startup', async () => {
    const { measureStartup } = await import('./startup.mjs');
    return measureStartup({
      emulatorHost: emulator.host,
      env: gateEnv,
      cookie: await signedInCookies(portal.baseURL, cookie),
      runs: plan.startupRuns,
      log,
    });
  });

  await part('gate', async () => {
    log(
      `Gate: private vs public vs nginx vs Node.js http, and without each speed-up, ${plan.gateRounds} rounds of ${plan.gateSeconds} s`,
    );
    const twinDir = twinSite(buildDir, DOC_PATH);
    const gateOf = (env) => startGate({ siteDir: twinDir, emulatorHost: emulator.host, env: { ...gateEnv, ...env } });
    // Started together: each waits mostly for its own database to open.
    const variants = {
      private: gateOf({}),
      private_unrecorded: gateOf({ AUDIT_PAGE_VIEWS: 'false' }),
      private_no_fast_path: gateOf({ GATE_FAST_PATH: 'off' }),
    };
    const outcomes = await Promise.allSettled(Object.values(variants));
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) {
      for (const outcome of outcomes) if (outcome.status === 'fulfilled') await outcome.value.stop();
      throw failed.reason;
    }
    const gates = Object.fromEntries(Object.keys(variants).map((name, index) => [name, outcomes[index].value]));
    const nginx = await startNginx(tools.nginx, buildDir);
    let nodeHttp = null;
    try {
      // Issue 30's reader: an organisation licensed for 20 units, made on every gate.
      const gateCookie = await licensedReader({
        baseURLs: Object.values(gates).map((gate) => gate.baseURL),
        adminCookie,
        emulator,
        id: 'gate-twenty',
        units: licensed.slice(0, 20),
      });
      // The peer answers with what the gate answered the reader for the private page.
      nodeHttp = await startNodeHttpPeer(gates.private.baseURL + DOC_PATH, {
        'Accept-Encoding': 'gzip',
        Cookie: gateCookie,
      });
      return await measureGate({
        gates: Object.fromEntries(
          Object.entries(gates).map(([name, gate]) => [name, { url: gate.baseURL, pid: gate.pid }]),
        ),
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
      });
    } finally {
      for (const gate of Object.values(gates)) await gate.stop();
      await nginx.stop();
      await nodeHttp?.stop();
    }
  });

  await part('search', async () => {
    log(`Search: ${QUERIES.length} queries × ${plan.searchRepeats} rounds, as a partner over the merged bundles`);
    const figures = await measureSearch({
      baseURL: portal.baseURL,
      cookie: partnerCookie,
      reader: 'the partner group',
      units: unitsOfGroups(partner.groups),
      buildDir,
      repeats: plan.searchRepeats,
    });
    log(`Search box: the first query after the dialog opens and the next ones, ${plan.dialogRounds} fresh browsers`);
    Object.assign(
      figures,
      await measureDialog({ baseURL: portal.baseURL, cookie: partnerCookie, rounds: plan.dialogRounds }),
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
    const asLicensed = (found) =>
      Object.fromEntries(
        Object.entries(found).map(([key, value]) => [key.replace(/^search\./, 'search.licensed.'), value]),
      );
    Object.assign(
      figures,
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
      asLicensed(await measureDialog({ baseURL: portal.baseURL, cookie: licensedCookie, rounds: plan.dialogRounds })),
    );
    log(`Search relevance: ${TUNING.length} tuning and ${HELD_OUT.length} held-out questions, as staff (every page)`);
    // The demo staff reader is staff by the policy's e-mail-domain rule, without a groups claim.
    Object.assign(
      figures,
      await measureRelevance({ baseURL: portal.baseURL, cookie, groups: reader.groups ?? ['staff'] }),
    );
    return figures;
  });

  await part('agents', async () => {
    log('Agents: MCP tools and the search API with a token; token vs session on the same Markdown');
    // Page views off, so the two reads differ only in the check; a token limit wrk cannot reach.
    const agents = await startGate({
      siteDir: buildDir,
      emulatorHost: emulator.host,
      env: { ...gateEnv, AUDIT_PAGE_VIEWS: 'false', TOKEN_RATE_LIMIT: '1000000' },
    });
    try {
      return await measureAgents({
        baseURL: agents.baseURL,
        cookie: partnerCookie,
        docPath: DOC_PATH,
        wrkPath: tools.wrk,
        rounds: plan.agentRounds,
        seconds: plan.agentSeconds,
        repeats: plan.agentRepeats,
        log,
      });
    } finally {
      await agents.stop();
    }
  });

  await part('admin', async () => {
    log(`Admin: a page of 50 readers out of 10,000 in ${ORGANISATIONS} organisations`);
    await addReaders(emulator, 10_000);
    await addOrganisations({ baseURL: portal.baseURL, cookie: adminCookie, units: licensable });
    return {
      ...(await measureAdminList({ baseURL: portal.baseURL, cookie: adminCookie, log })),
      ...(await measureImport({ baseURL: portal.baseURL, cookie: adminCookie, log })),
    };
  });
}

await part('storage', () => {
  log(`Storage: ${plan.storageRows.toLocaleString('en')} page views on PGlite and on PostgreSQL`);
  return measureStorage({ rows: plan.storageRows, log });
});

await part('whatsnew', () => {
  log(`What's new: a reader of 25 packages with 10,000 page views, on PGlite and on PostgreSQL`);
  return measureWhatsNew({ log });
});

results.meta.seconds = Math.round((Date.now() - started) / 1000);
addVerdicts(results);
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
