import { loadSources, readState } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

import { versionedPages, versionedPagesOf } from '../plugins/package-sources/materialise';

/**
 * Whether the content cache holds the API reference of a synced package's newest release, so
 * that the build writes its `api/` pages (a release without type declarations has none, and
 * neither has a cache synced before the reference existed): the sidebar names them only then.
 */
export function hasApiReference(sourceId: string): boolean {
  const source = readState(syncPaths().cacheDir)?.sources[sourceId];
  const newest = source?.versions?.[0]?.version;
  return Boolean(newest && source?.api?.some((entry) => entry.version === newest && entry.dir));
}

/**
 * The pages the portal's authors write for a range of a synced package's releases
 * (`versioned/` in its pages folder) that its newest release gets, as doc ids below its
 * section (`GUIDE`): the sidebar names them beside the reference.
 */
export function versionedPageIds(sourceId: string): string[] {
  const paths = syncPaths();
  const source = loadSources(paths.sourcesFile, { siteDir: paths.siteDir }).sources.find(
    (entry) => entry.id === sourceId,
  );
  const newest = readState(paths.cacheDir)?.sources[sourceId]?.versions?.[0]?.version;
  if (!source || !newest) return [];
  return versionedPagesOf(newest, versionedPages(paths.siteDir, source)).map((page) => page.name.replace(/\.md$/, ''));
}
