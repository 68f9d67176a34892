import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';

import { customTestPackages, packageName, type PlayerPackage, type UiToolkitPackage } from './src/data/packages';
import {
  ABOUT_KIND,
  ABOUT_LABEL,
  aboutDescription,
  isRepositoryPage,
  repositoryPages,
} from './src/data/repository-pages';
import { hasApiReference, versionedPageIds } from './src/data/synced-reference';

/** One sidebar entry (the package exports only the whole config's type). */
type Item = Extract<SidebarsConfig[string], unknown[]>[number];

/**
 * A documented repository or package, labelled by its name in src/data/packages.ts: its
 * README is the category's landing page (served at the folder URL with a trailing slash),
 * its own pages follow in the given order, and its repository pages (changelog, licence,
 * code of conduct, contributing) sit last, in one "About this package" entry.
 */
function project(dir: string, pages: readonly string[] = [], children: Item[] = []): Item {
  const { label, npm } = packageName(dir);
  const own = pages.filter((page) => !isRepositoryPage(page));
  const about = repositoryPages.filter((page) => pages.includes(page));
  const customProps = npm === undefined ? {} : { customProps: { npm } };
  // A project of one page is that page: Docusaurus would turn an empty category into it anyway.
  if (children.length === 0 && pages.length === 0) return { type: 'doc', id: `${dir}/README`, label, ...customProps };
  return {
    type: 'category',
    label,
    link: { type: 'doc', id: `${dir}/README` },
    ...customProps,
    items: [
      ...children,
      ...own.map((page) => `${dir}/${page}`),
      ...(about.length > 0
        ? [
            {
              type: 'category',
              label: ABOUT_LABEL,
              description: aboutDescription(about),
              customProps: { kind: ABOUT_KIND },
              items: about.map((page) => `${dir}/${page}`),
            } satisfies Item,
          ]
        : []),
    ],
  };
}

/**
 * A group of a monorepo's packages by what they do (a category with no page of its own;
 * the category pages list it as a section of package cards), each package with its changelog.
 */
function packages(dir: string, label: string, description: string, names: readonly string[]): Item {
  return {
    type: 'category',
    label,
    description,
    items: names.map((name) => project(`${dir}/packages/${name}`, ['CHANGELOG'])),
  };
}

const players = [
  'player-core',
  'player-manager',
  'player-framework',
  'player-scheduler-vast',
] as const satisfies readonly PlayerPackage[];

const playerAdapters = [
  'player-adapter-shaka',
  'player-adapter-dash.js',
  'player-adapter-hls.js',
  'player-adapter-bitmovin',
  'player-adapter-tizen',
  'player-adapter-webos',
  'player-adapter-react-native',
] as const satisfies readonly PlayerPackage[];

const tracking = [
  'tracking-manager',
  'tracking-adapter-comscore',
  'tracking-adapter-conviva',
  'tracking-adapter-google-analytics',
  'tracking-adapter-kantar',
  'tracking-adapter-mux',
  'tracking-adapter-nielsen',
  'tracking-adapter-nielsen-react-native',
  'tracking-adapter-norigin-license',
  'tracking-adapter-redbee',
  'tracking-adapter-vast',
  'tracking-adapter-youbora',
] as const satisfies readonly PlayerPackage[];

const uiToolkitPackages = [
  'theme',
  'utils',
  'hooks',
  'reusable-react',
  'reusable-react-native',
  'reference-implementations-react',
  'reference-implementations-react-native',
] as const satisfies readonly UiToolkitPackage[];

