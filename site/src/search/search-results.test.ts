/**
 * What the search box gets from `search()`: Pagefind's results shaped into hits (title,
 * excerpt, up to three sections), read in batches. Pagefind itself is a script the build
 * writes into each bundle, so a stand-in module answers here with results as Pagefind
 * 1.x gives them. Which results, how many are read and which rank first is packages/search's
 * business (its own tests), not tested here.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

import { packSearchFiles, SEARCH_FILES_PATH } from '@portal/search';

interface FakeResult {
  url: string;
  excerpt: string;
  meta: { title?: string; trail?: string };
  content: string;
  locations: number[];
  sub_results?: { title: string; url: string; excerpt: string }[];
}

const pagefind = vi.hoisted(() => ({
  results: [] as FakeResult[],
  /** How many result bodies were read (each `data()` is a fetch of a fragment). */
  read: 0,
  created: [] as Record<string, unknown>[],
  merged: [] as string[],
  /** The queries run with `search` (not the debounced one the box's queries take). */
  searched: [] as string[],
}));

vi.mock('/search/public/pagefind.js', () => ({
  createInstance: (options: Record<string, unknown>) => {
    pagefind.created.push(options);
    return {
      init: async () => undefined,
      preload: async () => undefined,
      mergeIndex: async (path: string) => {
        pagefind.merged.push(path);
      },
      search: async (query: string) => {
        pagefind.searched.push(query);
        return { results: [] };
      },
      debouncedSearch: async () => ({
        results: pagefind.results.map((result) => ({
          data: async () => {
            pagefind.read++;
            return result;
          },
        })),
      }),
    };
  },
}));

const { preloadSearch, search } = await import('./pagefind');

const page = (path: string, title: string | undefined, extra: Partial<FakeResult> = {}): FakeResult => ({
  url: path,
  excerpt: `… the <mark>player</mark> of ${path} …`,
  meta: title === undefined ? {} : { title },
  content: 'The player plays',
  locations: [1],
  ...extra,
});

beforeEach(() => {
  pagefind.results = [];
  pagefind.read = 0;
  // Every bundle has pages: a word list, in the one answer of the bundles' first files.
  vi.stubGlobal('fetch', async (url: string) => {
    const asked = new URL(url, 'http://portal.invalid');
    if (asked.pathname !== SEARCH_FILES_PATH) return new Response(null, { status: 404 });
    const words = new TextEncoder().encode(JSON.stringify({ shaka: 4, player: 9 }));
    const bundles = asked.searchParams.get('bundles')?.split(',') ?? [];
    return new Response(packSearchFiles(bundles.map((bundle) => [`${bundle}portal-words.json`, words] as const)));
  });
});

describe('search', () => {
  it('gives each result its URL, title and highlighted excerpt, in Pagefind’s order', async () => {
    pagefind.results = [page('/docs/a/', 'A'), page('/docs/b/', 'B')];
    const answer = await search(['/search/public/'], 'player');
    expect(answer?.hits).toEqual([
      { url: '/docs/a/', title: 'A', breadcrumb: [], excerpt: '… the <mark>player</mark> of /docs/a/ …', headings: [] },
      { url: '/docs/b/', title: 'B', breadcrumb: [], excerpt: '… the <mark>player</mark> of /docs/b/ …', headings: [] },
    ]);
    expect(answer?.corrected).toBeNull();
  });

  it('labels each result with its section and package, and shows code in its snippet as text', async () => {
    pagefind.results = [
      page('/docs/player-manager-mono/packages/player-framework/', 'player-framework', {
        meta: { title: 'player-framework', trail: 'Player Framework › player-manager-mono' },
        excerpt: 'Wrap the app: &lt;<mark>PlayerProvider</mark> manager={manager}&gt; &lt;/PlayerProvider&gt;',
      }),
    ];
    const [hit] = (await search(['/search/public/'], 'player'))?.hits ?? [];
    expect(hit?.breadcrumb).toEqual(['Player Framework', 'player-manager-mono']);
    expect(hit?.excerpt).toBe('Wrap the app: <mark>PlayerProvider</mark> PlayerProvider');
  });

  it('titles a page that has no title by its URL', async () => {
    pagefind.results = [page('/docs/untitled/', undefined)];
    expect((await search(['/search/public/'], 'player'))?.hits[0]?.title).toBe('/docs/untitled/');
  });

  it('lists up to three sections of a page, leaving out the page itself', async () => {
    const sections = ['Install', 'Use', 'Seek', 'Errors'].map((title) => ({
      title,
      url: `/docs/a/#${title.toLowerCase()}`,
      excerpt: `${title} the <mark>player</mark>`,
    }));
    pagefind.results = [
      page('/docs/a/', 'A', {
        sub_results: [
          { title: 'A', url: '/docs/a/#top', excerpt: 'same title as the page' },
          { title: 'Intro', url: '/docs/a/', excerpt: 'same URL as the page' },
          ...sections,
        ],
      }),
    ];
    const answer = await search(['/search/public/'], 'player');
    expect(answer?.hits[0]?.headings).toEqual(sections.slice(0, 3));
  });

  it('sets up one instance per set of bundles, merging the others into the first', async () => {
    const before = pagefind.created.length;
    const bundles = ['/search/public/', '/search/admin+partner+staff/'];
    await search(bundles, 'player');
    await search(bundles, 'seek');
    expect(pagefind.created.length - before).toBe(1);
    expect(pagefind.created.at(-1)).toMatchObject({ basePath: '/search/public/', highlightParam: 'highlight' });
    expect(pagefind.merged).toEqual(['/search/admin+partner+staff/']);
  });
});

describe('before and around the query', () => {
  it('opens the reader’s search ahead of the first query, once', async () => {
    const bundles = ['/search/public/', '/search/preloaded/'];
    const before = pagefind.created.length;
    preloadSearch(bundles);
    preloadSearch(bundles);
    await vi.waitFor(() => expect(pagefind.merged).toContain('/search/preloaded/'));
    expect(pagefind.created.length - before).toBe(1);
    // One search for the commonest word of the word lists makes Pagefind's worker load its
    // engine and metadata now rather than at the reader's first query.
    await vi.waitFor(() => expect(pagefind.searched.at(-1)).toBe('player'));
    await search(bundles, 'player');
    expect(pagefind.created.length - before).toBe(1);
  });

  it('says which query it searched instead of a misspelt one', async () => {
    pagefind.results = [page('/docs/shaka/', 'Shaka', { content: 'The shaka player', locations: [1] })];
    const answer = await search(['/search/public/', '/search/typo/'], 'shaak');
    expect(answer?.corrected).toBe('shaka');
    expect(answer?.hits.map((hit) => hit.url)).toEqual(['/docs/shaka/']);
    expect((await search(['/search/public/', '/search/typo/'], 'shaka'))?.corrected).toBeNull();
  });

  it('has no nearby sections to offer when nothing near the query was found either', async () => {
    const answer = await search(['/search/public/'], 'xyzzyqq');
    expect(answer).toEqual({ hits: [], corrected: null, nearby: [] });
  });
});
