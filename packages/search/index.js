// The portal's one search: which of Pagefind's results a query gets, and in what order.
// The search box (site/src/search/pagefind.ts), the search API and MCP's search_docs
// (server/src/search/site-search.ts) all open their search and run their queries here,
// over the bundles `searchBundlesFor` (packages/access) chooses, so one reader's query
// gets one answer on every surface. Plain ES module: the site's bundler and Node read it as is.

import { OLDER_RELEASES, RELEASE_FILTER } from '@portal/built-site';

import { answersQuery, matchedWords, wordParts } from './relevance.js';
import { Vocabulary, WORDS_FILE } from './spelling.js';
import { breadcrumbOf } from './breadcrumb.js';
import { SEARCH_FILES_PATH, unpackSearchFiles } from './files.js';

export { answersQuery, matchedWords, requiredPrefix, wordParts } from './relevance.js';
export { countWords, oneEditFrom, Vocabulary, WORDS_FILE } from './spelling.js';
export { BREADCRUMB_META, BREADCRUMB_SEPARATOR, breadcrumbOf } from './breadcrumb.js';
export { readableExcerpt } from './snippet.js';
export {
  BUNDLE_PATH,
  isSearchStartFile,
  MOST_SEARCH_BUNDLES,
  packSearchFiles,
  SEARCH_FILES_PATH,
  searchStartBundleOf,
  unpackSearchFiles,
} from './files.js';

/**
 * What a Pagefind result's `data()` gives (the fields the portal reads).
 *
 * @typedef {object} PagefindResultData
 * @property {string} url The page's URL, with the highlight parameter.
 * @property {string} excerpt HTML: text around the matched words, in `<mark>`, escaped by Pagefind.
 * @property {{ title?: string, [field: string]: string | undefined }} meta `title`, and `trail` (the breadcrumb) where
 *   the build wrote one (breadcrumb.js).
 * @property {string} content The page's text.
 * @property {string} [raw_content]
 * @property {number[]} locations The word positions the query matched in the page's text.
 * @property {{ element?: string, id?: string, text?: string, location?: number }[]} [anchors] The page's headings.
 * @property {{ title: string, url: string, excerpt: string }[]} [sub_results] The headings under which the query
 *   matched.
 */

/**
 * What a search of a Pagefind instance answers: its results, each read with `data()`.
 *
 * @typedef {{ results: { id: string, data(): Promise<PagefindResultData> }[] }} PagefindResults
 */

/**
 * One Pagefind search instance (`createInstance` of a bundle's pagefind.js).
 *
 * @typedef {{
 *   init(): Promise<void>,
 *   mergeIndex(indexPath: string, options?: Record<string, unknown>): Promise<void>,
 *   search(query: string, options?: Record<string, unknown>): Promise<PagefindResults>,
 *   debouncedSearch(query: string, options?: Record<string, unknown>, timeout?: number): Promise<PagefindResults | null>,
 *   preload(query: string, options?: Record<string, unknown>): Promise<void>,
 * }} PagefindInstance
 */

/**
 * A bundle's `pagefind.js`.
 *
 * @typedef {{ createInstance(options: Record<string, unknown>): PagefindInstance }} PagefindModule
 */

/** The query parameter that marks the matched words on the page a result opens. */
export const HIGHLIGHT_PARAM = 'highlight';

/** The same for every bundle and every surface, so results from merged bundles read alike. */
export const RESULT_OPTIONS = Object.freeze({ highlightParam: HIGHLIGHT_PARAM, excerptLength: 24 });

/**
 * How many of Pagefind's first results are read and ranked together, whatever the limit, so
 * every surface agrees on its first 8 (the search box shows 8). A larger limit (the API's,
 * MCP's) adds the results after them, in Pagefind's order. Reading a result is most of a
 * query's time: Pagefind fetches its fragment once, and works out its excerpt and headings
 * over the page's text every time.
 */
export const CANDIDATES = 8;

/**
 * The search's files of `bundles` that the reader may read, in one request
 * (files.js): each bundle's word list (spelling.js), Pagefind's entry, metadata and index
 * chunks. A bundle without pages has no words, or an empty list: Pagefind writes a bundle
 * with no languages for a unit without searchable pages (the administration pages are an
 * app, not text). A bundle the reader may not read (a licence withdrawn since the page
 * chose the bundles) is left out by the gate and searched as one without pages.
 *
 * @param {string} origin
 * @param {readonly string[]} bundles
 * @returns {Promise<Record<string, ArrayBuffer>>}
 */