// Only the default export may be a sidebars object: Docusaurus reads every export as a sidebar.
const sidebars: SidebarsConfig = {
  tutorialSidebar: [
    { type: 'doc', id: 'intro', label: 'Getting Started' },
    {
      type: 'category',
      label: 'Player Framework',
      link: {
        type: 'generated-index',
        slug: '/category/player-framework',
        description:
          'Play video on every TV platform with one API: the player manager, its player and tracking adapters, and the ad scheduler.',
      },
      items: [
        project('player-manager-mono', repositoryPages, [
          packages(
            'player-manager-mono',
            'Players',
            'The player core, the player manager, its React bindings and the VAST ad scheduler.',
            players,
          ),
          packages(
            'player-manager-mono',
            'Player adapters',
            'One adapter per playback engine: Shaka, dash.js, hls.js, Bitmovin, Samsung AVPlay, LG webOS and React Native Video.',
            playerAdapters,
          ),
          packages(
            'player-manager-mono',
            'Tracking',
            'The tracking manager and its adapters for analytics, audience measurement, ad and licence tracking.',
            tracking,
          ),
          // The repository's one app sits beside its packages: an "apps" group of one item
          // would only add a level to open.
          project('player-manager-mono/apps/playground-web'),
        ]),
        // A copy of six packages, listed directly under it: the same names as above, in a
        // category whose label says it is the test build.
        project(
          'player-manager-mono-custom-test',
          [],
          customTestPackages.map((name) => project(`player-manager-mono-custom-test/packages/${name}`)),
        ),
      ],
    },
    {
      type: 'category',
      label: 'UI Toolkit',
      link: {
        type: 'generated-index',
        slug: '/ui-toolkit',
        description:
          'Themeable, focus-aware components and complete reference screens for React and React Native TV apps.',
      },
      items: [
        project('ui-toolkit-mono', repositoryPages, [
          packages(
            'ui-toolkit-mono',
            'Packages',
            'Design tokens, helpers and hooks, focusable components, and complete reference screens.',
            uiToolkitPackages,
          ),
        ]),
      ],
    },
    {
      type: 'category',
      label: 'Navigation and Layout',
      link: {
        type: 'generated-index',
        slug: '/category/navigation-and-layout',
        description: 'Move focus with the remote control and render CMS-driven pages.',
      },
      items: [
        // Made from the package on npm (site/sources.yaml); older versions are outside the sidebar.
        // Its guide is ours, for a range of releases (site/sources/…/versioned); its API reference
        // and API changes are made from the newest release's type declarations.
        project('Norigin-Spatial-Navigation', [
          ...versionedPageIds('norigin-spatial-navigation'),
          ...(hasApiReference('norigin-spatial-navigation') ? ['api/index', 'api/api-changes'] : []),
          ...repositoryPages,
        ]),
        // One long guide: a page of its own, not a category holding one page.
        { type: 'doc', id: 'Spat-Nav/Detailed_README_SpatNav', label: 'Spatial Navigation in Depth' },
        project('layout-engine', ['CHANGELOG', 'LICENSE', 'CONTRIBUTING']),
      ],
    },
    {
      type: 'category',
      label: 'Reference and Demo Apps',
      link: {
        type: 'generated-index',
        slug: '/category/reference-and-demo-apps',
        description:
          'Complete apps that show the packages working together, and the whitelabel setup we ship to clients.',
      },
      items: [
        project('norigin-reference-app', ['CHANGELOG', 'LICENSE', 'CONTRIBUTING']),
        project('norigin-ur-reference-app', ['CHANGELOG']),
        project('whitelabel', ['CHANGELOG', 'CONTRIBUTING']),
        project('demo-app', ['CHANGELOG']),
        project('france24-demo', ['CHANGELOG']),
      ],
    },
    {
      type: 'category',
      label: 'Support Documentation',
      link: {
        type: 'generated-index',
        slug: '/support-documentation',
        description: 'How the front-end team works: guidelines, training and the quirks we have learned the hard way.',
      },
      items: [
        project('frontend-guidelines', [
          'Cypress',
          'GitFlow',
          'JenkinsPipeline',
          'LGWebOS',
          'ReleaseFlow',
          'Sentry',
          'ShakaFork',
          'SourceCodeOwnership',
          'TizenStudio',
        ]),
        project('tv-app-training', ['CHANGELOG']),
        project('knowledge-nugget-app', ['CHANGELOG']),
      ],
    },
  ],
};

export default sidebars;
