import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';

import { describe, expect, it } from 'vitest';

import type { Readers } from '@portal/access';

import { MANIFEST_FILE, type Manifest } from './index.js';
import * as pagefind from 'pagefind';

import { withFastExcerpts } from './pagefind-excerpt.js';
import { withGivenFiles } from './pagefind-files.js';

import {
  contentTypeOf,
  inlineScriptHashes,
  keepFile,
  placeKeptFolder,
  writeManifest,
  writeSearchBundle,
} from './write.js';

async function build(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-built-site-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

const page = `<!doctype html><html><head><script>document.documentElement.dataset.theme='light'</script></head><body>${'text '.repeat(100)}</body></html>`;

describe('the manifest of a build', () => {
  it('keys pages by route and files by path, labels readers and precompresses text', async () => {
    const dir = await build({
      '404.html': page,
      'docs/layout-engine/index.html': page,
      'assets/js/main.0f3c9a77.js': 'x'.repeat(10),
      'assets/fonts/inter-core-8dcef3b435764e2e.woff2': 'WOFF2',
      'assets/js/main.js': 'x'.repeat(10),
      'img/logo.png': 'PNG',
    });
    const readers = new Map<string, Readers>([
      ['/404.html', 'public'],
      ['/docs/layout-engine/index.html', ['layout']],
      ['/assets/js/main.0f3c9a77.js', 'public'],
      ['/assets/fonts/inter-core-8dcef3b435764e2e.woff2', 'public'],
      ['/assets/js/main.js', 'public'],
      ['/img/logo.png', ['all-units']],
    ]);
    const manifest = await writeManifest(dir, readers);
    expect(Object.keys(manifest.entries).sort()).toEqual([
      '/404.html',
      '/assets/fonts/inter-core-8dcef3b435764e2e.woff2',
      '/assets/js/main.0f3c9a77.js',
      '/assets/js/main.js',
      '/docs/layout-engine',
      '/img/logo.png',
    ]);
    expect(manifest.entries['/docs/layout-engine']).toMatchObject({
      url: '/docs/layout-engine/',
      file: 'docs/layout-engine/index.html',
      kind: 'page',
      access: 'private',
      units: ['layout'],
      contentType: 'text/html; charset=utf-8',
      immutable: false,
    });
    expect(manifest.entries['/assets/js/main.0f3c9a77.js']).toMatchObject({ access: 'public', immutable: true });
    // A loader's `name-hash` (fonts, images) is a content hash too; a stable name is not.
    expect(manifest.entries['/assets/fonts/inter-core-8dcef3b435764e2e.woff2']?.immutable).toBe(true);
    expect(manifest.entries['/assets/js/main.js']?.immutable).toBe(false);
    // Too small to gain from compression: sent as it is.
    expect(manifest.entries['/assets/js/main.0f3c9a77.js']?.br).toBeUndefined();
    const br = manifest.entries['/docs/layout-engine']?.br;
    expect(br?.file).toBe('docs/layout-engine/index.html.br');
    expect(brotliDecompressSync(await readFile(join(dir, br?.file ?? ''))).toString()).toBe(page);
    expect(manifest.inlineScriptHashes).toEqual(inlineScriptHashes(page));
    const { foreignScripts, ...written } = manifest;
    expect(foreignScripts).toEqual([]);
    expect(JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(written)) as Manifest,
    );
  });

  it("allows only the inline scripts of the portal's own pages, and names the pages holding any other", async () => {
    const theme = '<script>document.documentElement.dataset.theme="light"</script>';
    const padding = ' '.repeat(300);
    const dir = await build({
      '404.html': `<html><head>${theme}</head><body>Not found${padding}</body></html>`,
      'docs/nav/index.html': `<html><head>${theme}</head><body><script>window.__pwned=1</script>${padding}</body></html>`,
    });
    const manifest = await writeManifest(
      dir,
      new Map<string, Readers>([
        ['/404.html', 'public'],
        ['/docs/nav/index.html', 'public'],
      ]),
    );
    expect(manifest.inlineScriptHashes).toEqual(inlineScriptHashes(theme));
    expect(manifest.inlineScriptHashes).not.toContain(inlineScriptHashes('<script>window.__pwned=1</script>')[0]);
    expect(manifest.foreignScripts).toEqual(['/docs/nav/index.html']);
  });

  it('refuses a file whose readers were not worked out', async () => {
    const dir = await build({ '404.html': page, 'docs/secret/index.html': page });
    await expect(writeManifest(dir, new Map([['/404.html', 'public']]))).rejects.toThrow(
      'No readers were worked out for /docs/secret/index.html; refusing to guess',
    );
  });

  it('refuses a folder without a not-found page', async () => {
    const dir = await build({ 'index.html': page });
    await expect(writeManifest(dir, new Map([['/index.html', 'public']]))).rejects.toThrow(/it has no 404.html/);
  });
});

