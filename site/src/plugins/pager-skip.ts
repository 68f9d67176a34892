/**
 * Previous/next links that pass over repository pages (changelog, licence, code of conduct,
 * contributing: src/data/repository-pages.ts). Docusaurus links every doc of the sidebar to
 * its neighbours, so the last page of a package led on to "› License". Here a link to a
 * repository page is followed through that page's own links until it reaches another page,
 * and a repository page gets no previous/next at all: it is reached from its package's
 * "About this package" entry, not read in sequence. A generic rule, because the synced
 * sections' pages are written by the build and carry no front matter of ours.
 * Pure: the gated docs plugin applies it to the loaded content (gated-docs.ts).
 */
import { isRepositoryPage } from '../data/repository-pages';

export interface PagerLink {
  title: string;
  permalink: string;
}

/** The parts of a loaded doc this reads and rewrites. */
export interface PagedDoc {
  id: string;
  permalink: string;
  previous?: PagerLink;
  next?: PagerLink;
}

/**
 * The first link in `direction` from `link` that is not a repository page, following the
 * repository pages' own links (as Docusaurus made them); undefined when there is none.
 */
function passOver(
  link: PagerLink | undefined,
  direction: 'previous' | 'next',
  byPermalink: ReadonlyMap<string, PagedDoc>,
): PagerLink | undefined {
  const seen = new Set<string>();
  let current = link;
  while (current !== undefined && isRepositoryPage(current.permalink)) {
    // A permalink seen twice would be a loop in the links: stop rather than spin.
    if (seen.has(current.permalink)) return undefined;
    seen.add(current.permalink);
    const doc = byPermalink.get(current.permalink);
    // A repository page outside this version's docs cannot be followed on: drop the link.
    if (doc === undefined) return undefined;
    current = doc[direction];
  }
  return current;
}

/** The docs of one version with no previous/next link leading to, or shown on, a repository page. */
export function skipRepositoryPages<T extends PagedDoc>(docs: readonly T[]): T[] {
  const byPermalink = new Map(docs.map((doc) => [doc.permalink, doc]));
  return docs.map((doc) => {
    const paged: T = { ...doc };
    delete paged.previous;
    delete paged.next;
    if (isRepositoryPage(doc.id)) return paged;
    const previous = passOver(doc.previous, 'previous', byPermalink);
    const next = passOver(doc.next, 'next', byPermalink);
    return { ...paged, ...(previous && { previous }), ...(next && { next }) };
  });
}

/** A category page's previous/next links, passed over repository pages in the same way. */
export function skipRepositoryPagesOf(
  navigation: { previous?: PagerLink; next?: PagerLink },
  docs: readonly PagedDoc[],
): { previous?: PagerLink; next?: PagerLink } {
  const byPermalink = new Map(docs.map((doc) => [doc.permalink, doc]));
  const previous = passOver(navigation.previous, 'previous', byPermalink);
  const next = passOver(navigation.next, 'next', byPermalink);
  return { ...(previous && { previous }), ...(next && { next }) };
}
