// What a release hook runs (the gate's SOURCES_REBUILD_COMMAND): syncs the named sources,
// builds the site into a new folder beside the served one, and swaps the two folders only
// when that build has finished, so a failed build leaves site/build as it was. The gate
// then reads the new folder and serves it, on every replica (server/src/sources/rebuilds.ts).
//
//   node scripts/rebuild.mjs --only=<source id>[,<source id>…]
import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { buildSite, markBuilt, syncSources } from './build-if-stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const siteDir = join(root, 'site');
const served = join(siteDir, 'build');
const next = join(siteDir, 'build.next');
const previous = join(siteDir, 'build.previous');

try {
  const { values } = parseArgs({ options: { only: { type: 'string' } } });
  const only = values.only?.split(',').filter(Boolean);
  if (!only?.length) throw new Error('Name the sources to sync: node scripts/rebuild.mjs --only=<source id>');
  await syncSources({ only, force: true });
  rmSync(next, { recursive: true, force: true });
  console.log('Building the site into site/build.next…');
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
