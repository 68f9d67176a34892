// What a release hook runs (the gate's SOURCES_REBUILD_COMMAND): syncs the named sources,
// builds the site into a new folder beside the served one, and swaps the two folders only
// when that build has finished, so a failed build leaves site/build as it was. The gate
// then reads the new folder and serves it, on every replica (server/src/sources/rebuilds.ts).
// When the sync changed nothing the served build was made from, it builds nothing and
// exits with UNCHANGED_EXIT_CODE; when the build fails with a new release, it is built again
// without it (buildOrRefuse).
//
//   node scripts/rebuild.mjs --only=<source id>[,<source id>…]
//   node scripts/rebuild.mjs --archive    the newest releases' archive, run after a served
//                                         rebuild (the gate's SOURCES_ARCHIVE_COMMAND)
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { readState, refuseReleases, restoreState, sourceFingerprint } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

import { archiveReleases, buildSite, builtSourcesFile, markBuilt, siteDir, syncSources } from './build-if-stale.mjs';

const served = join(siteDir, 'build');
const next = join(siteDir, 'build.next');
const previous = join(siteDir, 'build.previous');

/** The gate's `UNCHANGED_EXIT_CODE` (server/src/sources/rebuilds.ts): built nothing, serve what is served. */
export const UNCHANGED_EXIT_CODE = 3;

/**
 * Syncs the sources `only` names and returns those whose cached state now differs from what
 * the served build was made from (`record`, written after each build): all of them when
 * there is no served build or no record. Compared with the record, not with the cache before
 * this sync, so a sync whose build then failed is built by the next hook. A source whose
 * registry or repository could not be reached fails the rebuild: the release its hook
 * announced was not fetched, which is not "nothing changed".
 */
export async function syncForRebuild({ only, paths = syncPaths({ siteDir }), record = builtSourcesFile, built, log }) {
  await syncSources({ only, force: true, paths, log });
  const made = built ? readRecord(record) : null;
  const state = readState(paths.cacheDir);
  const unreachable = only.filter((id) => state?.sources[id]?.offline);
  if (unreachable.length > 0)
    throw new Error(
      `${unreachable.join(', ')}: the registry or repository could not be reached (the messages above say why), so the release was not fetched; nothing was built and site/build is unchanged.`,
    );
  return only.filter((id) => made?.[id]?.fingerprint !== sourceFingerprint(state, id, paths.cacheDir));
}

/** What the served build was made from (recordBuiltSources), or null when it has no record. */
function readRecord(record) {
  try {
    return JSON.parse(readFileSync(record, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Runs `build`; when it fails, a bad release costs its own section, not the portal: the
 * releases of the `changed` sources that the served build was not made from are refused
 * ("the site build failed with it"), those sources synced again without them (the release
 * before each takes its place, as for a release the trust boundary refuses) and the build run
 * once more. When that fails too the fault is not the releases': the refusals are taken back
 * and the first error is thrown. Answers the releases refused.
 */
export async function buildOrRefuse({
  changed,
  build,
  paths = syncPaths({ siteDir }),
  record = builtSourcesFile,
  log = console.log,
}) {
  try {
    build();
    return [];
  } catch (error) {
    const made = readRecord(record);
    const state = readState(paths.cacheDir);
    const fresh = changed.flatMap((source) =>
      (state?.sources[source]?.versions ?? [])
        .filter(({ version }) => !made?.[source]?.versions?.includes(version))
        .map(({ version }) => ({ source, version })),
    );
    if (fresh.length === 0) throw error;
    const named = fresh.map(({ source, version }) => `${source} ${version}`).join(', ');
    log(`The site build failed; building again without the new releases ${named}…`);
    const before = refuseReleases(
      paths.cacheDir,
      fresh.map((release) => ({
        ...release,
        reason: "the site build failed with it (the rebuild's output says where)",
      })),
    );
    try {
      await syncSources({ only: changed, force: true, paths, log });
      build();
    } catch {
      restoreState(paths.cacheDir, before);
      throw error;
    }
    log(`Built without ${named}: they are shown as not published in /admin/sources.`);
    return fresh;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    const { values } = parseArgs({ options: { only: { type: 'string' }, archive: { type: 'boolean' } } });
    if (values.archive) {
      archiveReleases();
      process.exit(0);
    }
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
      await buildOrRefuse({ changed, build: () => buildSite('build.next') });
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
