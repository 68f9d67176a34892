/**
 * The search box's search. The build writes one Pagefind bundle per access unit
 * (`/search/<unit>/`), each gated like its pages; the reader's browser loads the bundles
 * `searchBundlesFor` gives their groups (packages/access) and ranks with the portal's one
 * search (packages/search), the same as the search API and MCP. The bundles are loaded at
 * run time, outside the bundler.
 */
import { PUBLIC, SEARCH_ROOT } from '@portal/access';
import { openSearch, releaseBundles, searchPages, type PagefindInstance, type PagefindModule } from '@portal/search';

export { HIGHLIGHT_PARAM } from '@portal/search';

export const SEARCH_PUBLIC = `${SEARCH_ROOT}${PUBLIC}/`;

export interface SearchHit {
  url: string;
  title: string;
  /** HTML: text with the matched words in <mark>, escaped by Pagefind. */
  excerpt: string;
  headings: { title: string; url: string; excerpt: string }[];
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
 * Runs a query as the reader types; null when a newer query superseded it while it waited.
 * With `version`, over that release of a synced package only (its older releases' bundles too).
 */
export async function search(
  bundles: readonly string[],
  query: string,
  { limit = 8, version }: { limit?: number; version?: string } = {},
): Promise<SearchHit[] | null> {
  const instance = await loadPagefind(version === undefined ? bundles : releaseBundles(bundles));
  const found = await searchPages(instance, query, { limit, debounceMs: 120, version });
  return (
    found?.map((item) => ({
      url: item.url,
      title: item.meta.title ?? item.url,
      excerpt: item.excerpt,
      headings: (item.sub_results ?? [])
        .filter((sub) => sub.url !== item.url && sub.title !== item.meta.title)
        .slice(0, 3)
        .map((sub) => ({ title: sub.title, url: sub.url, excerpt: sub.excerpt })),
    })) ?? null
  );
}
