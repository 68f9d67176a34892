// What the site build leaves for the gate server, and where: the manifest's name and
// version, each page's Markdown twin, the llms.txt fragments and search bundles of each
// access unit. The build (site/src/plugins/gate-files) writes them, the gate reads them,
// the site links to them. No imports: the browser bundle, the build and the gate all load it.

/** The file the build writes beside the site and the server reads at start. */
export const MANIFEST_FILE = 'portal-manifest.json';
/** 3: private files carry the access units whose readers may read them. */
export const MANIFEST_VERSION = 3;

/**
 * The manifest: every file of a build, by route key.
 *
 * @typedef {object} Manifest
 * @property {typeof MANIFEST_VERSION} version
 * @property {string} createdAt
 * @property {Record<string, ManifestEntry>} entries Route keys (`normalizeRoute` of `@portal/access`) → entry.
 * @property {string} notFound Key of the not-found page.
 * @property {string[]} inlineScriptHashes CSP hashes (`sha256-…`) of the inline scripts the pages carry.
 */

/**
 * One file of a build.
 *
 * @typedef {object} ManifestEntry
 * @property {string} url URL the build gave the file: `/docs/layout-engine/` for a page, `/assets/js/main.1a2b.js`.
 * @property {string} file Path relative to the build directory, written at build time and never taken from a request.
 * @property {string} contentType
 * @property {number} size
 * @property {string} etag
 * @property {'page' | 'file'} kind `page` is a route's HTML: anonymous readers are sent to the login page instead of
 *   refused.
 * @property {'public' | 'private'} access
 * @property {string[]} units The units whose readers may read a private file (a page: its one unit), never empty;
 *   empty for a public file.
 * @property {boolean} immutable Content-hashed under /assets/: safe to cache forever.
 * @property {Variant} [br]
 * @property {Variant} [gzip]
 */

/**
 * A precompressed form of a file.
 *
 * @typedef {object} Variant
 * @property {string} file Path relative to the build directory.
 * @property {number} size
 */

/**
 * The `.md` address of a page: `/docs/layout-engine/` → `/docs/layout-engine.md`, `/` → `/index.md`.
 *
 * @param {string} permalink
 * @returns {string}
 */
export function markdownUrl(permalink) {
  const bare = permalink.replace(/\/+$/, '');
  return `${bare === '' ? '/index' : bare}.md`;
}

/**
 * The page a `.md` address stands for, as a route: `/docs/layout-engine.md` → `/docs/layout-engine`.
 *
 * @param {string} url
 * @returns {string | null}
 */
export function pageOfMarkdown(url) {
  if (!url.endsWith('.md')) return null;
  const page = url.slice(0, -'.md'.length);
  return page === '/index' ? '/' : page;
}

/**
 * The route a page's HTML file answers: `/docs/layout-engine/index.html` → `/docs/layout-engine/`.
 *
 * @param {string} url
 * @returns {string}
 */
export function pageRoute(url) {
  return url.endsWith('/index.html') ? url.slice(0, -'index.html'.length) : url.replace(/\.html$/, '');
}

/**
 * Is this a page of an older release of a synced package (site/sources.yaml)? Its version
 * is a folder of its path or doc id (`/docs/X/2.3.0/`, `X/2.3.0/README`). Such pages are
 * listed for assistants but left out of llms-full.txt, which carries each package at its
 * newest, and searched only when a search asks for their version (`olderReleasesSearchDir`).
 *
 * @param {string} path
 * @returns {boolean}
 */
export function isOlderRelease(path) {
  return /\/\d+\.\d+\.\d+(\/|$)/.test(path);
}

/** The folder inside a unit's bundle that holds its older releases' bundles, one per version. */
export const OLDER_RELEASES = 'older';

/** The Pagefind filter that holds a synced package page's release version (`2.3.0`). */
export const RELEASE_FILTER = 'version';

/**
 * Where an access unit's search bundle lies in the build: `search/public`, `search/admin+staff`.
 *
 * @param {string} unit
 * @returns {string}
 */
export const searchDir = (unit) => `search/${unit}`;

/**
 * Where an older release of the unit's synced packages is indexed: a bundle per version
 * inside the unit's own folder (so the same readers have it), searched only when a search
 * asks for that version. A bundle per version, so a new release indexes its predecessor's
 * pages and leaves the bundles of the releases before it as they were.
 *
 * @param {string} unit
 * @param {string} version `2.3.0`
 * @returns {string}
 */
export const olderReleasesSearchDir = (unit, version) => `${searchDir(unit)}/${OLDER_RELEASES}/${version}`;

/**
 * Where an access unit's `llms.txt` fragments lie: `llms/<unit>/index.md` and `llms/<unit>/full.md`.
 *
 * @param {string} unit
 * @returns {string}
 */
export const llmsDir = (unit) => `llms/${unit}`;
