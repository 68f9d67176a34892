import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What the site build is made from: content, theme, configuration and the lockfile. */
const sources = [
  'docs',
  'blog',
  'src',
  'static',
  'docusaurus.config.ts',
  'sidebars.ts',
  'site.facts.json',
  'package.json',
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
    yield* walk(join(path, entry.name));
  }
}

/** A digest of every file the build reads, so a stale build is noticed after any edit or checkout. */
export function siteSourceHash(siteDir, lockfile) {
  const hash = createHash('sha256');
  for (const source of sources) {
    for (const file of walk(join(siteDir, source))) {
      hash.update(relative(siteDir, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  hash.update(readFileSync(lockfile));
  return hash.digest('hex');
}
