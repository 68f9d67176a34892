// The synced package sections (site/sources.yaml): a sync with nothing changed, and the cold
// build of the portal with every version the sources publish against the same portal with
// each synced package at its newest release only, in alternating order, both with the
// gate-files step (which places the older releases' archives: site/src/archives).
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';

import { loadSources, readState, sync } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

import { addRelease } from '../tools/lib/content-cache.mjs';
import { publishVersions } from '../tools/lib/site-copy.mjs';
import { coldBuild, comparedBuilds } from './build.mjs';
import { copySiteSources, docusaurusBin, median, round, timeCommand, workDir } from './lib.mjs';
import { ratioWithInterval } from './stats.mjs';

/** A copy of the site whose synced sources publish their newest release only, with a cache of its own. */
function newestOnlySite(latest) {
  const dir = copySiteSources(join(workDir, 'sources-newest'), { gateFiles: true });
  publishVersions(dir, Object.fromEntries(Object.entries(latest).map(([id, version]) => [id, `>=${version}`])));
  return dir;
}

/**
 * The full build (cold, with the gate-files step, as \`npm run build\` makes what the gate
 * serves) against the rebuild after one package's release (what scripts/rebuild.mjs runs
 * after a release hook: the same site with its caches, into a new folder), in the same copy.
 * Between them, what the gate runs after serving a release: the newest's archive.
 */
async function measureReleaseRebuild({ rounds, log, sourceId }) {
  const site = copySiteSources(join(workDir, 'sources-release'), { gateFiles: true });
  const cacheDir = join(workDir, 'sources-release-cache');
  rmSync(cacheDir, { recursive: true, force: true });
  cpSync(syncPaths().cacheDir, cacheDir, { recursive: true });
  const env = { PORTAL_SOURCES_CACHE: cacheDir };
  const runs = { full: [], release: [], prepared: [] };
  for (let round_ = 0; round_ < rounds; round_++) {
    const full = await coldBuild(site, join(site, 'build'), 'faster', { env });
    runs.full.push(full);
    // What the gate runs after a release is served (SOURCES_ARCHIVE_COMMAND): the newest
    // release's archive, ready for the release that replaces it. Timed apart.
    const prepared = await timeCommand(process.execPath, [docusaurusBin, 'archive-releases'], {
      cwd: site,
      env: { PORTAL_BUNDLER: 'faster', ...env },
      label: `docusaurus archive-releases in ${site}`,
    });
    const newestArchive = /Archive built in ([\d.]+) s/.exec(prepared.output);
    runs.prepared.push(newestArchive ? Number(newestArchive[1]) : 0);
    const { remove } = addRelease(cacheDir, sourceId, 'Released for the benchmark');
    try {
      const next = join(site, 'build.next');
      rmSync(next, { recursive: true, force: true });
      const release = await timeCommand(process.execPath, [docusaurusBin, 'build', '--out-dir', next], {
        cwd: site,
        env: { PORTAL_BUNDLER: 'faster', ...env },
        label: `docusaurus build after a release in ${site}`,
      });
      // The release it replaced moves to an archive of its own, built in this rebuild.
      const archived = /Archive built in ([\d.]+) s/.exec(release.output);
      runs.release.push({ ...release, archiveS: archived ? Number(archived[1]) : 0 });
    } finally {
      remove();
    }
    log(
      `  round ${round_ + 1}/${rounds}: full build ${(full.wallMs / 1000).toFixed(1)} s, rebuild after a release ${(runs.release.at(-1).wallMs / 1000).toFixed(1)} s`,
    );
  }
  const releaseVsFull = ratioWithInterval(
    'sources.release_vs_full_build',
    runs.release.map((run) => run.wallMs),
    runs.full.map((run) => run.wallMs),
    { of: 'ratioOfMedians', spreadKey: 'sources.release_vs_full_spread' },
  );
  const fullS = median(runs.full.map((run) => run.wallMs)) / 1000;
  const releaseS = median(runs.release.map((run) => run.wallMs)) / 1000;
  return {
    'sources.full_build_s': round(fullS, 1),
    'sources.release_rebuild_s': round(releaseS, 1),
    ...releaseVsFull,
    'sources.release_archive_s': round(median(runs.release.map((run) => run.archiveS)), 1),
    'sources.newest_archive_s': round(median(runs.prepared), 1),
  };
}

export async function measureSources({ rounds, log }) {
  const paths = syncPaths();
  const loaded = loadSources(paths.sourcesFile, { siteDir: paths.siteDir });
  const noChange = [];
  for (let run = 0; run < 5; run++) {
    const started = process.hrtime.bigint();
    await sync(loaded, { cacheDir: paths.cacheDir, root: paths.root });
    noChange.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  log(`  sync with nothing changed: median ${median(noChange).toFixed(0)} ms of 5`);

  const state = readState(paths.cacheDir);
  const synced = loaded.sources.filter((source) => source.kind !== 'local');
  const latest = Object.fromEntries(synced.map((source) => [source.id, state.sources[source.id].versions[0].version]));
  const versions = synced.reduce((sum, source) => sum + state.sources[source.id].versions.length, 0);

  const all = copySiteSources(join(workDir, 'sources-all'), { gateFiles: true });
  const newest = newestOnlySite(latest);
  const newestCache = join(workDir, 'sources-newest-cache');
  const newestSources = join(newest, 'sources.yaml');
  await sync(loadSources(newestSources, { siteDir: newest }), { cacheDir: newestCache, root: paths.root });
  const runs = { all: [], newest: [] };
  for (let round_ = 0; round_ < rounds; round_++) {
    for (const which of round_ % 2 ? ['newest', 'all'] : ['all', 'newest']) {
      const dir = which === 'all' ? all : newest;
      const env = which === 'all' ? {} : { PORTAL_SOURCES_CACHE: newestCache };
      const run = await coldBuild(dir, join(dir, 'build'), 'faster', { env });
      runs[which].push(run);
      log(
        `  build ${round_ + 1}/${rounds} with ${which === 'all' ? `all ${versions} synced versions` : 'the newest only'}: ${(run.wallMs / 1000).toFixed(1)} s, ${run.pages} pages`,
      );
    }
  }
  const rebuild = await measureReleaseRebuild({ rounds, log, sourceId: synced[0].id });
  return {
    'sources.sync_nochange_ms': round(median(noChange), 0),
    'sources.versions': versions,
    ...comparedBuilds('sources', runs, 'all', 'newest'),
    ...rebuild,
  };
}
