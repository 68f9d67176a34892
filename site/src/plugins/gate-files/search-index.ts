import { createHash, randomUUID } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import { normalizeRoute, PUBLIC, readersOf, searchBundles, unitId } from '@portal/access';
import { isOlderRelease, olderReleasesSearchDir, RELEASE_FILTER, searchDir } from '@portal/built-site';
import { EXCERPT_VERSION } from '@portal/built-site/pagefind-excerpt';
import { GIVEN_FILES_VERSION } from '@portal/built-site/pagefind-files';
import { placeKeptFolder, writeSearchBundle } from '@portal/built-site/write';
import { BREADCRUMB_META, BREADCRUMB_SEPARATOR, countWords, WORDS_FILE } from '@portal/search';

import type { BuildCache } from './options';

type Pagefind = typeof import('pagefind');

const importNative = createRequire(__filename)('./native-import.cjs') as (specifier: string) => Promise<unknown>;

/** What Pagefind reads of each page (the plugin's `search*` options). */
export interface SearchIndexOptions {
  rootSelector: string;
  excludeSelectors: readonly string[];
  language: string;
}

export interface SearchPage {
  /** URL path of the page (`/docs/layout-engine/`). */
  url: string;
  /** Path of its HTML file relative to the build directory. */
  file: string;
}

/** Pages worth finding: docs, blog posts and Markdown pages, not listings or generated indexes. */
export function isSearchable(html: string): boolean {
  const classes = /<html[^>]*\sclass="([^"]*)"/.exec(html)?.[1] ?? '';
  return /\bdocs-doc-id-|\bblog-post-page\b|\bmdx-page\b/.test(classes);
}

/**
 * Is the page one of an older release of a synced package? Those are indexed apart (a
 * bundle per release in the unit's `older/`), so a search finds a package's newest release
 * unless it asks for a version: an older release would repeat its newest's pages.
 */
export function isOlderReleasePage(html: string): boolean {
  const docId = /<html[^>]*\sclass="[^"]*\bdocs-doc-id-(\S+?)["\s]/.exec(html)?.[1];
  return docId !== undefined && isOlderRelease(docId);
}

/** The page with its release's version as a Pagefind filter, inside the root Pagefind reads. */
export function withReleaseFilter(html: string, rootSelector: string, version: string | undefined): string {
  if (version === undefined || !/^[a-z][a-z0-9-]*$/i.test(rootSelector)) return html;
  return html.replace(
    new RegExp(`<${rootSelector}\\b[^>]*>`, 'i'),
    (open) => `${open}<span data-pagefind-filter="${RELEASE_FILTER}:${version}"></span>`,
  );
}

/**
 * The labels of a doc page's breadcrumbs above the page itself ("Player Framework",
 * "player-manager-mono"), as the sidebar names them: the items that link to a page (not the
 * home icon, not a folder without a page such as "packages", not the page itself). Empty for
 * a page without breadcrumbs. HTML as in the page (text only, entities kept); the build's
 * minified HTML leaves out `</li>` and the quotes of one-word attributes.
 */
