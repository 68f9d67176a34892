export interface SyncPaths {
  /** The repository's root: relative git sources and the project's .npmrc are read from here. */
  root: string;
  siteDir: string;
  sourcesFile: string;
  cacheDir: string;
}
export function syncPaths(options?: { siteDir?: string; env?: NodeJS.ProcessEnv }): SyncPaths;
