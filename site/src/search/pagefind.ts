/**
 * Loads the search bundles the reader may use. The build writes one Pagefind bundle per
 * access unit (`/search/<unit>/`: `public`, `admin+partner+staff`, …), each gated like its
 * pages. A signed-out visitor searches the public one; a signed-in reader the public one
 * with every unit they belong to merged in (Pagefind's multi-index search). The bundles
 * are built after the site (site/src/plugins/gate-files/search-index.ts) and loaded at run time,
 * outside the bundler.
 */
import { accessUnits, mayRead, PUBLIC } from '@portal/access';

import { answersQuery, matchedWords } from './relevance';

export const SEARCH_ROOT = '/search/';
export const SEARCH_PUBLIC = `${SEARCH_ROOT}${PUBLIC}/`;
export const HIGHLIGHT_PARAM = 'highlight';

/**
 * The bundles a reader searches, public first: the one Pagefind loads and the others merge
 * into. `groups` null: signed out.
 */
export function searchBundlesFor(groups: readonly string[] | null): string[] {
  return accessUnits()
    .filter((unit) => unit.readers === PUBLIC || mayRead(groups, unit.readers))
    .map((unit) => `${SEARCH_ROOT}${unit.id}/`);
}

export interface SearchHit {
  url: string;
  title: string;
  /** HTML: text with the matched words in <mark>, escaped by Pagefind. */
  excerpt: string;
  headings: { title: string; url: string; excerpt: string }[];
}

interface PagefindResultData {
  url: string;
  excerpt: string;
  meta: { title?: string };
  /** The page's text and the word positions the query matched in it. */
  content: string;
  raw_content?: string;
  locations: number[];
  sub_results?: { title: string; url: string; excerpt: string }[];
}

/** One Pagefind search instance (`createInstance` of the bundle's pagefind.js). */
interface PagefindInstance {
  init(): Promise<void>;
  mergeIndex(indexPath: string, options?: Record<string, unknown>): Promise<void>;
  debouncedSearch(
    query: string,
    options?: Record<string, unknown>,
    timeout?: number,
  ): Promise<{ results: { data(): Promise<PagefindResultData> }[] } | null>;
}

interface PagefindModule {
  createInstance(options: Record<string, unknown>): PagefindInstance;
}

// The same for every bundle, so results from merged indexes read alike.
const RESULT_OPTIONS = { highlightParam: HIGHLIGHT_PARAM, excerptLength: 24 };

const loaded = new Map<string, Promise<PagefindInstance>>();

/**
 * A search over `bundles`, set up once per set: the first bundle's script makes the
 * instance, the others merge into it. An instance of its own per set, so a search begun
 * before the session answered (public only) never mixes with the reader's wider one.
 */
export function loadPagefind(bundles: readonly string[]): Promise<PagefindInstance> {
  const key = bundles.join(' ');
  let instance = loaded.get(key);
  if (!instance) {
    const [primary = SEARCH_PUBLIC, ...merged] = bundles;
    instance = (import(/* webpackIgnore: true */ `${primary}pagefind.js`) as Promise<PagefindModule>).then(
      async (pagefind) => {
        const search = pagefind.createInstance({ basePath: primary, ...RESULT_OPTIONS });
        await search.init();
        await Promise.all(merged.map((bundle) => search.mergeIndex(bundle, RESULT_OPTIONS)));
        return search;
      },
    );
    instance.catch(() => loaded.delete(key));
    loaded.set(key, instance);
  }
  return instance;
}

/**
 * Runs a query; null when a newer query superseded it while it waited. Results Pagefind
 * found only by cutting a query word down to a short prefix are dropped (relevance.ts),
 * so a query that matches nothing gets no results. Results are read in rank order, a
 * batch at a time, until `limit` are kept or three batches are spent.
 */
export async function search(bundles: readonly string[], query: string, limit = 8): Promise<SearchHit[] | null> {
  const pagefind = await loadPagefind(bundles);
  const found = await pagefind.debouncedSearch(query, {}, 120);
  if (found === null) return null;
  const data: PagefindResultData[] = [];
  for (let start = 0; start < Math.min(found.results.length, limit * 3) && data.length < limit; start += limit) {
    const batch = await Promise.all(found.results.slice(start, start + limit).map((result) => result.data()));
    data.push(
      ...batch.filter((item) => answersQuery(query, matchedWords(item.raw_content ?? item.content, item.locations))),
    );
  }
  return data.slice(0, limit).map((item) => ({
    url: item.url,
    title: item.meta.title ?? item.url,
    excerpt: item.excerpt,
    headings: (item.sub_results ?? [])
      .filter((sub) => sub.url !== item.url && sub.title !== item.meta.title)
      .slice(0, 3)
      .map((sub) => ({ title: sub.title, url: sub.url, excerpt: sub.excerpt })),
  }));
}