async function searchFilesOf(origin, bundles) {
  const response = await fetch(`${origin}${SEARCH_FILES_PATH}?bundles=${encodeURIComponent(bundles.join(','))}`);
  if (!response.ok) throw new Error(`The search's files answered ${response.status}`);
  return await unpackSearchFiles(await response.arrayBuffer());
}

/**
 * @param {ArrayBuffer | undefined} file a bundle's word list
 * @returns {Record<string, number>}
 */
function wordsIn(file) {
  return file === undefined ? {} : JSON.parse(new TextDecoder().decode(file));
}

/**
 * The words of the bundles each open search was made of, for its spelling corrections.
 *
 * @type {WeakMap<PagefindInstance, Vocabulary>}
 */
const vocabularies = new WeakMap();

/**
 * One search over `bundles` (public first, from `searchBundlesFor`): the first bundle with
 * pages makes the instance, the others with pages merge into it. Null when none has any.
 * A bundle's word list, which `correctQuery` needs, also says whether it has pages: a
 * bundle without any has no index, and `mergeIndex` of it fails, which failed every search
 * of the readers who have its unit.
 *
 * The first bundle's engine loads while the search's files of every bundle come in one
 * answer (`searchFilesOf`); Pagefind's scripts as the build writes them take their files
 * from it (the `portalFiles` option) instead of fetching each, and every merge starts at once.
 *
 * @param {readonly string[]} bundles bundle paths, `/search/<unit>/`
 * @param {{ load(bundle: string): Promise<PagefindModule>, origin?: string }} how
 *   `load` imports the bundle's `pagefind.js`; `origin` goes before each path (the server's).
 * @returns {Promise<PagefindInstance | null>}
 */
export async function openSearch(bundles, { load, origin = '' }) {
  if (bundles.length === 0) return null;
  const firstEngine = load(bundles[0]);
  // Awaited below only when the first bundle has pages: its failure is then the search's.
  firstEngine.catch(() => {});
  const files = await searchFilesOf(origin, bundles);
  const withPages = bundles.flatMap((bundle) => {
    const words = wordsIn(files[`${bundle}${WORDS_FILE}`]);
    return Object.keys(words).length > 0 ? [{ bundle, words }] : [];
  });
  if (withPages.length === 0) return null;
  const [primary, ...merged] = withPages.map(({ bundle }) => bundle);
  const pagefind = await (primary === bundles[0] ? firstEngine : load(primary));
  const instance = pagefind.createInstance({
    basePath: origin + primary,
    baseUrl: '/',
    ...RESULT_OPTIONS,
    portalFiles: files,
  });
  await instance.init();
  // Pagefind takes a merged index into its list as the call is made, before any fetch, so
  // the list keeps this order: the merge order is part of the ranking, and the same on
  // every surface.
  await Promise.all(merged.map((bundle) => instance.mergeIndex(origin + bundle, { baseUrl: '/', ...RESULT_OPTIONS })));
  const vocabulary = new Vocabulary(withPages.map(({ words }) => words));
  vocabularies.set(instance, vocabulary);
  // Pagefind's `init` only sets up its worker, which fetches its engine and the index's
  // metadata at the first search (a third of a second of the first query, measured in the
  // bench), and a search scores a word's pages with the words of the index chunks loaded so
  // far: earlier searches that loaded other chunks reordered a later one's pages. Every
  // chunk of every bundle now (a word beginning with each letter the pages' words begin
  // with), so an opened search answers at once, and the same on every surface.
  await instance.preload([...new Set(vocabulary.sorted.map((word) => word[0]))].join(' ') || 'docs');
  await instance.search(vocabulary.sorted.length > 0 ? vocabulary.commonest() : 'docs');
  return instance;
}

/**
 * The query a search runs: `query` with each misspelt word of five letters or more
 * replaced by the word of the reader's pages one edit from it ("shaak" → "shaka"), or
 * `query` itself when it has none.
 *
 * @param {PagefindInstance | null} instance from `openSearch`
 * @param {string} query
 * @returns {string}
 */
export function correctQuery(instance, query) {
  const vocabulary = instance && vocabularies.get(instance);
  return vocabulary ? vocabulary.correctQuery(query) : query;
}

/**
 * How strongly a page is *about* the query, from the words of its title and headings:
 * 4 its title is the query's words (a symbol's reference page, `useFocusable`), 3 its title
 * starts with them (`Layout Engine` for "layout"), 2 a heading
 * does, 1 its title has them all, 0 none of these. Pagefind scores each merged bundle on its
 * own word statistics, so a page that defines a name can rank below pages of another bundle
 * that only mention it; the headings say what the page defines, whichever bundle it is in.
 *
 * @param {string} query
 * @param {{ meta: { title?: string }, anchors?: readonly { element?: string, text?: string }[] }} page
 * @returns {number}
 */
