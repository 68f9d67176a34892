import { readState } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

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
