import type { Plugin } from '@docusaurus/types';

/**
 * The browser's entry bundles (`runtime~main`, `main`) keep their names from build to build:
 * `assets/js/main.js`, not `main.<content hash>.js`. They are the only files every page's
 * HTML names that change whenever any route does, so with hashed names a release of one
 * package changed every page of the site, and the build compressed them all again. With
 * these names a page's HTML changes only with the page. The gate serves them with their
 * ETag and `max-age=0, must-revalidate` (the immutable caching is for names with a hash);
 * every other asset keeps its hash. The bench's part `sources` times the rebuild after a release.
 */
export default function stableEntryNames(): Plugin {
  return {
    name: 'portal-stable-entry-names',
    configureWebpack(_config, isServer) {
      if (isServer || process.env.NODE_ENV !== 'production') return {};
      return { output: { filename: 'assets/js/[name].js' } };
    },
  };
}