export function aboutness(query, page) {
  const want = wordParts(query);
  if (want.length === 0) return 0;
  const startsWith = (/** @type {string} */ text) => {
    const parts = wordParts(text);
    return want.every((part, index) => parts[index] === part);
  };
  const title = page.meta.title ?? '';
  if (startsWith(title)) return wordParts(title).length === want.length ? 4 : 3;
  const headings = (page.anchors ?? []).filter((anchor) => /^h[1-6]$/i.test(anchor.element ?? ''));
  if (headings.some((heading) => startsWith(heading.text ?? ''))) return 2;
  const titleParts = wordParts(title);
  return want.every((part) => titleParts.includes(part)) ? 1 : 0;
}

/**
 * The ranked answer to `query` from the results Pagefind found: results it reached only by
 * cutting a query word down to a short prefix are dropped (relevance.js), then pages about
 * the query come first (`aboutness`), a repository's changelog, licence and the like after
 * the other pages of the same rank unless the query asks for one, in Pagefind's order within
 * each rank.
 *
 * @template {PagefindResultData} T
 * @param {string} query
 * @param {readonly T[]} found the data of Pagefind's results, in its order
 * @returns {T[]}
 */
export function rank(query, found) {
  const asked = wordParts(query);
  return found
    .filter((item) => answersQuery(query, matchedWords(item.raw_content ?? item.content, item.locations)))
    .map((item, order) => ({ item, order, about: aboutness(query, item), aside: isAsideFor(asked, item.url) }))
    .sort((a, b) => b.about - a.about || Number(a.aside) - Number(b.aside) || a.order - b.order)
    .map(({ item }) => item);
}

/** A repository's own pages, which a package carries beside its documentation. */
const REPOSITORY_PAGE = /\/(changelog|license|contributing|code_of_conduct)\/?$/i;

/**
 * Whether a page is one of a repository's own (changelog, licence, contributing, code of
 * conduct) and the query does not ask for one: such a page names its package and its
 * features as often as the package's documentation does, and Pagefind often put it first
 * ("youbora" found the adapter's changelog before its page).
 *
 * @param {readonly string[]} asked the query's word parts
 * @param {string} url
 */
function isAsideFor(asked, url) {
  const page = REPOSITORY_PAGE.exec(new URL(url, 'https://portal.invalid').pathname)?.[1]?.toLowerCase();
  if (page === undefined) return false;
  return !wordParts(page).some((word) => asked.some((part) => word.startsWith(part.slice(0, 5))));
}

/** A release version as a search asks for it (`2.3.0`). */
export const VERSION_PATTERN = /^\d+\.\d+\.\d+$/;

/**
 * The bundles a search of one release version opens: the reader's bundles (whose synced
 * package pages are their newest releases) and that older release's bundle in each, where a
 * unit has one. A search with no version opens `bundles` alone: the newest releases.
 *
 * @param {readonly string[]} bundles from `searchBundlesFor`, `/search/<unit>/`
 * @param {string} version `2.3.0` (VERSION_PATTERN)
 * @returns {string[]}
 */
export function releaseBundles(bundles, version) {
  return [...bundles, ...bundles.map((bundle) => `${bundle}${OLDER_RELEASES}/${version}/`)];
}

/**
 * Runs `query` and answers its ranked pages, at most `limit`; null when a newer query
 * superseded it while it waited (with `debounceMs`, as a reader types). A null instance
 * (no bundle has an index) finds nothing. With `version`, only the pages of that release
 * of a synced package (the instance should be over `releaseBundles`). Misspelt words are
 * corrected first (`correctQuery`).
 *
 * @param {PagefindInstance | null} instance from `openSearch`
 * @param {string} typed the query as typed
 * @param {{ limit?: number, debounceMs?: number, version?: string }} [options]
 * @returns {Promise<PagefindResultData[] | null>}
 */
