/**
 * What a reader calls each documented package, keyed by its folder under docs/ (the
 * folder, and so the URL, keeps the repository's name). The sidebar, the breadcrumbs, the
 * previous/next links and the package cards all read their labels from here (sidebars.ts);
 * a card also shows the npm name, which is what a developer types to install it.
 */
export interface PackageName {
  /** The package's own title: what it is for, not how its folder is spelled. */
  label: string;
  /** The name on npm, for a package a developer installs. */
  npm?: string;
}

const scope = (name: string): string => `@noriginmedia/${name}`;

/** Player packages by folder under player-manager-mono/packages; on npm as @noriginmedia/<folder>. */
const playerPackages = {
  'player-core': 'Player core',
  'player-manager': 'Player manager',
  'player-framework': 'Player React bindings',
  'player-scheduler-vast': 'VAST ad scheduler',
  'player-adapter-shaka': 'Shaka adapter',
  'player-adapter-dash.js': 'DASH adapter',
  'player-adapter-hls.js': 'HLS adapter',
  'player-adapter-bitmovin': 'Bitmovin adapter',
  'player-adapter-tizen': 'Samsung Tizen adapter',
  'player-adapter-webos': 'LG webOS adapter',
  'player-adapter-react-native': 'React Native adapter',
  'tracking-manager': 'Tracking manager',
  'tracking-adapter-comscore': 'Comscore tracking',
  'tracking-adapter-conviva': 'Conviva tracking',
  'tracking-adapter-google-analytics': 'Google Analytics tracking',
  'tracking-adapter-kantar': 'Kantar tracking',
  'tracking-adapter-mux': 'Mux tracking',
  'tracking-adapter-nielsen': 'Nielsen tracking',
  'tracking-adapter-nielsen-react-native': 'Nielsen tracking for React Native',
  'tracking-adapter-norigin-license': 'Norigin licence tracking',
  'tracking-adapter-redbee': 'Red Bee tracking',
  'tracking-adapter-vast': 'VAST ad tracking',
  'tracking-adapter-youbora': 'Youbora tracking',
} as const satisfies Record<string, string>;

/** UI toolkit packages by folder under ui-toolkit-mono/packages; on npm as @noriginmedia/ui-toolkit-<folder>. */
const uiToolkitPackages = {
  theme: 'UI theme',
  utils: 'UI utilities',
  hooks: 'UI hooks',
  'reusable-react': 'UI components for React',
  'reusable-react-native': 'UI components for React Native',
  'reference-implementations-react': 'Reference screens for React',
  'reference-implementations-react-native': 'Reference screens for React Native',
} as const satisfies Record<string, string>;

export type PlayerPackage = keyof typeof playerPackages;
export type UiToolkitPackage = keyof typeof uiToolkitPackages;

/** The six player packages the custom test build copies (its own folder names them the same). */
export const customTestPackages = [
  'player-core',
  'player-manager',
  'player-adapter-shaka',
  'player-adapter-dash.js',
  'tracking-manager',
  'tracking-adapter-mux',
] as const satisfies readonly PlayerPackage[];

/** A monorepo's packages by their folder under docs/, each with its npm name. */
const packagesOf = (dir: string, labels: Record<string, string>, npm: (folder: string) => string) =>
  Object.entries(labels).map(([folder, label]): [string, PackageName] => [
    `${dir}/packages/${folder}`,
    { label, npm: npm(folder) },
  ]);

/** Folder under docs/ → its name. Every documented project and package has one. */
export const packageNames: ReadonlyMap<string, PackageName> = new Map<string, PackageName>([
  ['player-manager-mono', { label: 'Player packages' }],
  ['player-manager-mono/apps/playground-web', { label: 'Web playground' }],
  ...packagesOf('player-manager-mono', playerPackages, scope),
  ['player-manager-mono-custom-test', { label: 'Custom test build' }],
  ...packagesOf(
    'player-manager-mono-custom-test',
    Object.fromEntries(customTestPackages.map((folder) => [folder, playerPackages[folder]])),
    scope,
  ),
  ['ui-toolkit-mono', { label: 'UI toolkit packages' }],
  ...packagesOf('ui-toolkit-mono', uiToolkitPackages, (folder) => scope(`ui-toolkit-${folder}`)),
  ['Norigin-Spatial-Navigation', { label: 'Norigin Spatial Navigation', npm: scope('norigin-spatial-navigation') }],
  ['layout-engine', { label: 'Layout Engine', npm: scope('layout-engine') }],
  ['norigin-reference-app', { label: 'Norigin Reference App' }],
  ['norigin-ur-reference-app', { label: 'Norigin UR Reference App' }],
  ['whitelabel', { label: 'Whitelabel' }],
  ['demo-app', { label: 'Demo App' }],
  ['france24-demo', { label: 'France 24 Demo' }],
  ['frontend-guidelines', { label: 'Front-end Guidelines' }],
  ['tv-app-training', { label: 'TV App Training' }],
  ['knowledge-nugget-app', { label: 'Knowledge Nugget App' }],
]);

/** The name of the project or package in `dir`; throws for a folder the table does not know. */
export function packageName(dir: string): PackageName {
  const name = packageNames.get(dir);
  if (name === undefined) throw new Error(`src/data/packages.ts has no name for docs/${dir}: add one.`);
  return name;
}
