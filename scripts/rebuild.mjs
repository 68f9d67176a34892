// What a release hook runs (the gate's SOURCES_REBUILD_COMMAND): syncs the named sources,
// builds the site into a new folder beside the served one, and swaps the two folders only
// when that build has finished, so a failed build leaves site/build as it was. The gate
// then reads the new folder and serves it, on every replica (server/src/sources/rebuilds.ts).
// When the sync changed nothing the served build was made from, it builds nothing and
// exits with UNCHANGED_EXIT_CODE.
//
//   node scripts/rebuild.mjs --only=<source id>[,<source id>…]
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { readState, sourceFingerprint } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

import { buildSite, builtSourcesFile, markBuilt, syncSources } from './build-if-stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const siteDir = join(root, 'site');
const served = join(siteDir, 'build');
const next = join(siteDir, 'build.next');
const previous = join(siteDir, 'build.previous');

/** The gate's `UNCHANGED_EXIT_CODE` (server/src/sources/rebuilds.ts): built nothing, serve what is served. */
export const UNCHANGED_EXIT_CODE = 3;

/**
 * Syncs the sources `only` names and returns those whose cached state now differs from what
 * the served build was made from (`record`, written after each build): all of them when
 * there is no served build or no record. Compared with the record, not with the cache before
 * this sync, so a sync whose build then failed is built by the next hook.
 */
export async function syncForRebuild({ only, paths = syncPaths(), record = builtSourcesFile, built, log }) {
  await syncSources({ only, force: true, paths, log });
  let made = null;
  try {
    made = built ? JSON.parse(readFileSync(record, 'utf8')) : null;
  } catch {
    // No record: the served build was made some other way.
  }
  const state = readState(paths.cacheDir);
  return only.filter((id) => made?.[id] !== sourceFingerprint(state, id, paths.cacheDir));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const { values } = parseArgs({ options: { only: { type: 'string' } } });
    const only = values.only?.split(',').filter(Boolean);
    if (!only?.length) throw new Error('Name the sources to sync: node scripts/rebuild.mjs --only=<source id>');
    const changed = await syncForRebuild({ only, built: existsSync(join(served, 'portal-manifest.json')) });
    if (changed.length === 0) {
      console.log(`The sync changed nothing site/build was made from (${only.join(', ')}): nothing to build.`);
      process.exit(UNCHANGED_EXIT_CODE);
    }
    rmSync(next, { recursive: true, force: true });
    console.log(`Building the site into site/build.next (${changed.join(', ')} changed)…`);
    const started = Date.now();
    try {
      buildSite('build.next');
    } catch (error) {
      throw new Error(`${error.message} site/build is unchanged.`);
    }
    if (!existsSync(join(next, 'portal-manifest.json')))
      throw new Error('The site build wrote no portal-manifest.json; site/build is unchanged.');
    // The swap: two renames in one folder; the gate holds the served build in memory meanwhile.
    rmSync(previous, { recursive: true, force: true });
    if (existsSync(served)) renameSync(served, previous);
    renameSync(next, served);
    rmSync(previous, { recursive: true, force: true });
    markBuilt();
    console.log(`Built and swapped in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
