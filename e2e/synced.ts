// What the content cache holds of a synced package section (site/sources.yaml), for tests
// that list the pages the build writes from it.
import { loadSources, readState } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

/** The paths of a synced package's releases other than its newest (`/docs/<section>/2.3.0/`). */
export function olderReleasePaths(id: string): string[] {
  const paths = syncPaths();
  const source = loadSources(paths.sourcesFile, { siteDir: paths.siteDir }).sources.find((entry) => entry.id === id);
  const cached = readState(paths.cacheDir)?.sources[id];
  if (!source || !cached?.versions) throw new Error(`${id} is not synced: run npm run sync`);
  return cached.versions.slice(1).map((version) => `/docs/${source.section}/${version.version}/`);
}
