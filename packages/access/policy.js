// The portal's access policy: which paths form an access unit, and who reads which unit.
// Data only; `index.js` reads and checks it, and every surface (the gate server, the build
// step that labels each file, the site's sidebar, cards and search) obeys what it says.
//
// A unit is what a partner can license: a package, an app, the blog. The build labels every
// file with its unit (a file that several units' pages load, such as a shared chunk, with
// each of them), and the server lets a reader read the units their groups give them. A
// change of the units takes effect at the next `npm run build` and server start. A page that
// no rule below matches fails the build, naming the page.
//
// Paths are matched by whole path segment, ignoring case and a trailing slash:
// `/docs/player-manager-mono` covers `/docs/player-manager-mono/packages/player-core/`
// but not `/docs/player-manager-mono-custom-test/`. When two units match, the longer
// path wins: `/docs/player-manager-mono/packages/player-core` is the unit `player-core`,
// the rest of the monorepo's pages the unit `player`.

const PLAYER_PACKAGES = '/docs/player-manager-mono/packages/';
const UI_PACKAGES = '/docs/ui-toolkit-mono/packages/';

/**
 * One unit per package of a monorepo: `[unit name, folder, label]`. A unit's name is
 * lower-case letters, digits and dashes (the folder `player-adapter-dash.js` is the unit
 * `player-adapter-dash`).
 *
 * @param {string} root
 * @param {[name: string, folder: string, label: string][]} packages
 * @returns {Record<string, { label: string, paths: string[] }>}
 */
const packageUnits = (root, packages) =>
  Object.fromEntries(packages.map(([name, folder, label]) => [name, { label, paths: [root + folder] }]));

const playerUnits = packageUnits(PLAYER_PACKAGES, [
  ['player-core', 'player-core', 'Player core'],
  ['player-manager', 'player-manager', 'Player manager'],
  ['player-framework', 'player-framework', 'Player React bindings'],
  ['player-scheduler-vast', 'player-scheduler-vast', 'VAST ad scheduler'],
  ['player-adapter-bitmovin', 'player-adapter-bitmovin', 'Bitmovin adapter'],
  ['player-adapter-dash', 'player-adapter-dash.js', 'DASH adapter'],
  ['player-adapter-hls', 'player-adapter-hls.js', 'HLS adapter'],
  ['player-adapter-react-native', 'player-adapter-react-native', 'React Native adapter'],
  ['player-adapter-shaka', 'player-adapter-shaka', 'Shaka adapter'],
  ['player-adapter-tizen', 'player-adapter-tizen', 'Samsung Tizen adapter'],
  ['player-adapter-webos', 'player-adapter-webos', 'LG webOS adapter'],
  ['tracking-manager', 'tracking-manager', 'Tracking manager'],
  ['tracking-adapter-comscore', 'tracking-adapter-comscore', 'Comscore tracking'],
  ['tracking-adapter-conviva', 'tracking-adapter-conviva', 'Conviva tracking'],
  ['tracking-adapter-google-analytics', 'tracking-adapter-google-analytics', 'Google Analytics tracking'],
  ['tracking-adapter-kantar', 'tracking-adapter-kantar', 'Kantar tracking'],
  ['tracking-adapter-mux', 'tracking-adapter-mux', 'Mux tracking'],
  ['tracking-adapter-nielsen', 'tracking-adapter-nielsen', 'Nielsen tracking'],
  [
    'tracking-adapter-nielsen-react-native',
    'tracking-adapter-nielsen-react-native',
    'Nielsen tracking for React Native',
  ],
  ['tracking-adapter-norigin-license', 'tracking-adapter-norigin-license', 'Norigin licence tracking'],
  ['tracking-adapter-redbee', 'tracking-adapter-redbee', 'Red Bee tracking'],
  ['tracking-adapter-vast', 'tracking-adapter-vast', 'VAST ad tracking'],
  ['tracking-adapter-youbora', 'tracking-adapter-youbora', 'Youbora tracking'],
]);

const uiUnits = packageUnits(UI_PACKAGES, [
  ['ui-hooks', 'hooks', 'UI hooks'],
  ['ui-theme', 'theme', 'UI theme'],
  ['ui-utils', 'utils', 'UI utilities'],
  ['ui-reusable-react', 'reusable-react', 'UI components for React'],
  ['ui-reusable-react-native', 'reusable-react-native', 'UI components for React Native'],
  ['ui-reference-react', 'reference-implementations-react', 'Reference screens for React'],
  ['ui-reference-react-native', 'reference-implementations-react-native', 'Reference screens for React Native'],
]);

