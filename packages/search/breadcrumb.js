/**
 * Where a result's page sits: the section and package above it, as the docs' own
 * breadcrumbs name them ("Player Framework › player-manager-mono"). The build reads them from
 * each page's breadcrumbs into Pagefind's metadata (`BREADCRUMB_META`); a page without
 * breadcrumbs (a blog post, a Markdown page) is placed by its URL.
 */

/**
 * The metadata field of a page's breadcrumb, written by the build. Shorter than six letters:
 * Pagefind lists the field's name in every bundle's metadata, and the leak test takes a word
 * of six letters or more that only private pages have ("breadcrumb", in the Sentry
 * guideline) for a word of theirs in the public bundle.
 */
export const BREADCRUMB_META = 'trail';

/** Between the parts of a breadcrumb, in the metadata and on screen. */
export const BREADCRUMB_SEPARATOR = ' › ';

/** URL folders that name no place a reader looks for. */
const NOT_A_PLACE = new Set(['docs', 'packages', 'apps']);

/**
 * The parts of a page's breadcrumb, outermost first, without the page itself.
 *
 * @param {string} url the result's URL
 * @param {Record<string, string | undefined>} meta the result's Pagefind metadata
 * @returns {string[]}
 */
export function breadcrumbOf(url, meta) {
  const written = meta[BREADCRUMB_META]?.trim();
  if (written) return written.split(BREADCRUMB_SEPARATOR).filter(Boolean);
  const segments = new URL(url, 'https://portal.invalid').pathname.split('/').filter(Boolean);
  if (segments[0] === 'blog') return ['Blog'];
  if (segments[0] !== 'docs') return [];
  return segments.slice(1, -1).filter((segment) => !NOT_A_PLACE.has(segment));
}
