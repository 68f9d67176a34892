// What the site build leaves for the gate server, and where: the manifest's name and
// version, each page's Markdown twin, the llms.txt fragments and search bundles of each
// access unit. The build (site/src/plugins/gate-files) writes them, the gate reads them,
// the site links to them. No imports: the browser bundle, the build and the gate all load it.

/** The file the build writes beside the site and the server reads at start. */
export const MANIFEST_FILE = 'portal-manifest.json';
/** 3: private files carry the access units whose readers may read them. */
export const MANIFEST_VERSION = 3;

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
 * @param {string} path
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
