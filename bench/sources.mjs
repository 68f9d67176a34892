// The synced package sections (site/sources.yaml): a sync with nothing changed, and the cold
// build of the portal with every version the sources publish against the same portal with
// each synced package at its newest release only, in alternating order.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadSources, readState, sync } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';
import { parse, stringify } from 'yaml';

import { coldBuild } from './build.mjs';
import { copySiteSources, median, round, workDir } from './lib.mjs';

/** A copy of the site whose synced sources publish their newest release only, with a cache of its own. */
function newestOnlySite(latest) {
  const dir = copySiteSources(join(workDir, 'sources-newest'));
  const file = join(dir, 'sources.yaml');
  const data = parse(readFileSync(file, 'utf8'));
  for (const source of data.sources) if (latest[source.id]) source.versions = `>=${latest[source.id]}`;
  writeFileSync(file, stringify(data));
  return dir;
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

  const all = copySiteSources(join(workDir, 'sources-all'));
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
  const allS = median(runs.all.map((run) => run.wallMs)) / 1000;
  const newestS = median(runs.newest.map((run) => run.wallMs)) / 1000;
  return {
    'sources.sync_nochange_ms': round(median(noChange), 0),
    'sources.versions': versions,
    'sources.build_rounds': rounds,
    'sources.build_all_s': round(allS, 1),
    'sources.build_newest_s': round(newestS, 1),
    'sources.build_all_pages': runs.all[0]?.pages,
    'sources.build_newest_pages': runs.newest[0]?.pages,
    'sources.all_vs_newest_build': round(allS / newestS, 3),
    'sources.all_vs_newest_spread': runs.all.map((run, index) => round(run.wallMs / runs.newest[index].wallMs, 3)),
  };
}
