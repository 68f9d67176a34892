import type { Config } from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import type { Options as BlogOptions } from '@docusaurus/plugin-content-blog';
import type { Options as DocsOptions } from '@docusaurus/plugin-content-docs';
import { isPublicRoute, readersClass, readersOf } from '@portal/access';

// The site facts (spec §1) live in one file that the browser tests read too.
import site from './site.facts.json';
import accessMarks from './src/plugins/access-marks';
import lockedLinks from './src/plugins/locked-links';
import type { Options as GateFilesOptions } from './src/plugins/gate-files/options';
import announcementBarReset from './src/plugins/announcement-bar-reset';
import codeColours from './src/plugins/code-colours';
import fontSubsets from './src/plugins/font-subsets';
import prismOffStartup, { prismOnServerOnly } from './src/plugins/prism-off-startup';
import { ARCHIVE_SIDEBARS, archivedReleases } from './src/archives/spec';
import { siteUrlFrom } from './src/site-url';
import { codeTheme } from './src/theme-code-colours';

/** The class that shows a navbar or footer link only to readers who may open its target. */
const markFor = (to: string): string => readersClass(readersOf(to));

// Read once, at build time: the public origin only feeds absolute URLs (canonical links,
// og:url, the social card, the sitemap); the gate server serves the build at any address.
// SITE_URL (else the server's PUBLIC_URL) must be set when building for a real deployment.
const siteUrl = siteUrlFrom(process.env);

// An archive of older package releases (src/archives): the same site with those releases'
// pages only. Its links to the portal's own pages lead where its app has no route: the
// route guard loads them in full.
const archive = archivedReleases();

