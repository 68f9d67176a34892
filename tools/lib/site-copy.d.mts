/** Docusaurus's command line, run with `node` in a copy's folder. */
export declare const docusaurusBin: string;
/** A Docusaurus command in a copy, over the content cache `cacheDir`: what it printed, or an error with it. */
export declare function docusaurus(
  siteDir: string,
  command: string,
  options: { cacheDir: string; env?: Record<string, string> },
): Promise<string>;
/** A copy of the site's sources at `dest` (inside the repository), without the gate-files plugin unless `gateFiles`. */
export declare function copySiteSources(dest: string, options?: { gateFiles?: boolean }): string;
/** Replaces `from` with `to` in a file's text; throws if `from` is not there. */
export declare function rewrite(text: string, from: string, to: string, what: string): string;
/** Sets, in a copy's sources.yaml, the range of releases each source named in `ranges` publishes (by source id); throws for an id it lacks. */
export declare function publishVersions(siteDir: string, ranges: Record<string, string>): void;