export async function searchPages(instance, typed, { limit = 8, debounceMs, version } = {}) {
  if (instance === null || wordParts(typed).length === 0) return [];
  const query = correctQuery(instance, typed);
  const options = version === undefined ? {} : { filters: { [RELEASE_FILTER]: version } };
  const found =
    debounceMs === undefined
      ? await instance.search(query, options)
      : await instance.debouncedSearch(query, options, debounceMs);
  if (found === null) return null;
  const read = (/** @type {number} */ from, /** @type {number} */ to) =>
    Promise.all(found.results.slice(from, to).map((result) => result.data()));
  const ranked = rank(query, await read(0, CANDIDATES));
  const all = limit <= CANDIDATES ? ranked : [...ranked, ...rank(query, await read(CANDIDATES, limit))];
  if (all.length >= limit) return all.slice(0, limit);
  // A question in a reader's words rarely has all its words on the page that answers it.
  const seen = new Set(all.map((item) => item.url));
  const closest = (await closestPages(instance, query, options)).filter((item) => !seen.has(item.url));
  return [...all, ...closest].slice(0, limit);
}

/** Words a question is made of that say nothing of what it is about. */
const QUESTION_WORDS = new Set(
  (
    'a an and are as at be by can could do does for from get how i if in into is it its make me my of on or ' +
    'should so than that the their them then there these this to use using want what when where which while ' +
    'who why will with without would you your'
  ).split(' '),
);

/** How many of Pagefind's results for each word of a question are weighed. */
const PER_WORD = 24;

/**
 * The pages closest to a query whose words no page has all of (a question: "which
 * permissions does my tizen app need"): each word the reader's pages have is searched on its
 * own, and a page ranks by how many of them it was found for, then by its places among
 * them. Words no page has (neither they nor a word they begin) are left out rather than
 * cut down to a prefix; a query of fewer than three such words is no question, and finds
 * nothing more (two words that no page has together are two subjects, not one).
 *
 * @param {PagefindInstance} instance
 * @param {string} query
 * @param {Record<string, unknown>} options Pagefind’s search options (the release filter)
 * @returns {Promise<PagefindResultData[]>}
 */
async function closestPages(instance, query, options) {
  const vocabulary = vocabularies.get(instance);
  const words = [...new Set(wordParts(query))].filter(
    (word) => !QUESTION_WORDS.has(word) && word.length > 1 && (vocabulary?.hasPrefix(word) ?? true),
  );
  if (words.length < 3) return [];
  /** @type {Map<string, { result: { data(): Promise<PagefindResultData> }, words: number, places: number }>} */
  const pages = new Map();
  for (const word of words) {
    const found = await instance.search(word, options);
    found?.results.slice(0, PER_WORD).forEach((result, place) => {
      const page = pages.get(result.id) ?? { result, words: 0, places: 0 };
      page.words += 1;
      page.places += 1 / (place + 1);
      pages.set(result.id, page);
    });
  }
  const best = [...pages.values()]
    .filter((page) => page.words >= 2)
    .sort((a, b) => b.words - a.words || b.places - a.places)
    .slice(0, CANDIDATES);
  const data = await Promise.all(best.map((page) => page.result.data()));
  // A repository's changelog and the like after the pages of the same standing, as in `rank`.
  const asked = wordParts(query);
  return data
    .map((item, order) => ({ item, order, aside: isAsideFor(asked, item.url) }))
    .sort((a, b) => Number(a.aside) - Number(b.aside) || a.order - b.order)
    .map(({ item }) => item);
}

/**
 * Where to look when a query found nothing: the sections (the first part of the breadcrumb)
 * of pages that have a word beginning as a word of the query does (its first four letters,
 * three of them at least in what Pagefind matched: its cutting a word down to one letter
 * is no closeness), each with the first page found there; at most `limit`, nearest first.
 * Only the reader's own bundles are searched, so only sections they may read are offered.
 *
 * @param {PagefindInstance | null} instance from `openSearch`
 * @param {string} query
 * @param {number} [limit]
 * @returns {Promise<{ section: string, title: string, url: string }[]>}
 */
export async function nearbySections(instance, query, limit = 3) {
  if (instance === null) return [];
  /** @type {Map<string, { section: string, title: string, url: string }>} */
  const sections = new Map();
  for (const part of new Set(wordParts(correctQuery(instance, query)))) {
    if (part.length < 3 || sections.size >= limit) continue;
    const found = await instance.search(part.slice(0, 4));
    const pages = await Promise.all(found.results.slice(0, 6).map((result) => result.data()));
    for (const page of pages) {
      const words = matchedWords(page.raw_content ?? page.content, page.locations).flatMap(wordParts);
      if (!words.some((word) => word.startsWith(part.slice(0, 3)))) continue;
      const title = page.meta.title ?? page.url;
      const section = breadcrumbOf(page.url, page.meta)[0] ?? title;
      if (!sections.has(section)) sections.set(section, { section, title, url: page.url });
    }
  }
  return [...sections.values()].slice(0, limit);
}
