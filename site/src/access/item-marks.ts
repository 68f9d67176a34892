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

/**
 * Who may read at least one page an item leads to (its link, and for a category every link
 * below it), or `undefined` when it leads to none. Each item is worked out once and kept
 * in `known`: a sidebar renders every category's item, and each category used to walk its
 * whole subtree again, which on a large package was a visible part of a phone's start-up.
 */
function itemReaders(
  item: PropSidebarItem,
  readersOfPath: ReadersOf,
  known: WeakMap<PropSidebarItem, Readers | null | undefined>,
): Readers | null | undefined {
  if (item.type === 'html') return undefined;
  if (known.has(item)) return known.get(item);
  const own = item.href === undefined ? null : internalPath(item.href);
  const all: (Readers | null | undefined)[] = own === null ? [] : [readersOfPath(own)];
  if (item.type === 'category') for (const child of item.items) all.push(itemReaders(child, readersOfPath, known));
  const found = all.filter((readers) => readers !== undefined);
  // A union of unions is the union of all: public wins, the groups add up.
  const readers = found.length === 0 ? undefined : unionOfReaders(found);
  known.set(item, readers);
  return readers;
}

/** The answers of the portal's own policy, kept per path (the same links render on every page). */
const policyAnswers = new Map<string, Readers | null>();
function cachedReadersOf(path: string): Readers | null {
  let readers = policyAnswers.get(path);
  if (readers === undefined) {
    readers = readersOf(path);
    policyAnswers.set(path, readers);
  }
  return readers;
}

const knownItems = new WeakMap<PropSidebarItem, Readers | null | undefined>();

/** The readers-class of a sidebar item or card, or null when it gets no mark. */
export function sidebarItemMark(item: PropSidebarItem, readersOfPath?: ReadersOf): string | null {
  const readers =
    readersOfPath === undefined
      ? itemReaders(item, cachedReadersOf, knownItems)
      : itemReaders(item, readersOfPath, new WeakMap());
  return readers === undefined ? null : readersClass(readers);
}

/** The readers-class of a plain link target, or null for an external one. */
export function linkMark(href: string, readersOfPath: ReadersOf = cachedReadersOf): string | null {
  const path = internalPath(href);
  return path === null ? null : readersClass(readersOfPath(path));
}
