// The portal's access policy: who may read which pages. Data only; `index.js` reads and
// checks it, and every surface (the gate server, the build step that labels each file,
// the site's sidebar, cards and search) obeys what it says.
//
// A change here takes effect at the next `npm run build` and server start: the build
// labels every file with the groups that may read it, and the server serves from those
// labels. A page that no rule below matches fails the build, naming the page.
//
// Paths are matched by whole path segment, ignoring case and a trailing slash:
// `/docs/player-manager-mono` covers `/docs/player-manager-mono/packages/player-core/`
// but not `/docs/player-manager-mono-custom-test/`. When two sections match, the longer
// path wins.

/** @type {import('./index.js').PolicyFile} */
export default {
  /** Reader groups. `reads` is `'all'` or a list of section names below. */
  groups: {
    staff: { label: 'Norigin front-end developers', reads: 'all' },
    partner: {
      label: 'Partner and customer developers',
      reads: ['player', 'ui-toolkit', 'navigation', 'layout', 'apps', 'whitelabel', 'blog', 'conventions'],
    },
    admin: { label: 'Portal administrators', reads: 'all' },
  },

  /** Open to everyone, signed in or not (the specification's open pages). */
  public: {
    /** Exactly these routes. `/docs` is the getting-started page only. */
    routes: ['/', '/login', '/docs'],
    /** These routes with every page below them. */
    sections: ['/docs/Norigin-Spatial-Navigation'],
  },

  /**
   * Every other page belongs to exactly one section; each group reads the sections it
   * lists (`'all'`: every section). A section with `groups` is read by exactly those
   * groups (`'all'`: every group), whatever their `reads` say.
   */
  sections: {
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
      label: 'Player framework',
      paths: ['/docs/player-manager-mono', '/docs/category/player-framework'],
    },
    'ui-toolkit': { label: 'UI toolkit', paths: ['/docs/ui-toolkit-mono', '/docs/ui-toolkit'] },
    navigation: {
      label: 'Spatial navigation',
      // The open Norigin-Spatial-Navigation section is public; this is the in-depth guide
      // and the category page that lists navigation and layout together.
      paths: ['/docs/Spat-Nav', '/docs/category/navigation-and-layout'],
    },
    layout: { label: 'Layout engine', paths: ['/docs/layout-engine'] },
    apps: {
      label: 'Reference and demo apps',
      paths: [
        '/docs/norigin-reference-app',
        '/docs/norigin-ur-reference-app',
        '/docs/demo-app',
        '/docs/category/reference-and-demo-apps',
      ],
    },
    whitelabel: { label: 'Whitelabel setup', paths: ['/docs/whitelabel'] },
    blog: { label: 'Blog', paths: ['/blog'] },
    conventions: { label: 'Portal conventions', paths: ['/markdown-page'] },
    internal: {
      label: 'Internal: guidelines, training and client work',
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
