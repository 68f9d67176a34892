import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { ALL_UNITS, compilePolicy, policyFile, type PolicyFile } from '@portal/access';

import {
  computeFileReaders,
  dynamicImportChunkIds,
  htmlResources,
  literalResources,
  registryModules,
  routeTree,
  unionReaders,
} from '../file-readers';
import { DEFAULT_OPTIONS } from '../options';
import { makeMiniBuild, MINI_CHUNKS } from './__fixtures__/mini-build';

/** The units of the mini build's partner page (the layout engine), staff page (a guideline) and blog. */
const PARTNER = ['layout'];
const STAFF = ['internal'];
const BLOG = ['blog'];
/** The chunk the mini build's layout and guideline pages both load. */
const SHARED = ['internal', 'layout'];
const { alwaysPublic } = DEFAULT_OPTIONS;

describe('who reads each file of a build', () => {
  it('labels pages by their route and chunks by the pages that load them', async () => {
    const { buildDir, generatedDir, files } = await makeMiniBuild();
    const readers = Object.fromEntries(await computeFileReaders({ buildDir, generatedDir, files, alwaysPublic }));
    expect(readers).toMatchObject({
      // Pages: by their route.
      '/index.html': 'public',
      '/docs/index.html': 'public',
      '/docs/layout-engine/index.html': PARTNER,
      '/docs/frontend-guidelines/GitFlow/index.html': STAFF,
      '/blog/index.html': BLOG,
      '/404.html': 'public',
      // What every docs page needs, the public one included: public.
      [MINI_CHUNKS.docsRoot]: 'public',
      [MINI_CHUNKS.versionMeta]: 'public',
      [MINI_CHUNKS.docItem]: 'public',
      [MINI_CHUNKS.introMd]: 'public',
      // The content of each private page: its readers only.
      [MINI_CHUNKS.layoutMd]: PARTNER,
      [MINI_CHUNKS.gitflowMd]: STAFF,
      // A chunk that only the staff-only page loads, lazily, and the image it names.
      [MINI_CHUNKS.lazy]: STAFF,
      [MINI_CHUNKS.diagram]: STAFF,
      // Loaded by pages of several units: each of them.
      [MINI_CHUNKS.shared]: SHARED,
      [MINI_CHUNKS.blogList]: BLOG,
      // The login page and the SDK it imports lazily; the not-found page; the entry bundles.
      [MINI_CHUNKS.login]: 'public',
      [MINI_CHUNKS.sdk]: 'public',
      [MINI_CHUNKS.notFound]: 'public',
      [MINI_CHUNKS.main]: 'public',
      [MINI_CHUNKS.runtime]: 'public',
      [MINI_CHUNKS.styles]: 'public',
      '/img/logo.svg': 'public',
      // No page loads these: by the unit of their path, else the unit of the full-access groups.
      '/blog/rss.xml': BLOG,
      '/img/unused.png': [ALL_UNITS],
      // Each search bundle: the readers of its access unit.
      '/search/public/pagefind.js': 'public',
      '/search/layout/pagefind-entry.json': PARTNER,
      '/search/internal/pagefind-entry.json': STAFF,
      '/robots.txt': 'public',
      '/sitemap.xml': 'public',
    });
    expect(Object.keys(readers).sort()).toEqual([...files].sort());
  });

  it("gives the older releases' search bundles inside a unit's folder the unit's readers", async () => {
    const { buildDir, generatedDir, files } = await makeMiniBuild();
    const older = [
      '/search/public/older/2.3.0/pagefind-entry.json',
      '/search/layout/older/1.2.0/pagefind-entry.json',
      '/search/internal/older/3.1.0/fragment/en_1a2b3c.pf_fragment',
    ];
    const readers = await computeFileReaders({ buildDir, generatedDir, files: [...files, ...older], alwaysPublic });
    expect(older.map((url) => readers.get(url))).toEqual(['public', PARTNER, STAFF]);
  });

  it('stops the build, naming every page that no rule of the policy matches', async () => {
    const extra = ['/docs/secret-project/', '/docs/player-manager-monorepo-notes'];
    const { buildDir, generatedDir, files } = await makeMiniBuild(extra);
    await expect(computeFileReaders({ buildDir, generatedDir, files, alwaysPublic })).rejects.toThrow(
      /2 page\(s\) match no rule of the access policy .*: \/docs\/player-manager-monorepo-notes\/?, \/docs\/secret-project\//,
    );
  });

  it('gives a layout route the readers of the pages below it', async () => {
    // A policy in which the docs are not public: the docs root is then only for the groups
    // that read some doc, not for everyone.
    const file = JSON.parse(JSON.stringify(policyFile)) as PolicyFile;
    const partner = file.groups.partner as { label: string; reads: string[] };
    const closed = compilePolicy({
      ...file,
      public: { routes: ['/', '/login'], sections: [] },
      units: { ...file.units, start: { paths: ['/docs/'] } },
      groups: { ...file.groups, partner: { ...partner, reads: [...partner.reads, 'start'] } },
    });
    const { buildDir, generatedDir, files } = await makeMiniBuild();
    const readers = await computeFileReaders({ buildDir, generatedDir, files, alwaysPublic }, closed);
    expect(readers.get('/docs/index.html')).toEqual(['start']);
    // The docs root's chunks: every unit with a page below it.
    expect(readers.get(MINI_CHUNKS.docsRoot)).toEqual(['internal', 'layout', 'start']);
    expect(readers.get(MINI_CHUNKS.versionMeta)).toEqual(['internal', 'layout', 'start']);
    expect(readers.get(MINI_CHUNKS.gitflowMd)).toEqual(STAFF);
  });

  it('refuses generated files that do not describe the build', async () => {
    const { buildDir, generatedDir, files } = await makeMiniBuild();
    const routesChunkNames = join(generatedDir, 'routesChunkNames.json');
    const names = JSON.parse(await readFile(routesChunkNames, 'utf8')) as Record<string, unknown>;
    delete names['/blog-b01'];
    await writeFile(routesChunkNames, JSON.stringify(names));
    await expect(computeFileReaders({ buildDir, generatedDir, files, alwaysPublic })).rejects.toThrow(
      /route tree of routes.js does not match routesChunkNames.json/,
    );
    await appendFile(join(generatedDir, 'registry.js'), '// webpackChunkName: "fromAnotherBuild"\n');
    await expect(computeFileReaders({ buildDir, generatedDir, files, alwaysPublic })).rejects.toThrow(
      /Cannot find 1 registry entries in \/assets\/js\/main/,
    );
  });
});