/** Every unit a partner may be given: the products, not the company's own work. */
const PARTNER_UNITS = [
  'player',
  ...Object.keys(playerUnits),
  'ui-toolkit',
  ...Object.keys(uiUnits),
  'navigation',
  'layout',
  'apps',
  'reference-app',
  'ur-reference-app',
  'demo-app',
  'whitelabel',
  'blog',
  'conventions',
];

/** @type {import('./index.js').PolicyFile} */
export default {
  /** Reader groups. `reads` is `'all'` or a list of unit names below. */
  groups: {
    staff: { label: 'Norigin front-end developers', reads: 'all' },
    partner: { label: 'Partner and customer developers', reads: PARTNER_UNITS },
    admin: { label: 'Portal administrators', reads: 'all' },
  },

  /** Open to everyone, signed in or not (the specification's open pages). */
  public: {
    /**
     * Exactly these routes. `/docs` is the getting-started page only; `/login/action` is where
     * the links of account e-mails (an invitation's first password, a reset) lead.
     */
    routes: ['/', '/login', '/login/action', '/docs'],
    /** These routes with every page below them. */
    sections: ['/docs/Norigin-Spatial-Navigation'],
  },

  /**
   * Every other page belongs to exactly one unit; each group reads the units it lists
   * (`'all'`: every unit). A unit with `groups` is read by exactly those groups (`'all'`:
   * every group), whatever their `reads` say. `whenLocked` says what a signed-in reader who
   * does not hold the unit sees of it in the sidebar: `'listed'`, its name with a lock (and
   * the way to ask for it), or `'hidden'`, nothing. A unit a partner may be licensed is
   * listed unless it says otherwise; the others are hidden.
   */
  units: {
    administration: {
      label: 'Portal administration',
      // Readers, groups, the audit trail and reading insights: administrators only.
      paths: ['/admin'],
      groups: ['admin'],
    },
    account: {
      label: 'Your account',
      // The reader's own e-mail, groups and personal access tokens: every signed-in reader
      // has one, whatever their groups, so a group added later gets it too.
      paths: ['/account'],
      groups: 'all',
    },
    player: {
      label: 'Player Framework',
      // The monorepo's own pages (overview, changelog, the web playground) and its category.
      paths: ['/docs/player-manager-mono', '/docs/category/player-framework'],
    },
    ...playerUnits,
    'ui-toolkit': { label: 'UI Toolkit', paths: ['/docs/ui-toolkit-mono', '/docs/ui-toolkit'] },
    ...uiUnits,
    navigation: {
      label: 'Navigation and Layout',
      // The open Norigin-Spatial-Navigation section is public; this is the in-depth guide
      // and the category page that lists navigation and layout together.
      paths: ['/docs/Spat-Nav', '/docs/category/navigation-and-layout'],
    },
    layout: { label: 'Layout Engine', paths: ['/docs/layout-engine'] },
    apps: { label: 'Reference and Demo Apps', paths: ['/docs/category/reference-and-demo-apps'] },
    'reference-app': { label: 'Norigin Reference App', paths: ['/docs/norigin-reference-app'] },
    'ur-reference-app': { label: 'Norigin UR Reference App', paths: ['/docs/norigin-ur-reference-app'] },
    'demo-app': { label: 'Demo App', paths: ['/docs/demo-app'] },
    whitelabel: { label: 'Whitelabel', paths: ['/docs/whitelabel'] },
    blog: { label: 'Blog', paths: ['/blog'] },
    conventions: { label: 'Portal conventions', paths: ['/markdown-page'] },
    internal: {
      label: 'Internal: guidelines, training and client work',
      // Not a product: a partner's sidebar does not list it at all.
      whenLocked: 'hidden',
      paths: [
        // How the front-end team works: branching, CI, release steps, on-call tools.
        '/docs/frontend-guidelines',
        // Onboarding course for new Norigin developers.
        '/docs/tv-app-training',
        // The team's own knowledge-sharing app.
        '/docs/knowledge-nugget-app',
        // A test copy of player packages, not a product.
        '/docs/player-manager-mono-custom-test',
        // A proof of concept built for one broadcaster: another client's work is not a
        // partner's to read.
        '/docs/france24-demo',
        // The category page that lists the internal documentation above.
        '/docs/support-documentation',
      ],
    },
  },

  /** How a signed-in account gets its groups. */
  accounts: {
    /** Firebase custom claim with an array of group names, set by an administrator. */
    claim: 'groups',
    /**
     * Groups given by the e-mail domain, exact match, to addresses the identity service
     * has verified only (a GitHub sign-in counts when Firebase marks the e-mail verified).
     */
    emailDomains: [{ domain: 'norigin.example', groups: ['staff'] }],
  },

  /** Where a reader without access asks for it: shown on the login and no-access pages. */
  requestAccess: {
    email: 'developer-access@norigin.example',
    label: 'the Norigin developer-relations team',
  },
};
