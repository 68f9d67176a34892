import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { pathToFileURL } from 'node:url';

import * as pagefind from 'pagefind';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { writeSearchBundle } from '@portal/built-site/write';
import { writeFile } from 'node:fs/promises';

import {
  aboutness,
  correctQuery,
  countWords,
  isSearchStartFile,
  nearbySections,
  openSearch,
  packSearchFiles,
  rank,
  SEARCH_FILES_PATH,
  searchPages,
  WORDS_FILE,
  type PagefindInstance,
  type PagefindModule,
} from './index.js';

const page = (title: string, body: string): string =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1>${body}</article></body></html>`;

const mentions = (times: number): string =>
  Array.from({ length: times }, (_, i) => `<p>Call <code>useFocusable</code> in component ${i}.</p>`).join('');

/** Three bundles as the build writes them: public, one without pages (as the administration unit's), private. */
const BUNDLES: Record<string, { url: string; html: string }[]> = {
  public: [
    {
      url: '/docs/spatial-navigation/',
      html: page(
        'Spatial Navigation',
        `<p>The library behind focus.</p><h2 id="usefocusable-options">useFocusable options</h2><p>useFocusable takes a key.</p>${'<p>Other words about trees and rails.</p>'.repeat(40)}`,
      ),
    },
    ...Array.from({ length: 6 }, (_, i) => ({
      url: `/docs/spatial-navigation/guide-${i}/`,
      html: page(`Guide ${i}`, mentions(3)),
    })),
  ],
  admin: [],
  private: [
    { url: '/docs/hooks/', html: page('Hooks', mentions(2)) },
    { url: '/docs/release-flow/', html: page('Release Flow', '<h2 id="x-y-z">x.y.z</h2><p>Versions.</p>') },
    {
      url: '/docs/media-keys/',
      html: page(
        'Media keys',
        '<p>Register the media keys at start-up, so that pause on the remote reaches the app.</p>',
      ),
    },
    ...Array.from({ length: 8 }, (_, i) => ({ url: `/docs/other-${i}/`, html: page(`Other ${i}`, '<p>Nothing.</p>') })),
  ],
};

const AS_PAGEFIND_WROTE_IT = 'pagefind-as-written.js';

let dir: string;
let server: Server;
/** The paths the test server was asked for, in order. */
const asked: string[] = [];

/** Each bundle's files a search starts with, by path, as the gate answers SEARCH_FILES_PATH. */
async function startFiles(bundles: readonly string[]): Promise<[string, Uint8Array][]> {
  const files: [string, Uint8Array][] = [];
  for (const bundle of bundles) {
    const names = await readdir(join(dir, bundle), { recursive: true }).catch(() => []);
    for (const name of names.filter(isSearchStartFile).sort())
      files.push([`${bundle}${name}`, await readFile(join(dir, bundle, name))]);
  }
  return files;
}
let origin: string;
const load = (bundle: string): Promise<PagefindModule> =>
  import(pathToFileURL(join(dir, bundle, 'pagefind.js')).href) as Promise<PagefindModule>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portal-search-test-'));
  try {
    for (const [unit, pages] of Object.entries(BUNDLES)) {
      const { index } = await pagefind.createIndex({ rootSelector: 'article', forceLanguage: 'en' });
      if (!index) throw new Error('Pagefind did not start');
      for (const { url, html } of pages) await index.addHTMLFile({ url, content: html });
      await writeSearchBundle(index, join(dir, 'search', unit));
      // Pagefind's script as Pagefind wrote it, before the build replaced its excerpt builder.
      const script = (await index.getFiles()).files.find((file) => file.path === 'pagefind.js');
      await writeFile(join(dir, 'search', unit, AS_PAGEFIND_WROTE_IT), script?.content ?? '');
      // The word list the build writes beside each bundle (its pages' text, as Pagefind indexed it).
      if (unit !== 'admin')
        await writeFile(
          join(dir, 'search', unit, WORDS_FILE),
          JSON.stringify(countWords(pages.map(({ html }) => html.replace(/<[^>]*>/g, ' ')))),
        );
    }
  } finally {
    await pagefind.close();
  }
  // The bundles over HTTP, as the gate serves them: Pagefind fetches its index files, and
  // the search its first files of every bundle in one answer.
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    asked.push(url.pathname);
    if (url.pathname === SEARCH_FILES_PATH) {
      const bundles = url.searchParams.get('bundles')?.split(',') ?? [];
      return void startFiles(bundles).then((files) => response.end(packSearchFiles(files)));
    }
    const file = normalize(join(dir, decodeURIComponent(url.pathname)));
    if (!file.startsWith(dir)) return void response.writeHead(400).end();
    createReadStream(file)
      .on('error', () => response.writeHead(404).end())
      .pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** The public and private bundles, merged as a partner's are. */
async function partnerSearch(): Promise<PagefindInstance> {
  const search = await openSearch(['/search/public/', '/search/private/'], {
    load: () => load('search/public'),
    origin,
  });
  if (search === null) throw new Error('the test bundles have no index');
  return search;
}

const paths = (found: { url: string }[] | null): string[] =>
  (found ?? []).map((item) => new URL(item.url, 'http://x').pathname);

describe('the one search, over real Pagefind bundles', () => {
  it("reads each result as Pagefind's own script does, with the build's excerpt builder", async () => {
    const open = (file: string) =>
      openSearch(['/search/public/', '/search/private/'], {
        load: () => import(pathToFileURL(join(dir, 'search/public', file)).href) as Promise<PagefindModule>,
        origin,
      });
    const [built, asWritten] = await Promise.all([open('pagefind.js'), open(AS_PAGEFIND_WROTE_IT)]);
    if (!built || !asWritten) throw new Error('the test bundles have no index');
    const read = async (search: PagefindInstance, query: string) => {
      const found = await search.search(query);
      return (await Promise.all(found.results.map((result) => result.data()))).map((data) => ({
        url: data.url,
        excerpt: data.excerpt,
        headings: data.sub_results?.map((sub) => [sub.url, sub.excerpt]),
      }));
    };
    for (const query of ['useFocusable', 'trees rails', 'words', 'call component']) {
      const answer = await read(built, query);
      expect(answer.length, query).toBeGreaterThan(0);
      expect(answer, query).toEqual(await read(asWritten, query));
    }
    // The spatial navigation page: an excerpt per heading, each with its match marked.
    const page = (await read(built, 'useFocusable')).find((item) => item.url.includes('/docs/spatial-navigation/?'));
    expect(
      page?.headings?.some(([url, excerpt]) => url?.includes('#usefocusable-options') && excerpt?.includes('<mark>')),
    ).toBe(true);
  });

  it('asks once for the files every bundle starts with, and then only for the results it reads', async () => {
    asked.length = 0;
    const search = await partnerSearch();
    // Besides the files, the engine's WebAssembly.
    expect(asked).toEqual([SEARCH_FILES_PATH, '/search/public/wasm.en.pagefind']);
    asked.length = 0;
    expect((await searchPages(search, 'useFocusable'))?.length).toBeGreaterThan(0);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.filter((path) => !/\/fragment\/[\w-]+\.pf_fragment$/.test(path))).toEqual([]);
  });

  it('searches a bundle the reader may not read (left out of the files) as one without pages', async () => {
    const search = await openSearch(['/search/public/', '/search/gone/', '/search/private/'], {
      load: () => load('search/public'),
      origin,
    });
    expect(paths(await searchPages(search, 'hooks'))).toEqual(['/docs/hooks/']);
  });

  it('skips a bundle without pages instead of failing the whole search', async () => {
    const search = await openSearch(['/search/public/', '/search/admin/', '/search/private/'], {
      load: () => load('search/public'),
      origin,
    });
    expect(paths(await searchPages(search, 'hooks'))).toEqual(['/docs/hooks/']);
    expect(await openSearch(['/search/admin/'], { load: () => load('search/admin'), origin })).toBeNull();
    // The first bundle without pages: the engine is the first bundle's with pages.
    const loaded: string[] = [];
    const fromSecond = await openSearch(['/search/admin/', '/search/private/'], {
      load: (bundle) => {
        loaded.push(bundle);
        return load(bundle.slice(1, -1));
      },
      origin,
    });
    expect(paths(await searchPages(fromSecond, 'hooks'))).toEqual(['/docs/hooks/']);
    expect(loaded).toEqual(['/search/admin/', '/search/private/']);
    expect(await searchPages(null, 'hooks')).toEqual([]);
  });

  it('ranks the page that defines a name first, though Pagefind scores the merged bundles apart', async () => {
    const search = await partnerSearch();
    const raw = await search.search('useFocusable');
    const pagefindOrder = paths(await Promise.all(raw.results.map((result) => result.data())));
    // Pagefind alone puts the private page that only mentions it first (its bundle has fewer such pages).
    expect(pagefindOrder[0]).not.toBe('/docs/spatial-navigation/');
    const ranked = paths(await searchPages(search, 'useFocusable'));
    expect(ranked[0]).toBe('/docs/spatial-navigation/');
    expect(ranked.slice(1).sort()).toEqual(
      pagefindOrder
        .filter((path) => path !== ranked[0])
        .slice(0, 7)
        .sort(),
    );
  });

  it('finds nothing for nonsense that Pagefind answers with a shorter prefix', async () => {
    const search = await partnerSearch();
    expect((await search.search('xyzzyqq')).results.length).toBeGreaterThan(0);
    expect(await searchPages(search, 'xyzzyqq')).toEqual([]);
    expect(await searchPages(search, '  ')).toEqual([]);
  });

  it('forgives one typo in a word of five letters or more, with the words of the reader’s bundles only', async () => {
    const search = await partnerSearch();
    // "Release" is a word of the private bundle: the partner's search knows it.
    expect(correctQuery(search, 'relaese flow')).toBe('release flow');
    expect(paths(await searchPages(search, 'relaese flow'))).toEqual(['/docs/release-flow/']);
    expect(paths(await searchPages(search, 'usefocusble')).length).toBeGreaterThan(0);
    // A reader of the public bundle alone never learns it.
    const publicOnly = await openSearch(['/search/public/'], { load: () => load('search/public'), origin });
    expect(correctQuery(publicOnly, 'relaese flow')).toBe('relaese flow');
    expect(await searchPages(publicOnly, 'relaese flow')).toEqual([]);
    expect(await searchPages(search, 'xyzzyqq')).toEqual([]);
  });

  it('answers a question in a reader’s words with the page that has most of them', async () => {
    const search = await partnerSearch();
    // No page has "button": the page with the other words answers, and only it.
    expect(paths(await searchPages(search, 'how do I make the pause button on the remote reach my app'))).toEqual([
      '/docs/media-keys/',
    ]);
    // Two words no page has together are two subjects: nothing is guessed.
    expect(await searchPages(search, 'pause versions')).toEqual([]);
  });

  it('offers the sections near a query that found nothing, and none for nonsense', async () => {
    const search = await partnerSearch();
    // Every word must match; one of them alone still shows where to look.
    expect(await searchPages(search, 'hooks xyzzyqq')).toEqual([]);
    const near = await nearbySections(search, 'hooks xyzzyqq');
    expect(near.map((place) => new URL(place.url, 'http://x').pathname)).toContain('/docs/hooks/');
    expect(await nearbySections(search, 'xyzzyqq')).toEqual([]);
  });

  it('cuts one ranked list at any limit', async () => {
    const search = await partnerSearch();
    const eight = paths(await searchPages(search, 'useFocusable', { limit: 8 }));
    expect(eight.length).toBe(8);
    expect(paths(await searchPages(search, 'useFocusable', { limit: 3 }))).toEqual(eight.slice(0, 3));
  });
});

describe('aboutness and rank', () => {
  const result = (url: string, title: string, headings: string[] = [], matched = 'useFocusable') => ({
    url,
    excerpt: '',
    meta: { title },
    content: `${matched} here`,
    locations: [0],
    anchors: headings.map((text) => ({ element: 'h2', text })),
  });

  it('scores a title that starts with the query over a heading that does over a title that has it', () => {
    expect(aboutness('layout', result('/a', 'Layout Engine'))).toBe(3);
    expect(aboutness('useFocusable', result('/a', 'Spatial Navigation', ['useFocusable options']))).toBe(2);
    expect(aboutness('useFocusable', result('/a', 'Hooks', ['useFocusableButton']))).toBe(0);
    expect(aboutness('engine', result('/a', 'Layout Engine'))).toBe(1);
    expect(aboutness('useFocusable', { meta: {}, anchors: [{ element: 'div', text: 'useFocusable' }] })).toBe(0);
  });

  it('scores a title that is the query over one that starts with it: a symbol finds its reference page first', () => {
    expect(aboutness('layout engine', result('/a', 'Layout Engine'))).toBe(4);
    expect(aboutness('useFocusable', result('/api/useFocusable', 'useFocusable'))).toBe(4);
    expect(aboutness('useFocusable', result('/api/UseFocusableConfig', 'UseFocusableConfig'))).toBe(0);
    const found = [
      result('/readme', 'Norigin Spatial Navigation', ['useFocusable']),
      result('/api/changes', 'Norigin Spatial Navigation API changes'),
      result('/api/useFocusable', 'useFocusable'),
    ];
    expect(rank('useFocusable', found).map((item) => item.url)).toEqual([
      '/api/useFocusable',
      '/readme',
      '/api/changes',
    ]);
  });

  it('keeps Pagefind’s order within a rank and drops prefix-only matches', () => {
    const found = [
      result('/mentions', 'Hooks'),
      result('/x', 'Release Flow', [], 'x.y.z'),
      result('/defines', 'Spatial Navigation', ['useFocusable options']),
      result('/also-mentions', 'Guide'),
    ];
    expect(rank('useFocusable', found).map((item) => item.url)).toEqual(['/defines', '/mentions', '/also-mentions']);
  });

  it('puts a repository’s changelog, licence and the like after the docs of the same rank, unless asked for', () => {
    const found = [
      result('/docs/youbora/CHANGELOG?highlight=youbora', 'Changelog', [], 'youbora'),
      result('/docs/youbora/LICENSE', 'License', [], 'youbora'),
      result('/docs/youbora/', 'tracking-adapter-youbora', [], 'youbora'),
    ];
    expect(rank('youbora', found).map((item) => item.url)).toEqual([
      '/docs/youbora/',
      '/docs/youbora/CHANGELOG?highlight=youbora',
      '/docs/youbora/LICENSE',
    ]);
    expect(
      rank(
        'youbora changelog',
        found.map((item) => ({ ...item, content: 'youbora changelog', locations: [0, 1] })),
      )[0]?.url,
    ).toBe('/docs/youbora/CHANGELOG?highlight=youbora');
  });
});
