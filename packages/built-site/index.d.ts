/** The file the build writes beside the site and the server reads at start. */
export declare const MANIFEST_FILE: 'portal-manifest.json';
/** 3: private files carry the access units whose readers may read them. */
export declare const MANIFEST_VERSION: 3;

export interface Variant {
  /** Path relative to the build directory. */
  file: string;
  size: number;
}

export interface ManifestEntry {
  /** URL the build gave the file: `/docs/layout-engine/` for a page, `/assets/js/main.1a2b.js`. */
  url: string;
  /** Path relative to the build directory, written at build time and never taken from a request. */
  file: string;
  contentType: string;
  size: number;
  etag: string;
  /** `page` is a route's HTML: anonymous readers are sent to the login page instead of refused. */
  kind: 'page' | 'file';
  access: 'public' | 'private';
  /** The units whose readers may read a private file (a page: its one unit), never empty; empty for a public file. */
  units: string[];
  /** Content-hashed under /assets/: safe to cache forever. */
  immutable: boolean;
  br?: Variant;
  gzip?: Variant;
}

export interface Manifest {
  version: typeof MANIFEST_VERSION;
  createdAt: string;
  /** Route keys (see @portal/access normalizeRoute) → entry. */
  entries: Record<string, ManifestEntry>;
  /** Key of the not-found page. */
  notFound: string;
  /** CSP hashes (`sha256-…`) of the inline scripts the pages carry. */
  inlineScriptHashes: string[];
}

/** The `.md` address of a page: `/docs/layout-engine/` → `/docs/layout-engine.md`, `/` → `/index.md`. */
export declare function markdownUrl(permalink: string): string;
/** The page a `.md` address stands for, as a route: `/docs/layout-engine.md` → `/docs/layout-engine`. */
export declare function pageOfMarkdown(url: string): string | null;
/** The route a page's HTML file answers: `/docs/layout-engine/index.html` → `/docs/layout-engine/`. */
export declare function pageRoute(url: string): string;
/** Where an access unit's search bundle lies in the build: `search/public`, `search/player-core`. */
export declare function searchDir(unit: string): string;
/** Where an older release of the unit's synced packages is indexed: `search/<unit>/older/<version>`. */
export declare function olderReleasesSearchDir(unit: string, version: string): string;
/** The folder inside a unit's bundle that holds its older releases' bundles, one per version. */
export declare const OLDER_RELEASES: 'older';
/** The Pagefind filter that holds a synced package page's release version. */
export declare const RELEASE_FILTER: 'version';
/** Where an access unit's `llms.txt` fragments lie: `llms/<unit>/index.md` and `llms/<unit>/full.md`. */
export declare function llmsDir(unit: string): string;

/** Is this a page (path or doc id) of an older release of a synced package: `/docs/X/2.3.0/`. */
export function isOlderRelease(path: string): boolean;
