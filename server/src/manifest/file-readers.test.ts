import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { compilePolicy, policyFile, type PolicyFile } from '@portal/access';

import { makeMiniBuild, MINI_CHUNKS } from '../test/mini-build.js';
import { computeFileReaders, routeTree, unionReaders } from './file-readers.js';

const PARTNER = ['admin', 'partner', 'staff'];
const STAFF = ['admin', 'staff'];

describe('who reads each file of a build', () => {
  it('labels pages by their route and chunks by the pages that load them', async () => {
    const { buildDir, generatedDir, files } = await makeMiniBuild();
    const readers = Object.fromEntries(await computeFileReaders({ buildDir, generatedDir, files }));
    expect(readers).toMatchObject({
      // Pages: by their route.
      '/index.html': 'public',
      '/docs/index.html': 'public',
      '/docs/layout-engine/index.html': PARTNER,
      '/docs/frontend-guidelines/GitFlow/index.html': STAFF,
      '/blog/index.html': PARTNER,
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
      // Loaded by a partner page and a staff page: the union of both.
      [MINI_CHUNKS.shared]: PARTNER,
      [MINI_CHUNKS.blogList]: PARTNER,
      // The login page and the SDK it imports lazily; the not-found page; the entry bundles.
      [MINI_CHUNKS.login]: 'public',
      [MINI_CHUNKS.sdk]: 'public',
      [MINI_CHUNKS.notFound]: 'public',
      [MINI_CHUNKS.main]: 'public',
      [MINI_CHUNKS.runtime]: 'public',
      [MINI_CHUNKS.styles]: 'public',
      '/img/logo.svg': 'public',
      // No page loads these: by the section of their path, else the full-access groups.
      '/blog/rss.xml': PARTNER,
      '/img/unused.png': STAFF,
      // Each search bundle: the readers of its access unit.
      '/search/public/pagefind.js': 'public',
      '/search/admin+partner+staff/pagefind-entry.json': PARTNER,
      '/search/admin+staff/pagefind-entry.json': STAFF,
      '/robots.txt': 'public',
      '/sitemap.xml': 'public',
    });
    expect(Object.keys(readers).sort()).toEqual([...files].sort());
  });

  it('stops the build, naming every page that no rule of the policy matches', async () => {
    const extra = ['/docs/secret-project/', '/docs/player-manager-monorepo-notes'];
    const { buildDir, generatedDir, files } = await makeMiniBuild(extra);
    await expect(computeFileReaders({ buildDir, generatedDir, files })).rejects.toThrow(
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
      sections: { ...file.sections, start: { paths: ['/docs/'] } },
      groups: { ...file.groups, partner: { ...partner, reads: [...partner.reads, 'start'] } },
    });
    const { buildDir, generatedDir, files } = await makeMiniBuild();
    const readers = await computeFileReaders({ buildDir, generatedDir, files }, closed);
    expect(readers.get('/docs/index.html')).toEqual(PARTNER);
    expect(readers.get(MINI_CHUNKS.docsRoot)).toEqual(PARTNER);
    expect(readers.get(MINI_CHUNKS.versionMeta)).toEqual(PARTNER);
    expect(readers.get(MINI_CHUNKS.gitflowMd)).toEqual(STAFF);
  });

  it('refuses generated files that do not describe the build', async () => {
    const { buildDir, generatedDir, files } = await makeMiniBuild();
    const routesChunkNames = join(generatedDir, 'routesChunkNames.json');
    const names = JSON.parse(await readFile(routesChunkNames, 'utf8')) as Record<string, unknown>;
    delete names['/blog-b01'];
    await writeFile(routesChunkNames, JSON.stringify(names));
    await expect(computeFileReaders({ buildDir, generatedDir, files })).rejects.toThrow(
      /route tree of routes.js does not match routesChunkNames.json/,
    );
    await appendFile(join(generatedDir, 'registry.js'), '// webpackChunkName: "fromAnotherBuild"\n');
    await expect(computeFileReaders({ buildDir, generatedDir, files })).rejects.toThrow(
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
  it('makes public win and unions groups', () => {
    expect(unionReaders(undefined, ['staff'])).toEqual(['staff']);
    expect(unionReaders(['staff'], ['admin', 'partner'])).toEqual(['admin', 'partner', 'staff']);
    expect(unionReaders(['staff'], 'public')).toBe('public');
    expect(unionReaders('public', ['staff'])).toBe('public');
  });
});