export function breadcrumbLabels(html: string): string[] {
  const nav = /<nav\b[^>]*\btheme-doc-breadcrumbs\b[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  return nav
    .split(/<li\b/)
    .slice(1)
    .filter((item) => /^[^>]*\bbreadcrumbs__item\b/.test(item) && !/^[^>]*breadcrumbs__item--active/.test(item))
    .filter((item) => /<a\b[^>]*\bhref=/.test(item))
    .map((item) =>
      item
        .slice(item.indexOf('>') + 1)
        .replace(/<\/li>[\s\S]*$/, '')
        .replace(/<[^>]*>/g, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((label) => label !== '');
}

/**
 * The page with its breadcrumb as Pagefind metadata (`BREADCRUMB_META`), inside the root
 * Pagefind reads: the search shows where each result sits.
 */
export function withBreadcrumb(html: string, rootSelector: string): string {
  const labels = breadcrumbLabels(html);
  if (labels.length === 0 || !/^[a-z][a-z0-9-]*$/i.test(rootSelector)) return html;
  // A comma would start another field of the attribute, a quote end it.
  const value = labels.join(BREADCRUMB_SEPARATOR).replace(/,/g, '').replace(/"/g, '&quot;');
  return html.replace(
    new RegExp(`<${rootSelector}\\b[^>]*>`, 'i'),
    (open) => `${open}<span data-pagefind-meta="${BREADCRUMB_META}:${value}"></span>`,
  );
}

/** The page's own URL path from its canonical link (`/docs/Spat-Nav/Detailed_README_SpatNav`, no slash added). */
export function canonicalPath(html: string): string | null {
  const href = /<link\b[^>]*\brel=["']?canonical["']?[^>]*\bhref=["']?([^"'\s>]+)/.exec(html)?.[1];
  if (!href) return null;
  try {
    return new URL(href).pathname;
  } catch {
    return null;
  }
}

/** Pagefind's signature before the JSON of a page fragment (after gzip). */
const FRAGMENT_SIGNATURE = 'pagefind_dcd';

/**
 * The word list of a written bundle (packages/search's spelling.js), from the text Pagefind
 * indexed of each page: its fragments, so the list has exactly the words the bundle has.
 */
export async function writeWordList(bundleDir: string): Promise<number> {
  const fragments = join(bundleDir, 'fragment');
  const names = (await readdir(fragments).catch(() => [])).filter((name) => name.endsWith('.pf_fragment'));
  const texts: string[] = [];
  for (const name of names) {
    const plain = gunzipSync(await readFile(join(fragments, name))).toString('utf8');
    const page = JSON.parse(plain.startsWith(FRAGMENT_SIGNATURE) ? plain.slice(FRAGMENT_SIGNATURE.length) : plain) as {
      content?: string;
      meta?: { title?: string };
    };
    texts.push(page.meta?.title ?? '', page.content ?? '');
  }
  const words = countWords(texts);
  await writeFile(join(bundleDir, WORDS_FILE), JSON.stringify(words));
  return Object.keys(words).length;
}

/** The hash of what a bundle is made from: the cache's salt, Pagefind's options, each page's URL and HTML. */
function bundleKey(pages: readonly { url: string; html: string }[], options: SearchIndexOptions, salt: string): string {
  // The word list and the changes to Pagefind's scripts are part of the bundle since the cache's first bundles.
  const hash = createHash('sha256').update(
    JSON.stringify([salt, options, WORDS_FILE, EXCERPT_VERSION, GIVEN_FILES_VERSION]),
  );
  for (const page of pages) hash.update(`\0${page.url}\0${page.html}`);
  return hash.digest('hex');
}

const isFolder = (path: string): Promise<boolean> =>
  stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  );

async function writeIndex(
  pagefind: () => Promise<Pagefind>,
  buildDir: string,
  pages: { url: string; html: string }[],
  outDir: string,
  options: SearchIndexOptions,
  cache: (BuildCache & { used: Set<string> }) | undefined,
): Promise<number> {
  const target = join(buildDir, outDir);
  const key = cache && bundleKey(pages, options, cache.salt);
  if (cache && key) {
    cache.used.add(key);
    const kept = join(cache.dir, key);
    if (await isFolder(kept)) {
      await placeKeptFolder(kept, target);
      return pages.length;
    }
  }
  const started = await pagefind();
  const { index, errors } = await started.createIndex({
    rootSelector: options.rootSelector,
    excludeSelectors: [...options.excludeSelectors],
    forceLanguage: options.language,
  });
  if (!index) throw new Error(`Pagefind could not start: ${errors.join('; ')}`);
  for (const page of pages) {
    const added = await index.addHTMLFile({ url: page.url, content: page.html });
    if (added.errors.length > 0) throw new Error(`Pagefind could not index ${page.url}: ${added.errors.join('; ')}`);
  }
  await writeSearchBundle(index, target);
  await writeWordList(target);
  if (cache && key) {
    // Copied aside and renamed: a build stopped midway leaves no half-copied bundle behind.
    const aside = join(cache.dir, `${key}.${randomUUID()}.tmp`);
    await cp(target, aside, { recursive: true });
    await rename(aside, join(cache.dir, key)).catch(() => rm(aside, { recursive: true, force: true }));
  }
  return pages.length;
}

/**
 * A page's HTML with a space between table cells and list items: they end without one, and
 * Pagefind would run their words together in the index and the snippets ("propTypeDefault",
 * "destroyOnUnmountboolean": an option in a table was found by no search for it). The
 * minified HTML leaves out their end tags, so the space goes before each start tag too.
 */
export function spacedCells(html: string): string {
  return html.replace(/<\/(td|th|li|dt|dd)>/g, ' </$1>').replace(/<(td|th|li|dt|dd|tr)(?=[\s>])/g, ' <$1');
}

/**
 * Builds the search indexes from the pages' server-rendered HTML (the full text, never an
 * empty shell): one bundle per access unit of the policy (`search/public`,
 * `search/player-core`, …) over the searchable pages of that unit. The gate serves each
 * bundle to the unit's readers only; a reader's browser loads the units they hold and
 * merges them, so it searches exactly the pages they may read. Returns the number of pages in each unit.
 */
export async function buildSearchIndexes(
  buildDir: string,
  pages: readonly SearchPage[],
  options: SearchIndexOptions,
  releaseVersions: ReadonlyMap<string, string> = new Map(),
  cache?: BuildCache,
): Promise<Record<string, number>> {
  await rm(join(buildDir, 'search'), { recursive: true, force: true });
  type Indexed = { url: string; html: string };
  const bundles = searchBundles();
  const byUnit = new Map<string, Indexed[]>(bundles.map((bundle) => [bundle.id, []]));
  /** Older releases' pages: unit → version → pages. */
  const olderByUnit = new Map<string, Map<string, Indexed[]>>(bundles.map((bundle) => [bundle.id, new Map()]));
  /** A page's unit → the bundles it goes into: its unit's, and each shelf's that holds the unit. */
  const into = new Map<string, string[]>([[PUBLIC, [PUBLIC]]]);
  for (const bundle of bundles) for (const unit of bundle.units) into.set(unit, [...(into.get(unit) ?? []), bundle.id]);
  const versionOf = new Map([...releaseVersions].map(([permalink, version]) => [normalizeRoute(permalink), version]));
  for (const page of pages) {
    const html = await readFile(join(buildDir, page.file), 'utf8');
    if (!isSearchable(html)) continue;
    const readers = readersOf(page.url);
    // A page no rule matches stops the build when its files are labelled; it is indexed nowhere.
    if (readers === null) continue;
    const spaced = spacedCells(html);
    const version = versionOf.get(normalizeRoute(page.url));
    const indexed = {
      url: canonicalPath(html) ?? page.url,
      html: withBreadcrumb(withReleaseFilter(spaced, options.rootSelector, version), options.rootSelector),
    };
    const older = isOlderReleasePage(html) ? (version ?? /\/(\d+\.\d+\.\d+)\//.exec(page.url)?.[1]) : undefined;
    for (const bundle of into.get(unitId(readers)) ?? []) {
      if (older === undefined) byUnit.get(bundle)?.push(indexed);
      else {
        const releases = olderByUnit.get(bundle);
        if (releases && !releases.has(older)) releases.set(older, []);
        releases?.get(older)?.push(indexed);
      }
    }
  }
  // Pagefind starts only if a bundle is not in the cache.
  let loaded: Pagefind | undefined;
  const pagefind = async (): Promise<Pagefind> => (loaded ??= (await importNative('pagefind')) as Pagefind);
  const used = cache && { ...cache, used: new Set<string>() };
  if (used) await mkdir(used.dir, { recursive: true });
  try {
    const counts: Record<string, number> = {};
    // A unit without searchable pages still has a bundle (a reader's search merges every
    // unit they hold); the first empty one is indexed, the others are copies of it.
    let empty: string | undefined;
    for (const [unit, unitPages] of byUnit) {
      if (unitPages.length === 0 && empty !== undefined) {
        await cp(join(buildDir, empty), join(buildDir, searchDir(unit)), { recursive: true });
        counts[unit] = 0;
        continue;
      }
      counts[unit] = await writeIndex(pagefind, buildDir, unitPages, searchDir(unit), options, used);
      if (unitPages.length === 0) empty = searchDir(unit);
    }
    // Older releases: a bundle per release inside the unit's, written only where the unit has some.
    for (const [unit, releases] of olderByUnit)
      for (const [version, releasePages] of releases)
        await writeIndex(pagefind, buildDir, releasePages, olderReleasesSearchDir(unit, version), options, used);
    if (used)
      for (const name of await readdir(used.dir))
        if (!used.used.has(name)) await rm(join(used.dir, name), { recursive: true, force: true });
    return counts;
  } finally {
    await loaded?.close();
  }
}
