/**
 * Loads the search bundle the reader may use: the one over every page for a signed-in
 * reader, the one over public pages for everyone else (the gate refuses the first to
 * signed-out readers). The bundles are built after the site (server/src/manifest/
 * search-index.ts) and loaded at run time, outside the bundler.
 */
export const SEARCH_ALL = '/search/all/';
export const SEARCH_PUBLIC = '/search/public/';
export const HIGHLIGHT_PARAM = 'highlight';

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
  sub_results?: { title: string; url: string; excerpt: string }[];
}

interface PagefindModule {
  options(options: Record<string, unknown>): Promise<void>;
  init(): Promise<void>;
  debouncedSearch(
    query: string,
    options?: Record<string, unknown>,
    timeout?: number,
  ): Promise<{ results: { data(): Promise<PagefindResultData> }[] } | null>;
}

const loaded = new Map<string, Promise<PagefindModule>>();

export function loadPagefind(base: string): Promise<PagefindModule> {
  let module = loaded.get(base);
  if (!module) {
    module = (import(/* webpackIgnore: true */ `${base}pagefind.js`) as Promise<PagefindModule>).then(
      async (pagefind) => {
        await pagefind.options({ basePath: base, highlightParam: HIGHLIGHT_PARAM, excerptLength: 24 });
        await pagefind.init();
        return pagefind;
      },
    );
    module.catch(() => loaded.delete(base));
    loaded.set(base, module);
  }
  return module;
}

/** Runs a query; null when a newer query superseded it while it waited. */
export async function search(base: string, query: string, limit = 8): Promise<SearchHit[] | null> {
  const pagefind = await loadPagefind(base);
  const found = await pagefind.debouncedSearch(query, {}, 120);
  if (found === null) return null;
  const data = await Promise.all(found.results.slice(0, limit).map((result) => result.data()));
  return data.map((item) => ({
    url: item.url,
    title: item.meta.title ?? item.url,
    excerpt: item.excerpt,
    headings: (item.sub_results ?? [])
      .filter((sub) => sub.url !== item.url && sub.title !== item.meta.title)
      .slice(0, 3)
      .map((sub) => ({ title: sub.title, url: sub.url, excerpt: sub.excerpt })),
  }));
}