describe('inline scripts and types', () => {
  it('hashes executable inline scripts for the CSP and skips JSON data', () => {
    const hashes = inlineScriptHashes(
      '<script>a()</script><script type=application/ld+json>{"a":1}</script><script src=/x.js></script>',
    );
    expect(hashes).toEqual([`sha256-${createHash('sha256').update('a()').digest('base64')}`]);
  });

  it('types files by extension, case aside, and falls back to bytes', () => {
    expect(contentTypeOf('/docs/layout-engine.md')).toBe('text/markdown; charset=utf-8');
    expect(contentTypeOf('/IMG/LOGO.SVG')).toBe('image/svg+xml');
    expect(contentTypeOf('/search/public/wasm.en.pagefind')).toBe('application/octet-stream');
    expect(contentTypeOf('/assets/js/main.3f2a9c1e.js')).toBe('text/javascript; charset=utf-8');
    expect(contentTypeOf('/assets/fonts/inter.woff2')).toBe('font/woff2');
    expect(contentTypeOf('/docs.v2/LICENSE')).toBe('application/octet-stream');
  });
});

describe('the compressed forms kept between builds', () => {
  it('keeps compressed forms between builds by the bytes they compress, and drops those no build uses', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'portal-compressed-'));
    const other = page.replace('text', 'changed');
    const readers = new Map<string, Readers>([
      ['/404.html', 'public'],
      ['/docs/index.html', 'public'],
    ]);
    const first = await build({ '404.html': page, 'docs/index.html': page });
    await writeManifest(first, readers, { compressionCache: cache });
    const hash = createHash('sha256').update(page).digest('hex');
    // One pair of forms for the two identical pages.
    expect((await readdir(cache)).sort()).toEqual([`${hash}.br`, `${hash}.gz`]);
    expect(await readFile(join(first, 'docs/index.html.br'))).toEqual(await readFile(join(cache, `${hash}.br`)));

    // The next build takes the kept form as it is (a marker stands in for it here), and
    // compresses only the page that changed.
    await writeFile(join(cache, `${hash}.br`), 'kept');
    const second = await build({ '404.html': page, 'docs/index.html': other });
    const manifest = await writeManifest(second, readers, { compressionCache: cache });
    expect(await readFile(join(second, '404.html.br'), 'utf8')).toBe('kept');
    expect(brotliDecompressSync(await readFile(join(second, 'docs/index.html.br'))).toString()).toBe(other);
    expect(manifest.entries['/docs']?.br?.size).toBe((await readFile(join(second, 'docs/index.html.br'))).length);

    // A build without the first page: its forms leave the cache.
    const third = await build({ '404.html': other, 'docs/index.html': other });
    await writeManifest(third, readers, { compressionCache: cache });
    const otherHash = createHash('sha256').update(other).digest('hex');
    expect((await readdir(cache)).sort()).toEqual([`${otherHash}.br`, `${otherHash}.gz`]);
  });
});

