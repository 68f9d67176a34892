import { gzipSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import { BUNDLE_PATH, isSearchStartFile, packSearchFiles, searchStartBundleOf, unpackSearchFiles } from './files.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);
const text = (body: ArrayBuffer | undefined): string => new TextDecoder().decode(body);

describe("the search's files in one answer", () => {
  it('come out as they went in, a gzip form undone', async () => {
    const words = JSON.stringify({ focus: 3, rails: 1 });
    const body = packSearchFiles([
      ['/search/public/pagefind-entry.json', bytes('{"version":"1.5.2"}')],
      ['/search/public/portal-words.json', gzipSync(words), 'gzip'],
      ['/search/public/index/en_1.pf_index', new Uint8Array([0x1f, 0x8b, 0, 255])],
      ['/search/empty/portal-words.json', new Uint8Array(0)],
    ]);
    const files = await unpackSearchFiles(body.buffer as ArrayBuffer);
    expect(Object.keys(files)).toEqual([
      '/search/public/pagefind-entry.json',
      '/search/public/portal-words.json',
      '/search/public/index/en_1.pf_index',
      '/search/empty/portal-words.json',
    ]);
    expect(text(files['/search/public/portal-words.json'])).toBe(words);
    expect([...new Uint8Array(files['/search/public/index/en_1.pf_index'] ?? new ArrayBuffer(0))]).toEqual([
      0x1f, 0x8b, 0, 255,
    ]);
    expect(files['/search/empty/portal-words.json']?.byteLength).toBe(0);
    expect(await unpackSearchFiles(packSearchFiles([]).buffer as ArrayBuffer)).toEqual({});
  });

  it('refuse a body cut short', async () => {
    const body = packSearchFiles([['/search/public/portal-words.json', bytes('{"a":1}')]]);
    await expect(unpackSearchFiles(body.slice(0, body.length - 1).buffer)).rejects.toThrow(/cut short at/);
    await expect(unpackSearchFiles(body.slice(0, 3).buffer)).rejects.toThrow(/cut short/);
  });

  it('are those a search fetches before its first answer, of bundles as the portal names them', () => {
    for (const file of [
      'pagefind-entry.json',
      'portal-words.json',
      'pagefind.en_4e5c7a3f32.pf_meta',
      'index/en_faeda99.pf_index',
      'filter/en_1a2b3c4.pf_filter',
    ])
      expect(isSearchStartFile(file), file).toBe(true);
    for (const file of [
      'fragment/en_59ab5f5.pf_fragment',
      'pagefind.js',
      'wasm.en.pagefind',
      'older/2.3.0/portal-words.json',
    ])
      expect(isSearchStartFile(file), file).toBe(false);
    for (const bundle of ['/search/public/', '/search/shelf-staff/', '/search/layout/older/2.3.0/'])
      expect(BUNDLE_PATH.test(bundle), bundle).toBe(true);
    for (const bundle of [
      '/search/',
      '/search/Layout/',
      '/search/a/b/',
      '/search/a/older/x/',
      '/docs/',
      '/search/../x/',
    ])
      expect(BUNDLE_PATH.test(bundle), bundle).toBe(false);
    expect(searchStartBundleOf('/search/layout/index/en_1a2b.pf_index')).toBe('/search/layout/');
    expect(searchStartBundleOf('/search/layout/older/2.3.0/portal-words.json')).toBe('/search/layout/older/2.3.0/');
    for (const url of [
      '/search/layout/fragment/en_1.pf_fragment',
      '/search/layout/pagefind.js',
      '/search/layout/older/2.x/portal-words.json',
      '/docs/index/en_1.pf_index',
    ])
      expect(searchStartBundleOf(url), url).toBeNull();
  });
});
