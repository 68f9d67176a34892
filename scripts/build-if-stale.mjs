// Builds what `npm start` and the browser tests serve, skipping the site build when
// nothing it is made from changed: the gate server (TypeScript, a few seconds), then the
// Docusaurus site, whose gate-files plugin writes the manifest of public and private files.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { isCurrent, loadSources, readState, sourceFingerprint, sync } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

import { siteSourceHash } from './site-hash.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * The site folder: site/, or a copy of it inside the repository that PORTAL_SITE_DIR names
 * (test:deploy's builder builds one with a sources file and a content cache of its own).
 */
export const siteDir = process.env.PORTAL_SITE_DIR ? resolve(root, process.env.PORTAL_SITE_DIR) : join(root, 'site');
const docusaurusBin = join(root, 'node_modules', '@docusaurus', 'core', 'bin', 'docusaurus.mjs');
// Kept beside the build, not in it: everything in build/ is served.
const stampFile = join(siteDir, '.docusaurus', 'portal-build.sha256');
/** What each synced source was, by its fingerprint, when site/build was made (scripts/rebuild.mjs reads it). */
export const builtSourcesFile = join(siteDir, '.docusaurus', 'portal-build.sources.json');

function run(args, what, { quiet = false, cwd = root } = {}) {
  const result = spawnSync(args[0], args.slice(1), {
    cwd,
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
  });
  if (result.status !== 0) throw new Error(`${what} failed (exit code ${result.status}); see the messages above.`);
}

export function buildServer({ quiet = false } = {}) {
  run(['npm', 'run', 'build', '--workspace', 'server'], 'The server build', { quiet });
}

/**
 * Fetches the package sections of site/sources.yaml into the content cache when the cache
 * was not made from this sources file (first run, or the file changed), or always with
 * `force`. Without a network it keeps what the cache holds and says so; with neither, it
 * fails naming the source.
 */
export async function syncSources({ only, force = false, log = console.log, paths = syncPaths({ siteDir }) } = {}) {
  const loaded = loadSources(paths.sourcesFile, { siteDir: paths.siteDir });
  if (!force && isCurrent(readState(paths.cacheDir), loaded)) return;
  log(
    force
      ? 'Syncing the package sections…'
      : "The sources file or the API reference's format is new or changed: syncing the package sections…",
  );
  const started = Date.now();
  const state = await sync(loaded, { cacheDir: paths.cacheDir, root: paths.root, only, log });
  log(
    `Synced in ${((Date.now() - started) / 1000).toFixed(1)} s${state.offline ? ' (offline: some sections come from the cache)' : ''}.`,
  );
}

export function buildSiteIfStale({ log = console.log } = {}) {
  const hash = siteSourceHash(root);
  const built = existsSync(join(siteDir, 'build', 'portal-manifest.json'));
  if (built && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash) {
    log('Site build is up to date.');
    return;
  }
  log(built ? 'Site sources changed: rebuilding the site…' : 'No site build yet: building the site…');
  buildSite();
  markBuilt(hash);
}

/** The Docusaurus build of the site folder into `outDir` (a folder of it), which the gate-files plugin prepares for the gate. */
export function buildSite(outDir = 'build') {
  run([process.execPath, docusaurusBin, 'build', '--out-dir', outDir], 'The site build', { cwd: siteDir });
}

/**
 * Docusaurus's `archive-releases` in the site folder: the newest release of each package
 * archived ahead of the release that will replace it (the gate's SOURCES_ARCHIVE_COMMAND).
 */
export function archiveReleases() {
  run([process.execPath, docusaurusBin, 'archive-releases'], 'The archive of the newest releases', { cwd: siteDir });
}

/** Records that site/build is made from the sources whose hash is `hash` (now's, by default), and from each synced source as the cache holds it now. */
export function markBuilt(hash = siteSourceHash(root)) {
  writeFileSync(stampFile, hash);
  recordBuiltSources();
}

/** The fingerprint and the published versions of every source of the content cache, as the build just made read them. */
export function recordBuiltSources({ paths = syncPaths({ siteDir }), file = builtSourcesFile } = {}) {
  const state = readState(paths.cacheDir);
  const record = Object.fromEntries(
    Object.entries(state?.sources ?? {}).map(([id, source]) => [
      id,
      {
        fingerprint: sourceFingerprint(state, id, paths.cacheDir),
        versions: (source.versions ?? []).map((version) => version.version),
      },
    ]),
  );
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    buildServer();
    await syncSources();
    buildSiteIfStale();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
