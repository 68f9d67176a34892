import { packageName } from '../site/src/data/packages';

/**
 * The routes the specification names (§2), with the page title each one shows before the
 * delimiter. Every other documented page is found through the sitemap.
 */
const namedRoutes: { path: string; title: string }[] = [
  { path: '/', title: 'Home' },
  { path: '/login', title: 'Sign in' },
  { path: '/markdown-page', title: 'Portal conventions' },
  { path: '/blog', title: 'Blog' },
  { path: '/blog/archive', title: 'Archive' },
  { path: '/blog/tags', title: 'Tags' },
  { path: '/blog/tags/docusaurus', title: '2 posts tagged with "Docusaurus"' },
  { path: '/blog/tags/facebook', title: 'One post tagged with "Facebook"' },
  { path: '/blog/tags/hello', title: 'One post tagged with "Hello"' },
  { path: '/blog/welcome', title: 'Welcome to the developer portal' },
  { path: '/blog/mdx-blog-post', title: 'From laptop to living room, your first build on a TV' },
  { path: '/docs/', title: 'Getting Started' },
  { path: '/docs/category/player-framework', title: 'Player Framework' },
  { path: '/docs/support-documentation', title: 'Support Documentation' },
  { path: '/docs/ui-toolkit', title: 'UI Toolkit' },
  { path: '/docs/demo-app/', title: 'Demo App' },
  { path: '/docs/france24-demo/', title: 'France 24 Demo' },
  { path: '/docs/tv-app-training/', title: 'TV App Training' },
  { path: '/docs/frontend-guidelines/', title: 'Front-end Guidelines' },
  { path: '/docs/frontend-guidelines/Cypress', title: 'Cypress' },
  { path: '/docs/frontend-guidelines/GitFlow', title: 'GitFlow' },
  { path: '/docs/frontend-guidelines/JenkinsPipeline', title: 'Jenkins Pipeline' },
  { path: '/docs/frontend-guidelines/LGWebOS', title: 'LG webOS' },
  { path: '/docs/frontend-guidelines/ReleaseFlow', title: 'Release Flow' },
  { path: '/docs/frontend-guidelines/Sentry', title: 'Sentry' },
  { path: '/docs/frontend-guidelines/ShakaFork', title: 'Shaka Fork' },
  { path: '/docs/frontend-guidelines/SourceCodeOwnership', title: 'Source Code Ownership' },
  { path: '/docs/frontend-guidelines/TizenStudio', title: 'Tizen Studio' },
  { path: '/docs/knowledge-nugget-app/', title: 'Knowledge Nugget App' },
  { path: '/docs/layout-engine/', title: 'Layout Engine' },
  { path: '/docs/norigin-reference-app/', title: 'Norigin Reference App' },
  { path: '/docs/Norigin-Spatial-Navigation/', title: 'Norigin Spatial Navigation' },
  { path: '/docs/Norigin-Spatial-Navigation/CHANGELOG', title: 'Norigin Spatial Navigation changelog' },
  { path: '/docs/Norigin-Spatial-Navigation/LICENSE', title: 'Norigin Spatial Navigation licence' },
  { path: '/docs/Norigin-Spatial-Navigation/CODE_OF_CONDUCT', title: 'Norigin Spatial Navigation code of conduct' },
  { path: '/docs/Norigin-Spatial-Navigation/CONTRIBUTING', title: 'Contributing to Norigin Spatial Navigation' },
  { path: '/docs/Spat-Nav/Detailed_README_SpatNav', title: 'Spatial Navigation in Depth' },
  { path: '/docs/norigin-ur-reference-app/', title: 'Norigin UR Reference App' },
  { path: '/docs/whitelabel/', title: 'Whitelabel' },
  { path: '/docs/ui-toolkit-mono/', title: 'UI toolkit packages' },
  { path: '/docs/player-manager-mono/', title: 'Player packages' },
  { path: '/docs/player-manager-mono/apps/playground-web/', title: 'Web playground' },
  { path: '/docs/player-manager-mono/packages/player-adapter-dash.js/', title: 'DASH adapter' },
  { path: '/docs/player-manager-mono/packages/player-adapter-hls.js/', title: 'HLS adapter' },
  { path: '/docs/player-manager-mono-custom-test/', title: 'Custom test build' },
];

/**
 * The seven ui-toolkit-mono packages and twenty-three player-manager-mono packages of the spec.
 * Written out from the spec rather than imported from sidebars.ts, so a package dropped from
 * the site fails the tests instead of silently leaving both lists.
 */
export const uiToolkitPackages = [
  'hooks',
  'reference-implementations-react',
  'reference-implementations-react-native',
  'reusable-react',
  'reusable-react-native',
  'theme',
  'utils',
];

export const playerPackages = [
  'player-adapter-bitmovin',
  'player-adapter-dash.js',
  'player-adapter-hls.js',
  'player-adapter-react-native',
  'player-adapter-shaka',
  'player-adapter-tizen',
  'player-adapter-webos',
  'player-core',
  'player-framework',
  'player-manager',
  'player-scheduler-vast',
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
  'tracking-manager',
];

/**
 * The named routes, then every package landing page that is not among them, titled with the
 * package's name as the sidebar and the breadcrumbs give it (site/src/data/packages.ts).
 */
const landing = (dir: string) => ({ path: `/docs/${dir}/`, title: packageName(dir).label });
export const specRoutes = [
  ...namedRoutes,
  ...uiToolkitPackages.map((name) => landing(`ui-toolkit-mono/packages/${name}`)),
  ...playerPackages
    .map((name) => landing(`player-manager-mono/packages/${name}`))
    .filter((route) => !namedRoutes.some((named) => named.path === route.path)),
];
