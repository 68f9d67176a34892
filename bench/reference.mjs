// The API reference's cost on a full build: the portal built cold with the gate-files step
// (as `npm run build` makes what the gate serves), with the reference pages of every synced
// version, against the same copy built from a copy of the content cache without the
// references (no api/ pages: the sidebar names them only when the cache has them), in
// alternating order. The sync's TypeDoc run is not in either: it runs once per release, at sync.
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { syncPaths } from '@portal/sync/paths';

import { coldBuild, comparedBuilds } from './build.mjs';
import { copySiteSources, workDir } from './lib.mjs';

/** A copy of the content cache whose state names no API reference. */
function cacheWithoutReference() {
  const dir = join(workDir, 'reference-off-cache');
  rmSync(dir, { recursive: true, force: true });
  cpSync(syncPaths().cacheDir, dir, { recursive: true });
  const file = join(dir, 'state.json');
  const state = JSON.parse(readFileSync(file, 'utf8'));
  for (const source of Object.values(state.sources)) delete source.api;
  writeFileSync(file, JSON.stringify(state, null, 2));
  return dir;
}

export async function measureReference({ rounds, log }) {
  const site = copySiteSources(join(workDir, 'reference'), { gateFiles: true });
  const without = cacheWithoutReference();
  const runs = { with: [], without: [] };
  for (let round_ = 0; round_ < rounds; round_++) {
    for (const which of round_ % 2 ? ['without', 'with'] : ['with', 'without']) {
      const env = which === 'with' ? {} : { PORTAL_SOURCES_CACHE: without };
      const run = await coldBuild(site, join(site, 'build'), 'faster', { env });
      runs[which].push(run);
      log(
        `  build ${round_ + 1}/${rounds} ${which} the API reference: ${(run.wallMs / 1000).toFixed(1)} s, ${run.pages} pages`,
      );
    }
  }
  return comparedBuilds('reference', runs, 'with', 'without');
}
