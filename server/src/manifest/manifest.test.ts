import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { makeTestSite } from '../test/test-site.js';
import { loadManifest, MANIFEST_FILE, type Manifest } from './manifest.js';
import { inlineScriptHashes } from './prepare.js';
import { dynamicImportChunkIds, htmlResources, literalResources, registryModules } from './file-readers.js';

describe('reading the route registry out of the main bundle', () => {
  it('finds quoted, bare and numeric keys in any notation, with the chunks each loader fetches', () => {
    const main =
      'var r={"0e384e19":[()=>n.e("5217").then(n.bind(n,424)),"@site/docs/intro.md",424],' +
      'a7bd4aaa:[()=>n.e("5575").then(n.bind(n,7278)),"@theme/DocVersionRoot",7278],' +
      '0x11113f9:[()=>Promise.all([n.e("4014"),n.e("2065"),n.e("106")]).then(n.bind(n,9933)),"@theme/DocItem",9933],' +
      '"814f3328":[()=>n.e("1833").then(n.t.bind(n,5513,19)),"~blog/default/blog-post-list-prop-default.json",5513],' +
      '"5e9f5e1a":[()=>Promise.resolve().then(n.bind(n,7629)),"@generated/docusaurus.config",7629]}';
    const modules = registryModules(main);
    expect(Object.fromEntries(modules)).toEqual({
      '0e384e19': { moduleId: '424', chunkIds: ['5217'] },
      a7bd4aaa: { moduleId: '7278', chunkIds: ['5575'] },
      '17896441': { moduleId: '9933', chunkIds: ['4014', '2065', '106'] },
      '814f3328': { moduleId: '5513', chunkIds: ['1833'] },
      '5e9f5e1a': { moduleId: '7629', chunkIds: [] },
    });
  });

  it('reads dynamic imports of a chunk', () => {
    expect([...dynamicImportChunkIds('a(){return Promise.all([r.e("12"),r.e(345)]).then(r.bind(r,9))}')]).toEqual([
      '12',
      '345',
    ]);
  });
});

describe('resources of public HTML', () => {
  it('takes scripts, stylesheets, icons, preloads and images, but not feeds, canonical links or anchors', () => {
    const html =
      '<link rel=stylesheet href=/assets/css/styles.1.css /><link rel=alternate type=application/rss+xml href=/blog/rss.xml>' +
      '<link rel=canonical href=http://localhost:3000/docs/ /><link data-rh=true rel=icon href=/img/favicon.svg />' +
      '<script src=/assets/js/main.2.js defer></script><script src="https://cdn.example/x.js"></script>' +
      '<link rel=preload as=image href=/img/logo.svg /><img src="/assets/images/a-3.png" srcset="/assets/images/a-4.png 2x">' +
      '<a href=/docs/layout-engine/>Layout</a><script src=//cdn.example/y.js></script>';
    expect(htmlResources(html)).toEqual([
      '/assets/css/styles.1.css',
      '/img/favicon.svg',
      '/assets/js/main.2.js',
      '/img/logo.svg',
      '/assets/images/a-3.png',
      '/assets/images/a-4.png',
    ]);
  });

  it('finds build files named literally in JS and CSS', () => {
    const known = new Set(['/assets/images/diagram-1a2b.png', '/assets/fonts/inter-9f.woff2', '/img/logo.svg']);
    const text =
      'e.p+"assets/images/diagram-1a2b.png";url(/assets/fonts/inter-9f.woff2);"/img/logo.svg";"/img/other.svg"';
    expect(literalResources(text, known)).toEqual([...known]);
  });

  it('hashes executable inline scripts for the CSP and skips JSON data', () => {
    const hashes = inlineScriptHashes(
      '<script>a()</script><script type=application/ld+json>{"a":1}</script><script src=/x.js></script>',
    );
    expect(hashes).toEqual([`sha256-${createHash('sha256').update('a()').digest('base64')}`]);
  });
});

describe('loading the manifest at start', () => {
  it('loads a prepared build', async () => {
    const dir = await makeTestSite();
    const manifest = await loadManifest(dir);
    expect(manifest.entries['/docs/layout-engine']).toMatchObject({
      access: 'private',
      groups: ['admin', 'partner', 'staff'],
      kind: 'page',
    });
    expect(manifest.entries['/docs/frontend-guidelines/gitflow']).toMatchObject({
      access: 'private',
      groups: ['admin', 'staff'],
    });
    expect(manifest.entries['/docs']).toMatchObject({ access: 'public', groups: [], kind: 'page' });
    expect(manifest.entries['/404.html']).toMatchObject({ access: 'public', kind: 'file' });
  });

  const broken = async (change: (manifest: Manifest, dir: string) => Promise<unknown> | unknown): Promise<string> => {
    const dir = await makeTestSite();
    const manifest = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
    await change(manifest, dir);
    await writeFile(join(dir, MANIFEST_FILE), JSON.stringify(manifest));
    return dir;
  };

  it('refuses a missing manifest', async () => {
    const dir = await makeTestSite();
    await rm(join(dir, MANIFEST_FILE));
    await expect(loadManifest(dir)).rejects.toThrow(/portal-manifest.json is not usable: it does not exist/);
  });

  it('refuses a corrupt manifest', async () => {
    const dir = await makeTestSite();
    await writeFile(join(dir, MANIFEST_FILE), '{"version":1,"entries":{');
    await expect(loadManifest(dir)).rejects.toThrow(/it is not valid JSON/);
  });

  it.each([
    ['another version', (m: Manifest) => Object.assign(m, { version: 1 }), /its version is 1, not 2/],
    [
      'an entry escaping the build',
      (m: Manifest) => Object.assign(m.entries['/docs'] ?? {}, { file: '../secret' }),
      /entry for \/docs is malformed/,
    ],
    [
      'an unknown access',
      (m: Manifest) => Object.assign(m.entries['/docs'] ?? {}, { access: 'maybe' }),
      /entry for \/docs is malformed/,
    ],
    [
      'a private file that nobody may read',
      (m: Manifest) => Object.assign(m.entries['/docs/layout-engine'] ?? {}, { groups: [] }),
      /entry for \/docs\/layout-engine is malformed/,
    ],
    [
      'a public file with groups',
      (m: Manifest) => Object.assign(m.entries['/docs'] ?? {}, { groups: ['staff'] }),
      /entry for \/docs is malformed/,
    ],
    [
      'a group the policy does not define',
      (m: Manifest) => Object.assign(m.entries['/docs/layout-engine'] ?? {}, { groups: ['contractors'] }),
      /names the group "contractors", which the access policy does not define/,
    ],
    [
      'a private not-found page',
      (m: Manifest) => Object.assign(m.entries['/404.html'] ?? {}, { access: 'private', groups: ['staff'] }),
      /no public not-found page/,
    ],
    [
      'bad script hashes',
      (m: Manifest) => Object.assign(m, { inlineScriptHashes: ["'unsafe-inline'"] }),
      /inline script hashes/,
    ],
    [
      'a file of another build',
      (m: Manifest) => Object.assign(m.entries['/docs'] ?? {}, { size: 1 }),
      /differs from the build/,
    ],
  ])('refuses %s', async (_name, change, message) => {
    await expect(loadManifest(await broken(change))).rejects.toThrow(message);
  });
});
