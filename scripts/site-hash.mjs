import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What the prepared site is made from: content, theme, configuration, the access policy, the gate's build step and the lockfile. */
const sources = [
  'site/docs',
  'site/blog',
  'site/src',
  'site/static',
  'site/docusaurus.config.ts',
  'site/sidebars.ts',
  'site/site.facts.json',
  'site/package.json',
  'packages/access',
  'packages/contract/src',
  'server/src/manifest',
  'package-lock.json',
];

function* walk(path) {
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
    if (entry.name === 'node_modules') continue;
    yield* walk(join(path, entry.name));
  }
}

/** A digest of every file the build reads, so a stale build is noticed after any edit or checkout. */
export function siteSourceHash(root) {
  const hash = createHash('sha256');
  for (const source of sources) {
    for (const file of walk(join(root, source))) {
      hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex');
}