describe('what a build takes from its caches', () => {
  it('is linked into place, not read and written again, and keeps its bytes when the cache moves on', async () => {
    const cache = await mkdtemp(join(tmpdir(), 'portal-compressed-'));
    const readers = new Map<string, Readers>([['/404.html', 'public']]);
    await writeManifest(await build({ '404.html': page }), readers, { compressionCache: cache });
    const hash = createHash('sha256').update(page).digest('hex');
    const kept = join(cache, `${hash}.br`);
    const before = await readFile(kept);

    // A build over an earlier run's forms replaces them.
    const next = await build({ '404.html': page, '404.html.br': 'stale' });
    await writeManifest(next, readers, { compressionCache: cache });
    const placed = join(next, '404.html.br');
    expect((await stat(placed)).ino).toBe((await stat(kept)).ino);
    expect(await readFile(placed)).toEqual(before);

    // The cache replaces a file by renaming a new one into place (keepFile): the build's stays whole.
    await keepFile(kept, 'newer');
    expect(await readFile(placed)).toEqual(before);
  });

  it('places a kept folder file by file, as a copy would', async () => {
    const kept = await build({
      'pagefind-entry.json': '{}',
      'fragment/en_1.pf_fragment': 'one',
      'index/en_2.pf_index': 'two',
    });
    const target = join(await mkdtemp(join(tmpdir(), 'portal-placed-')), 'search', 'public');
    await placeKeptFolder(kept, target);
    expect((await readdir(target, { recursive: true })).sort()).toEqual([
      'fragment',
      'fragment/en_1.pf_fragment',
      'index',
      'index/en_2.pf_index',
      'pagefind-entry.json',
    ]);
    expect(await readFile(join(target, 'fragment/en_1.pf_fragment'), 'utf8')).toBe('one');
    expect((await stat(join(target, 'index/en_2.pf_index'))).ino).toBe(
      (await stat(join(kept, 'index/en_2.pf_index'))).ino,
    );
  });
});

describe('a search bundle', () => {
  it('is complete on disk when written, though Pagefind closes at once, and leaves out its own interfaces', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portal-search-bundle-'));
    try {
      const { index } = await pagefind.createIndex({ forceLanguage: 'en' });
      if (!index) throw new Error('Pagefind did not start');
      await index.addHTMLFile({
        url: '/docs/a/',
        content: '<html lang="en"><body><h1>Focus rails</h1><p>Words.</p></body></html>',
      });
      await index.addHTMLFile({
        url: '/docs/b/',
        content: '<html lang="en"><body><h1>Layout</h1><p>More words.</p></body></html>',
      });
      const { files } = await index.getFiles();
      const written = await writeSearchBundle(index, join(dir, 'search', 'public'));
      await pagefind.close();
      const kept = files.filter((file) => !/^pagefind-(ui|component-ui|modular-ui)\./.test(file.path));
      expect(kept.length).toBeLessThan(files.length);
      expect(written).toBe(kept.length);
      for (const file of kept) {
        const written = await readFile(join(dir, 'search', 'public', file.path));
        // Pagefind's two scripts carry the build's excerpt builder (pagefind-excerpt.js) and take
        // the files handed to them (pagefind-files.js); the rest is Pagefind's.
        const wanted = /^pagefind(-worker)?\.js$/.test(file.path)
          ? Buffer.from(withGivenFiles(withFastExcerpts(Buffer.from(file.content).toString('utf8'))))
          : Buffer.from(file.content);
        expect(Buffer.compare(written, wanted), file.path).toBe(0);
      }
      const entry = JSON.parse(await readFile(join(dir, 'search', 'public', 'pagefind-entry.json'), 'utf8'));
      expect(entry.languages.en.page_count).toBe(2);
      expect((await readdir(join(dir, 'search', 'public'))).filter((name) => name.startsWith('pagefind-ui'))).toEqual(
        [],
      );
    } finally {
      await pagefind.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
