/**
 * The search box's search. The build writes one Pagefind bundle per access unit
 * (`/search/<unit>/`), each gated like its pages; the reader's browser loads the bundles
 * `searchBundlesFor` gives their groups (packages/access) and ranks with the portal's one
 * search (packages/search), the same as the search API and MCP. The bundles are loaded at
 * run time, outside the bundler.
 */
import { PUBLIC, SEARCH_ROOT } from '@portal/access';
import {
  breadcrumbOf,
  correctQuery,
  nearbySections,
  openSearch,
  readableExcerpt,
  releaseBundles,
  searchPages,
  type PagefindInstance,
  type PagefindModule,
} from '@portal/search';

export { HIGHLIGHT_PARAM } from '@portal/search';

export const SEARCH_PUBLIC = `${SEARCH_ROOT}${PUBLIC}/`;

export interface SearchHit {
  url: string;
  title: string;
  /** The sections and package above the page, outermost first ("Player Framework", "player-manager-mono"). */
  breadcrumb: string[];
  /** HTML: the page's text without markup, the matched words in <mark> (`readableExcerpt`). */
  excerpt: string;
  headings: { title: string; url: string; excerpt: string }[];
}

export interface SearchAnswer {
  hits: SearchHit[];
  /** The query searched instead of a misspelt one ("shaka adapter" for "shaak adapter"), else null. */
  corrected: string | null;
  /** When nothing was found: the sections nearest the query, each with a page there. */
  nearby: { section: string; title: string; url: string }[];
}

const loaded = new Map<string, Promise<PagefindInstance | null>>();

/**
 * A search over `bundles`, set up once per set. An instance of its own per set, so a search
 * begun before the session answered (public only) never mixes with the reader's wider one.
 */
export function loadPagefind(bundles: readonly string[]): Promise<PagefindInstance | null> {
  const key = bundles.join(' ');
  let instance = loaded.get(key);
  if (!instance) {
    instance = openSearch(bundles, {
      load: (bundle) => import(/* webpackIgnore: true */ `${bundle}pagefind.js`) as Promise<PagefindModule>,
    });
    instance.catch(() => loaded.delete(key));
    loaded.set(key, instance);
  }
  return instance;
}

/**
 * Opens the reader's search ahead of their first query (the dialog is about to open, or
 * the page is idle), so the query does not wait for the bundles. A failure is left for the
 * query to report.
 */
export function preloadSearch(bundles: readonly string[]): void {
  loadPagefind(bundles).catch(() => undefined);
}

/**
 * Runs a query as the reader types; null when a newer query superseded it while it waited.
 * With `version`, over that release of a synced package only (with its bundle in each unit that has one).
 */
export async function search(
  bundles: readonly string[],
  query: string,
  { limit = 8, version }: { limit?: number; version?: string } = {},
): Promise<SearchAnswer | null> {
  const instance = await loadPagefind(version === undefined ? bundles : releaseBundles(bundles, version));
  const found = await searchPages(instance, query, { limit, debounceMs: 20, version });
  if (found === null) return null;
  const searched = correctQuery(instance, query);
  return {
    hits: found.map((item) => ({
      url: item.url,
      title: item.meta.title ?? item.url,
      breadcrumb: breadcrumbOf(item.url, item.meta),
      excerpt: readableExcerpt(item.excerpt),
      headings: (item.sub_results ?? [])
        .filter((sub) => sub.url !== item.url && sub.title !== item.meta.title)
        .slice(0, 3)
        .map((sub) => ({ title: sub.title, url: sub.url, excerpt: readableExcerpt(sub.excerpt) })),
    })),
    corrected: searched === query ? null : searched,
    nearby: found.length === 0 ? await nearbySections(instance, query) : [],
  };
}
