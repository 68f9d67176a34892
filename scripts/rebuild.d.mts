/** The exit code of a rebuild that built nothing: the sync changed nothing the served build was made from. */
export declare const UNCHANGED_EXIT_CODE: number;
/** Syncs `only`; the sources whose cached state differs from what the served build was made from. */
export declare function syncForRebuild(options: {
  only: string[];
  paths?: { root: string; siteDir: string; sourcesFile: string; cacheDir: string };
  record?: string;
  built: boolean;
  log?: (line: string) => void;
}): Promise<string[]>;
/**
 * Runs `build`; when it fails, refuses the releases of `changed` the served build was not made
 * from, syncs again without them and builds once more (taking the refusals back if that fails
 * too). The releases refused.
 */
export declare function buildOrRefuse(options: {
  changed: string[];
  build: () => void;
  paths?: { root: string; siteDir: string; sourcesFile: string; cacheDir: string };
  record?: string;
  log?: (line: string) => void;
}): Promise<{ source: string; version: string }[]>;
