import { describe, expect, it } from 'vitest';
import type { RouteConfig } from '@docusaurus/types';
import type { PropSidebars } from '@docusaurus/plugin-content-docs';

import { categoryCardsFor, docsIndexOf, gateDocsRoute, readersCover } from './gated-docs-routes';

/**
 * A miniature docs site in the portal's policy: a public intro, a partner-readable
 * category with a partner-readable doc and an internal one (staff and admin only), and an
 * internal category page.
 */
const docs = [
  { id: 'intro', permalink: '/docs/', description: 'Start here.' },
  {
    id: 'layout-engine/README',
    permalink: '/docs/layout-engine/',
    description: 'Render CMS pages.',
    frontMatter: { platforms: ['tizen', 'webos', 'web'] },
  },
  { id: 'france24-demo/README', permalink: '/docs/france24-demo/', description: 'A broadcaster proof of concept.' },
  { id: 'frontend-guidelines/README', permalink: '/docs/frontend-guidelines/', description: 'How we branch.' },
  { id: 'ui-toolkit-mono/README', permalink: '/docs/ui-toolkit-mono/', description: 'Focus-aware components.' },
  {
    id: 'ui-toolkit-mono/packages/theme/README',
    permalink: '/docs/ui-toolkit-mono/packages/theme/',
    description: 'Design tokens.',
  },
];
const index = docsIndexOf(
  { loadedVersions: [{ versionName: 'current', docs }] },
  new Map([
    ['layout-engine', '1.8.0'],
    ['ui-toolkit-mono', '2.3.1'],
    ['ui-toolkit-mono/packages/theme', '2.3.1'],
  ]),
);

const link = (id: string, href: string) => ({ type: 'link' as const, label: id, href, docId: id, unlisted: false });

const sidebars: PropSidebars = {
  tutorialSidebar: [
    link('intro', '/docs/'),
    {
      type: 'category',
      label: 'Reference and Demo Apps',
      href: '/docs/category/reference-and-demo-apps',
      collapsed: true,
      collapsible: true,
      items: [
        link('layout-engine/README', '/docs/layout-engine/'),
        link('france24-demo/README', '/docs/france24-demo/'),
        { type: 'link', label: 'GitHub', href: 'https://github.com/NoriginMedia' },
      ],
    },
    {
      type: 'category',
      label: 'UI Toolkit',
      href: '/docs/ui-toolkit',
      collapsed: true,
      collapsible: true,
      items: [
        {
          type: 'category',
          label: 'ui-toolkit-mono',
          href: '/docs/ui-toolkit-mono/',
          collapsed: true,
          collapsible: true,
          items: [
            {
              type: 'category',
              label: 'packages',
              collapsed: true,
              collapsible: true,
              items: [
                {
                  type: 'category',
                  label: 'theme',
                  href: '/docs/ui-toolkit-mono/packages/theme/',
                  collapsed: true,
                  collapsible: true,
                  items: [],
                },
              ],
            },
            // A repository's own pages: no group of packages, so no section of the page.
            {
              type: 'category',
              label: 'About this package',
              customProps: { kind: 'about' },
              collapsed: true,
              collapsible: true,
              items: [
                {
                  type: 'link',
                  label: 'License',
                  href: '/docs/ui-toolkit-mono/LICENSE',
                  docId: 'ui-toolkit-mono/LICENSE',
                },
              ],
            },
          ],
        },
      ],
    },
    {
      type: 'category',
      label: 'Support Documentation',
      href: '/docs/support-documentation',
      collapsed: true,
      collapsible: true,
      items: [link('frontend-guidelines/README', '/docs/frontend-guidelines/')],
    },
  ],
};

const versionDocs = Object.fromEntries(
  docs.map((doc) => [doc.id, { id: doc.id, title: doc.id, description: doc.description, sidebar: 'tutorialSidebar' }]),
);

const category = (permalink: string) => ({
  path: permalink,
  component: '@theme/DocCategoryGeneratedIndexPage',
  exact: true,
  props: { categoryGeneratedIndex: { title: permalink, slug: permalink, permalink, navigation: {} } },
});

/** The shape the docs plugin adds: docs root → version (with the metadata) → sidebar routes. */
const tree: RouteConfig = {
  path: '/docs',
  component: '@theme/DocsRoot',
  routes: [
    {
      path: '/docs',
      component: '@theme/DocVersionRoot',
      props: {
        version: { pluginId: 'default', version: 'current', label: 'Next', docsSidebars: sidebars, docs: versionDocs },
      },
      routes: [
        {
          path: '/docs',
          component: '@theme/DocRoot',
          routes: [
            ...docs.map((doc) => ({ path: doc.permalink, component: '@theme/DocItem', exact: true })),
            category('/docs/category/reference-and-demo-apps'),
            category('/docs/ui-toolkit'),
            category('/docs/support-documentation'),
          ],
        },
        {
          path: '/docs/tags/keys',
          component: '@theme/DocTagDocListPage',
          props: {
            tag: {
              label: 'keys',
              permalink: '/docs/tags/keys',
              items: docs.map(({ id, permalink, description }) => ({ id, title: id, permalink, description })),
            },
          },
        },
      ],
    },
  ],
};