describe('reading the route tree of routes.js', () => {
  it('nests routes by their routes lists, and skips brackets inside strings', () => {
    const tree = routeTree(`export default [
  { path: '/docs', component: ComponentCreator('/docs', 'a1'), routes: [
    { path: '/docs/[x]', component: ComponentCreator('/docs/[x]', 'b2'), exact: true, sidebar: "s]" },
    { path: '/docs/it\\'s', component: ComponentCreator('/docs/it\\'s', 'c3'), exact: true }
  ] },
  { path: '/', component: ComponentCreator('/', 'd4'), exact: true },
  { path: '*', component: ComponentCreator('*') },
];`);
    expect(tree).toEqual([
      {
        path: '/docs',
        key: '/docs-a1',
        children: [
          { path: '/docs/[x]', key: '/docs/[x]-b2', children: [] },
          { path: "/docs/it's", key: "/docs/it's-c3", children: [] },
        ],
      },
      { path: '/', key: '/-d4', children: [] },
      { path: '*', key: null, children: [] },
    ]);
  });
});

describe('combining readers', () => {
  it('makes public win and unions units', () => {
    expect(unionReaders(undefined, ['internal'])).toEqual(['internal']);
    expect(unionReaders(['layout'], ['blog', 'internal'])).toEqual(['blog', 'internal', 'layout']);
    expect(unionReaders(['staff'], 'public')).toBe('public');
    expect(unionReaders('public', ['internal'])).toBe('public');
  });
});

describe('reading the route registry out of the main bundle', () => {
  it('finds quoted, bare and numeric keys and module ids in any notation, with the chunks each loader fetches', () => {
    const main =
      'var r={"0e384e19":[()=>n.e("5217").then(n.bind(n,424)),"@site/docs/intro.md",424],' +
      'a7bd4aaa:[()=>n.e("5575").then(n.bind(n,7278)),"@theme/DocVersionRoot",7278],' +
      '0x11113f9:[()=>Promise.all([n.e("4014"),n.e("2065"),n.e("106")]).then(n.bind(n,9933)),"@theme/DocItem",9933],' +
      '"814f3328":[()=>n.e("1833").then(n.t.bind(n,5513,19)),"~blog/default/blog-post-list-prop-default.json",5513],' +
      '"5e9f5e1a":[()=>Promise.resolve().then(n.bind(n,7629)),"@generated/docusaurus.config",7629],' +
      'a12d2d48:[()=>t.e("97714").then(t.bind(t,4e3)),"@site/docs/x/api/FocusHandler.md",4e3]}';
    const modules = registryModules(main);
    expect(Object.fromEntries(modules)).toEqual({
      '0e384e19': { moduleId: '424', chunkIds: ['5217'] },
      a7bd4aaa: { moduleId: '7278', chunkIds: ['5575'] },
      '17896441': { moduleId: '9933', chunkIds: ['4014', '2065', '106'] },
      '814f3328': { moduleId: '5513', chunkIds: ['1833'] },
      '5e9f5e1a': { moduleId: '7629', chunkIds: [] },
      a12d2d48: { moduleId: '4000', chunkIds: ['97714'] },
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
});
