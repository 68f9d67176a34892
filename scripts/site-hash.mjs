import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { loadSources, readState } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

/** What the built site is made from: content, theme and plugins (the gate's build step among them), configuration, the access policy, the manifest's format, the search module and the lockfile. */
const sources = [
  'site/docs',
  'site/sources',
  'site/sources.yaml',
  'site/blog',
  'site/src',
  'site/static',
  'site/docusaurus.config.ts',
  'site/sidebars.ts',
  'site/site.facts.json',
  'site/package.json',
  'packages/access',
  'packages/contract/src',
  'packages/built-site',
  'packages/search',
  'packages/sync',
  'package-lock.json',
];

function* walk(path, skip) {
  let entries;
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOTDIR') {
      yield path;
      return;
    }
    if (error.code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === 'node_modules' || skip.has(join(path, entry.name))) continue;
    yield* walk(join(path, entry.name), skip);
  }
}

/**
 * A digest of every file the build reads, so a stale build is noticed after any edit or
 * checkout: the synced sections by what the content cache holds of them (each version's
 * files as fetched), not by the pages the build writes from it into site/docs.
 */
export function siteSourceHash(root, env = process.env) {
  const hash = createHash('sha256');
  const paths = syncPaths({ siteDir: join(root, 'site') });
  const loaded = loadSources(paths.sourcesFile, { siteDir: paths.siteDir });
  const synced = loaded.sources.filter((source) => source.kind !== 'local');
  const skip = new Set(synced.map((source) => join(paths.siteDir, 'docs', source.section)));
  // A package's dist/ is what the type check makes of it (its declarations), not what the site bundles.
  for (const source of sources) if (source.startsWith('packages/')) skip.add(join(root, source, 'dist'));
  for (const source of sources) {
    for (const file of walk(join(root, source), skip)) {
      hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  // The public address the build writes into canonical links, og:url, the sitemap and the
  // feeds (site/src/site-url.ts reads the same settings, with the same default).
  hash.update(`site-url\0${env.SITE_URL || env.PUBLIC_URL || 'http://localhost:3000'}\0`);
  const state = readState(paths.cacheDir);
  for (const source of synced) {
    const cached = state?.sources[source.id];
    hash.update(JSON.stringify({ releases: cached?.releases, versions: cached?.versions }));
    for (const version of cached?.versions ?? []) {
      for (const file of walk(join(paths.cacheDir, version.dir), new Set())) hash.update(readFileSync(file));
    }
  }
  return hash.digest('hex');
}