const config: Config = {
  title: site.title,
  tagline: site.tagline,
  favicon: 'img/favicon.svg',
  // The same mark as an ICO at the address browsers and feed readers ask for by themselves;
  // named by every page, so the gate serves it to everyone (site/brand/render.mjs makes it).
  headTags: [
    { tagName: 'link', attributes: { rel: 'icon', href: '/favicon.ico', sizes: '32x32' } },
    // No first paint before the navbar is whole: the browser may paint a page it has parsed
    // only in part, and the navbar's right-hand items, added one by one, then moved the ones
    // already drawn (a layout shift). The element after the navbar (the main wrapper, whose
    // id is theme-common's SkipToContentFallbackId) ends the wait.
    {
      tagName: 'link',
      attributes: { rel: 'expect', href: '#__docusaurus_skipToContent_fallback', blocking: 'render' },
    },
  ],
  url: siteUrl,
  baseUrl: '/',
  titleDelimiter: site.titleDelimiter,
  // The spec allows indexing; robots.txt and the sitemap say which pages are open.
  noIndex: false,
  organizationName: site.organization,
  projectName: 'developer-docs',

  // An archive's pages link to the portal's, which its app has no route for: the archives'
  // merge into the portal's build checks every link of theirs (src/archives/merge.ts).
  onBrokenLinks: archive ? 'ignore' : 'throw',
  onBrokenAnchors: 'warn',
  onDuplicateRoutes: 'warn',

  future: {
    // Every v4 flag except storage namespacing: the spec fixes the storage keys (`theme`,
    // `docusaurus.announcement.dismiss`, `docusaurus.tab.*`, `docs-preferred-version-*`).
    v4: {
      removeLegacyPostBuildHeadAttribute: true,
      useCssCascadeLayers: true,
      siteStorageNamespacing: false,
      fasterByDefault: true,
      mdx1CompatDisabledByDefault: true,
    },
    // Rspack, SWC, Lightning CSS and SSG worker threads: the build budget depends on it.
    // `PORTAL_BUNDLER=webpack` turns it off; only the benchmark's peer build does that.
    faster: process.env.PORTAL_BUNDLER !== 'webpack',
    // No page shows a last-update date or author, and the sitemap gives no lastmod, so the
    // build does not read the repository's history (Docusaurus reads all of it by default).
    experimental_vcs: 'disabled',
  },

  i18n: {
    defaultLocale: 'en',
    locales: ['en'],
    localeConfigs: { en: { label: 'English', direction: 'ltr', htmlLang: 'en' } },
  },

  markdown: {
    // .md is CommonMark, .mdx is MDX: package docs may use `{` and `<` freely.
    format: 'detect',
    hooks: { onBrokenMarkdownLinks: 'warn' },
  },

  plugins: [
    // The package sections that site/sources.yaml names, written into docs/ from the content
    // cache (npm run sync) before the docs plugin reads them, and the version picker's data.
    './src/plugins/package-sources/index.ts',
    () => announcementBarReset(site.announcement.id),
    // Marks who may open what (sidebar, cards, links) and hides the rest from each reader;
    // after a build, lists the links in pages that lead their readers to locked pages.
    accessMarks,
    lockedLinks,
    // Both modes' code colours as CSS variables, which the one Prism theme below reads.
    codeColours,
    // Prism loads with the code blocks, not in every page's start-up code; the server's
    // bundle holds the highlighted block itself.
    prismOffStartup,
    prismOnServerOnly,
    // The self-hosted fonts cut down to the characters and weights the pages use.
    fontSubsets,
    // The classic docs plugin behind a wrapper that keeps private docs' descriptions out of
    // the metadata every docs page loads (the preset's own docs plugin is off below).
    [
      './src/plugins/gated-docs.ts',
      {
        routeBasePath: 'docs',
        sidebarPath: archive ? `./${ARCHIVE_SIDEBARS}` : './sidebars.ts',
      } satisfies DocsOptions,
    ],
    // The classic blog plugin with its description read from blog/description.txt: the site
    // config is in the public main bundle, and the blog is for partners and staff. Then the
    // latest release of each project, read from the changelogs, for the home page. An
    // archive has neither.
    ...((archive
      ? []
      : [
          [
            './src/plugins/private-blog.ts',
            {
              blogTitle: 'Blog',
              showReadingTime: true,
              tags: 'tags.yml',
              onInlineTags: 'throw',
              onInlineAuthors: 'throw',
              onUntruncatedBlogPosts: 'throw',
              feedOptions: { type: ['rss', 'atom'], xslt: true },
            } satisfies BlogOptions,
          ],
          './src/plugins/releases/index.ts',
        ]) as NonNullable<Config['plugins']>),
    // One name per entry bundle, so a page's HTML changes only when the page does. An
    // archive's entry bundles keep their hashes: they sit beside the portal's.
    ...(archive ? [] : ['./src/plugins/stable-entry-names.ts']),
  ],

  // Keeps a reader's in-app navigation away from pages outside their groups (the gate
  // server enforces the same policy on every request), and the root element's reader
  // classes in step with the session.
  clientModules: [
    // First: the others read the session it settles (from the hint cookie, or by asking).
    './src/clientModules/session.ts',
    './src/clientModules/reader-classes.ts',
    './src/clientModules/route-guard.ts',
    './src/clientModules/prefetch-gate.ts',
    './src/clientModules/search-highlight.ts',
  ],

  presets: [
    // The files the gate server serves from: search bundles, Markdown twins, llms.txt
    // fragments, every file labelled with its readers, precompressed, in one manifest. First,
    // so that its postBuild waits for the others' (the sitemap, the blog feeds).
    ['./src/plugins/gate-files/preset.ts', {} satisfies GateFilesOptions],
    [
      'classic',
      {
        // Registered above, wrapped: src/plugins/gated-docs.ts.
        docs: false,
        // Registered above, wrapped: src/plugins/private-blog.ts.
        blog: false,
        // An archive has its releases' pages only: no home, login, account or admin page.
        ...(archive ? { pages: false } : {}),
        theme: { customCss: './src/css/custom.css' },
        sitemap: {
          // Anonymous crawlers can read only the public pages, so the sitemap lists only those.
          createSitemapItems: async ({ defaultCreateSitemapItems, ...rest }) =>
            (await defaultCreateSitemapItems(rest)).filter((item) => isPublicRoute(new URL(item.url).pathname)),
        },
      } satisfies Preset.Options,
    ],
  ],

  themeConfig: {
    // Open Graph and Twitter's large card; 1200 × 630, made from site/brand/card.svg.
    image: 'img/social-card.jpg',
    colorMode: {
      defaultMode: 'light',
      disableSwitch: false,
      respectPrefersColorScheme: false,
    },
    announcementBar: {
      // Changing the id shows the bar again to readers who dismissed an older one.
      id: site.announcement.id,
      content: site.announcement.html,
      isCloseable: true,
      // Docusaurus writes these into an inline style; variables let each colour mode set its own.
      backgroundColor: 'var(--portal-announcement-bg)',
      textColor: 'var(--portal-announcement-text)',
    },
    docs: {
      sidebar: { hideable: false, autoCollapseCategories: false },
    },
    navbar: {
      title: site.title,
      hideOnScroll: false,
      logo: { alt: `${site.organization} logo`, src: 'img/logo.svg', width: 32, height: 32 },
      items: [
        archive
          ? { to: '/docs/', position: 'left', label: 'Documentation' }
          : { type: 'docSidebar', sidebarId: 'tutorialSidebar', position: 'left', label: 'Documentation' },
        { to: '/blog', label: 'Blog', position: 'left', className: markFor('/blog') },
        // The version menu of the synced package the reader is in (site/sources.yaml); nothing elsewhere.
        { type: 'custom-packageVersion', position: 'left' },
        { href: site.codeHostingUrl, label: 'GitHub', position: 'right' },
        { type: 'localeDropdown', position: 'right' },
        // Full-text search (Pagefind), gated like the pages: src/components/SearchBar.
        { type: 'custom-search', position: 'right' },
        // Login / Logout: the portal's own item, registered in src/theme/NavbarItem/ComponentTypes.tsx.
        { type: 'custom-authItem', position: 'right' },
      ],
    },
    footer: {
      style: 'light',
      links: [
        {
          title: 'Docs',
          items: [
            { label: 'Documentation', to: '/docs/' },
            // The spec's footer pointed "a reference app" at the layout engine (issue 34 calls
            // that a wrong link): the label goes to the reference app, and the layout engine keeps
            // its own footer link.
            {
              label: 'Reference App',
              to: '/docs/norigin-reference-app/',
              className: markFor('/docs/norigin-reference-app/'),
            },
            { label: 'Layout Engine', to: '/docs/layout-engine/', className: markFor('/docs/layout-engine/') },
          ],
        },
        {
          title: 'Community',
          items: [
            { label: 'GitHub Discussions', href: `${site.codeHostingUrl}/norigin-spatial-navigation/discussions` },
            { label: 'LinkedIn', href: 'https://www.linkedin.com/company/norigin-media' },
            { label: 'Stack Overflow', href: 'https://stackoverflow.com/questions/tagged/norigin-spatial-navigation' },
          ],
        },
        {
          title: 'More',
          items: [
            { label: 'Blog', to: '/blog', className: markFor('/blog') },
            { label: 'Use with your assistant', to: '/account/assistant', className: markFor('/account/assistant') },
            { label: 'GitHub', href: site.codeHostingUrl },
          ],
        },
      ],
      copyright: `Copyright © ${site.copyrightYear} ${site.organization}.`,
    },
    tableOfContents: { minHeadingLevel: 2, maxHeadingLevel: 5 },
    prism: {
      // GitHub's colours in light mode and Dracula's in dark, the few that lacked contrast
      // adjusted, through CSS variables: one theme for both modes (src/theme-code-colours.ts).
      theme: codeTheme,
      darkTheme: codeTheme,
      additionalLanguages: ['bash', 'diff', 'groovy', 'json', 'yaml'],
    },
  } satisfies Preset.ThemeConfig,
};

export default config;
