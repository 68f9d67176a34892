/** Adds a release to a copy of the content cache, as a sync after a publish would (the newest again as the next minor). */
export declare function addRelease(
  cacheDir: string,
  sourceId: string,
  note: string,
): { version: string; remove: () => void };
