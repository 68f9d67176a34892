import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import * as pagefind from 'pagefind';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { GIVEN_FILES_VERSION, withGivenFiles } from './pagefind-files.js';

/** The bundle the installed Pagefind writes for one page, by file name. */
const bundle = new Map<string, Uint8Array>();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'portal-given-files-'));
  const { index } = await pagefind.createIndex({ forceLanguage: 'en' });
  if (!index) throw new Error('Pagefind did not start');
  try {
    await index.addHTMLFile({
      url: '/docs/rails/',
      content: '<html lang="en"><body><h1>Rails</h1><p>Focusable rails scroll sideways.</p></body></html>',
    });
    for (const file of (await index.getFiles()).files) bundle.set(file.path, file.content);
  } finally {
    await pagefind.close();
  }
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const text = (name: string): string => Buffer.from(bundle.get(name) ?? '').toString('utf8');

describe("the search bundles' scripts, given their first files", () => {
  it('change both of Pagefind 1.5.2’s scripts, once, and refuse a script without what they change', () => {
    for (const name of ['pagefind.js', 'pagefind-worker.js']) {
      const changed = withGivenFiles(text(name));
      expect(changed, name).toContain('await portalFetch(queued.input)');
      expect(changed, name).not.toContain('await fetch(queued.input)');
      expect(() => withGivenFiles(changed), name).toThrow(/Pagefind changed/);
      expect(() => withGivenFiles(text(name).replace('performFetch(queued)', 'performFetch(q)')), name).toThrow(
        /Pagefind changed/,
      );
    }
    expect(GIVEN_FILES_VERSION).toMatch(/^[0-9a-f]{16}$/);
  });

  it('search with the files handed over and fetch only what was not, each handed-over file once', async () => {
    const script = join(dir, 'pagefind.mjs');
    await writeFile(script, withGivenFiles(text('pagefind.js')));
    const { createInstance } = (await import(pathToFileURL(script).href)) as {
      createInstance(options: Record<string, unknown>): {
        init(): Promise<void>;
        search(query: string): Promise<{ results: { data(): Promise<{ url: string }> }[] }>;
      };
    };
    const base = 'http://bundle.invalid/search/rails/';
    const given: Record<string, ArrayBuffer> = {};
    for (const [name, body] of bundle)
      if (/^(pagefind-entry\.json|pagefind\..*\.pf_meta|index\/.*)$/.test(name))
        given[`/search/rails/${name}`] = Uint8Array.from(body).buffer;
    const fetched: string[] = [];
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL(String(input));
      fetched.push(url.pathname);
      const body = bundle.get(url.pathname.slice('/search/rails/'.length));
      return new Response(body ? Uint8Array.from(body) : null, { status: body ? 200 : 404 });
    });
    try {
      const search = createInstance({ basePath: base, baseUrl: '/', portalFiles: given });
      await search.init();
      const found = await search.search('rails');
      expect((await found.results[0]?.data())?.url).toBe('/docs/rails/');
      // The engine (WebAssembly) and the page's fragment were not handed over.
      expect(fetched.filter((path) => !/wasm\.|\/fragment\//.test(path))).toEqual([]);
      expect(fetched.some((path) => path.includes('/fragment/'))).toBe(true);
      // A second instance is not handed the files again: it fetches them.
      const again = createInstance({ basePath: base, baseUrl: '/' });
      await again.init();
      await again.search('rails');
      expect(fetched.some((path) => path.endsWith('pagefind-entry.json'))).toBe(true);
    } finally {
      fetchSpy.mockRestore();
    }
  });
});
