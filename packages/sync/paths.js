// Where the sources file and the content cache are. The sources file sits in the site folder
// (a benchmark's copy of the site brings its own); the cache is the repository's.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Where the sync reads and writes.
 *
 * @typedef {object} SyncPaths
 * @property {string} root The repository's root: relative git sources and the project's .npmrc are read from here.
 * @property {string} siteDir
 * @property {string} sourcesFile
 * @property {string} cacheDir
 */

/**
 * @param {{ siteDir?: string, env?: NodeJS.ProcessEnv }} [options]
 * @returns {SyncPaths}
 */
export function syncPaths({ siteDir = join(repositoryRoot, 'site'), env = process.env } = {}) {
  return {
    root: repositoryRoot,
    siteDir,
    sourcesFile: env.PORTAL_SOURCES_FILE || join(siteDir, 'sources.yaml'),
    cacheDir: env.PORTAL_SOURCES_CACHE || join(repositoryRoot, '.cache', 'sources'),
  };
}
