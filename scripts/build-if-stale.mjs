// Builds the site only when its sources changed since the last build (or it has none).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { siteSourceHash } from './site-hash.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const siteDir = join(root, 'site');
// Kept beside the build, not in it: everything in build/ is served.
const stampFile = join(siteDir, '.docusaurus', 'portal-build.sha256');

export function buildSiteIfStale({ log = console.log } = {}) {
  const hash = siteSourceHash(siteDir, join(root, 'package-lock.json'));
  const built = existsSync(join(siteDir, 'build', '404.html'));
  if (built && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash) {
    log('Site build is up to date.');
    return;
  }
  log(built ? 'Site sources changed: rebuilding the site…' : 'No site build yet: building the site…');
  const result = spawnSync('npm', ['run', 'build', '--workspace', 'site'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`The site build failed (exit code ${result.status}); see the messages above.`);
  }
  writeFileSync(stampFile, hash);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    buildSiteIfStale();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