const gated = gateDocsRoute(tree, index);
const versionRoute = gated.routes?.[0];
const sidebarRoutes = versionRoute?.routes?.[0]?.routes ?? [];
const categoryProps = (permalink: string) => sidebarRoutes.find((route) => route.path === permalink)?.props;

describe('gateDocsRoute', () => {
  it('keeps only public docs’ descriptions in the version metadata every docs page loads', () => {
    const { docs: gatedDocs } = versionRoute?.props?.version as { docs: Record<string, { description?: string }> };
    expect(gatedDocs['intro']?.description).toBe('Start here.');
    for (const id of ['layout-engine/README', 'france24-demo/README', 'frontend-guidelines/README']) {
      expect(gatedDocs[id]).toBeDefined();
      expect(gatedDocs[id]).not.toHaveProperty('description');
    }
    expect(JSON.stringify(versionRoute?.props)).not.toContain('broadcaster');
  });

  it('keeps the titles and the sidebars, which are public by design', () => {
    const version = versionRoute?.props?.version as { docs: Record<string, { title: string }>; docsSidebars: unknown };
    expect(version.docs['france24-demo/README']?.title).toBe('france24-demo/README');
    expect(version.docsSidebars).toBe(sidebars);
  });

  it("gives a category page a card of another unit's version and platforms, never its description", () => {
    // The apps category is its own unit; the layout engine's card is the layout unit's.
    expect(categoryProps('/docs/category/reference-and-demo-apps')?.cards).toEqual({
      cards: { '/docs/layout-engine/': { version: '1.8.0', platforms: ['tizen', 'webos', 'web'] } },
      sections: [],
    });
  });

  it('gives an internal category page the descriptions of its internal docs', () => {
    expect(categoryProps('/docs/support-documentation')?.cards).toEqual({
      cards: { '/docs/frontend-guidelines/': { description: 'How we branch.' } },
      sections: [],
    });
  });

  it('lists a monorepo’s packages as a section of its category page, with the descriptions of its own unit only', () => {
    // Each UI-toolkit package is a unit of its own: the theme's description stays on its own pages.
    expect(categoryProps('/docs/ui-toolkit')?.cards).toEqual({
      cards: {
        '/docs/ui-toolkit-mono/': { description: 'Focus-aware components.', version: '2.3.1' },
        '/docs/ui-toolkit-mono/packages/theme/': { version: '2.3.1' },
      },
      sections: ['/docs/ui-toolkit-mono/'],
    });
  });

  it('drops private descriptions from tag pages', () => {
    const tag = versionRoute?.routes?.[1]?.props?.tag as { items: { id: string; description?: string }[] };
    expect(tag.items.map((item) => item.description)).toEqual(['Start here.', ...docs.slice(1).map(() => undefined)]);
  });

  it('does not change the tree it was given', () => {
    const original = tree.routes?.[0]?.props?.version as { docs: Record<string, { description?: string }> };
    expect(original.docs['france24-demo/README']?.description).toBe('A broadcaster proof of concept.');
  });

  it('drops the description of a doc whose permalink it does not know', () => {
    const unknown = gateDocsRoute(tree, docsIndexOf({ loadedVersions: [] }));
    const { docs: gatedDocs } = unknown.routes?.[0]?.props?.version as { docs: Record<string, object> };
    expect(Object.values(gatedDocs).filter((doc) => 'description' in doc)).toEqual([]);
  });
});

describe('categoryCardsFor', () => {
  it('gives a public page nothing about private docs: no description, version, platforms or section', () => {
    const readers = (path: string) =>
      path.startsWith('/docs/category/') || path === '/docs/ui-toolkit' ? 'public' : ['partner'];
    const docsById = index.get('current') ?? new Map();
    expect(categoryCardsFor('/docs/category/reference-and-demo-apps', sidebars, docsById, readers)).toEqual({
      cards: {},
      sections: [],
    });
    expect(categoryCardsFor('/docs/ui-toolkit', sidebars, docsById, readers)).toEqual({ cards: {}, sections: [] });
  });

  it('gives nothing for a category it cannot find', () => {
    expect(categoryCardsFor('/docs/category/elsewhere', sidebars, index.get('current') ?? new Map())).toEqual({
      cards: {},
      sections: [],
    });
  });
});

describe('readersCover', () => {
  it('holds when every reader of the page may read the doc', () => {
    expect(readersCover('public', ['partner'])).toBe(true);
    expect(readersCover(['admin', 'partner', 'staff'], ['admin', 'staff'])).toBe(true);
    expect(readersCover(['admin', 'staff'], ['admin', 'partner', 'staff'])).toBe(false);
  });

  it('never holds for a private doc on a public page, or for routes nobody reads', () => {
    expect(readersCover(['staff'], 'public')).toBe(false);
    expect(readersCover(null, ['staff'])).toBe(false);
    expect(readersCover(['staff'], null)).toBe(false);
  });
});
