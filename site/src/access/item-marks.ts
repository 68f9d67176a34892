/**
 * Which readers-class a navigation item gets (see readersClass and accessStyles in
 * packages/access): a link by its target, a category by its own link and everything
 * below it, so a category shows when the reader may open anything in it. External links
 * and HTML items get none: the portal's policy says nothing about them.
 */
import type { PropSidebarItem } from '@docusaurus/plugin-content-docs';
import { PUBLIC, readersClass, readersOf, type Readers } from '@portal/access';

type ReadersOf = (path: string) => Readers | null;

// The rule of Docusaurus's isInternalUrl: a scheme or `//` leaves the site.
const EXTERNAL = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i;

/** The route path of an internal link (no query or hash), or null for an external one. */
export function internalPath(href: string): string | null {
  if (EXTERNAL.test(href)) return null;
  return href.split(/[?#]/, 1)[0] || '/';
}

/** Everyone who may read at least one of `all`: public wins, else the union of groups. */
export function unionOfReaders(all: readonly (Readers | null)[]): Readers | null {
  if (all.includes(PUBLIC)) return PUBLIC;
  const groups = new Set(all.flatMap((readers) => (readers === null || readers === PUBLIC ? [] : readers)));
  return groups.size > 0 ? [...groups].sort() : null;
}

/** The internal paths an item leads to: its link, and for a category every link below it. */
function targetsOf(item: PropSidebarItem): string[] {
  if (item.type === 'html') return [];
  const own = item.href === undefined ? null : internalPath(item.href);
  const below = item.type === 'category' ? item.items.flatMap(targetsOf) : [];
  return own === null ? below : [own, ...below];
}

/** The readers-class of a sidebar item or card, or null when it gets no mark. */
export function sidebarItemMark(item: PropSidebarItem, readersOfPath: ReadersOf = readersOf): string | null {
  const targets = targetsOf(item);
  if (targets.length === 0) return null;
  return readersClass(unionOfReaders(targets.map((path) => readersOfPath(path))));
}

/** The readers-class of a plain link target, or null for an external one. */
export function linkMark(href: string, readersOfPath: ReadersOf = readersOf): string | null {
  const path = internalPath(href);
  return path === null ? null : readersClass(readersOfPath(path));
}
