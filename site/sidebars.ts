import type { SidebarsConfig } from '@docusaurus/plugin-content-docs';

/** One sidebar entry (the package exports only the whole config's type). */
type Item = Extract<SidebarsConfig[string], unknown[]>[number];

/**
 * A documented repository: its README is the category's landing page (served at the
 * folder URL with a trailing slash) and its other pages follow in the given order.
 */
function project(dir: string, label: string, pages: string[] = [], children: Item[] = []): Item {
  return {
    type: 'category',
    label,
    link: { type: 'doc', id: `${dir}/README` },
    items: [...children, ...pages.map((page) => `${dir}/${page}`)],
  };
}

/** A package inside a monorepo: README plus CHANGELOG unless told otherwise. */
function packages(dir: string, names: readonly string[], pages: string[] = ['CHANGELOG']): Item {
  return {
    type: 'category',
    label: 'packages',
    items: names.map((name) => project(`${dir}/packages/${name}`, name, pages)),
  };
}

const repoPages = ['CHANGELOG', 'LICENSE', 'CODE_OF_CONDUCT', 'CONTRIBUTING'];

const playerPackages = [
  'player-core',
  'player-manager',
  'player-framework',
  'player-scheduler-vast',
  'tracking-manager',
  'player-adapter-bitmovin',
  'player-adapter-dash.js',
  'player-adapter-hls.js',
  'player-adapter-react-native',
  'player-adapter-shaka',
  'player-adapter-tizen',
  'player-adapter-webos',
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
] as const;

const customTestPackages = [
  'player-core',
  'player-manager',
  'player-adapter-shaka',
  'player-adapter-dash.js',
  'tracking-manager',
  'tracking-adapter-mux',
] as const;

const uiToolkitPackages = [
  'theme',
  'utils',
  'hooks',
  'reusable-react',
  'reusable-react-native',
  'reference-implementations-react',
  'reference-implementations-react-native',
] as const;

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
        // The repository's one app sits beside its packages: an "apps" group of one item
        // would only add a level to open.
        project('player-manager-mono', 'player-manager-mono', repoPages, [
          project('player-manager-mono/apps/playground-web', 'playground-web'),
          packages('player-manager-mono', playerPackages),
        ]),
        // A copy of six packages, listed directly under it for the same reason.
        project(
          'player-manager-mono-custom-test',
          'player-manager-mono-custom-test',
          [],
          customTestPackages.map((name) => project(`player-manager-mono-custom-test/packages/${name}`, name)),
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
        project('ui-toolkit-mono', 'ui-toolkit-mono', repoPages, [packages('ui-toolkit-mono', uiToolkitPackages)]),
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
        project('Norigin-Spatial-Navigation', 'Norigin Spatial Navigation', [
          'CHANGELOG',
          'LICENSE',
          'CODE_OF_CONDUCT',
          'CONTRIBUTING',
        ]),
        // One long guide: a page of its own, not a category holding one page.
        { type: 'doc', id: 'Spat-Nav/Detailed_README_SpatNav', label: 'Spatial Navigation in Depth' },
        project('layout-engine', 'Layout Engine', ['CHANGELOG', 'LICENSE', 'CONTRIBUTING']),
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
        project('norigin-reference-app', 'Norigin Reference App', ['CHANGELOG', 'LICENSE', 'CONTRIBUTING']),
        project('norigin-ur-reference-app', 'Norigin UR Reference App', ['CHANGELOG']),
        project('whitelabel', 'Whitelabel', ['CHANGELOG', 'CONTRIBUTING']),
        project('demo-app', 'Demo App', ['CHANGELOG']),
        project('france24-demo', 'France 24 Demo', ['CHANGELOG']),
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
        project('frontend-guidelines', 'Front-end Guidelines', [
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
        project('tv-app-training', 'TV App Training', ['CHANGELOG']),
        project('knowledge-nugget-app', 'Knowledge Nugget App', ['CHANGELOG']),
      ],
    },
  ],
};

export default sidebars;
