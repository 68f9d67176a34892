/**
 * What a category card holds, in a line, for a card whose page's description this reader's
 * category page may not carry (Docusaurus would say "6 items"): "6 packages: Player core,
 * Player manager, …". Made from the labels below the card only, which the sidebar already
 * gives every reader, and only from those with the card's own readers: a name a reader of
 * the card may not open is never listed.
 */
import type { PropSidebarItem } from '@docusaurus/plugin-content-docs';

import { isAboutGroup } from '../data/repository-pages';

type Category = Extract<PropSidebarItem, { type: 'category' }>;

/** How many names a card lists before "and N more". */
const SHOWN = 5;

/** The packages, apps or pages a category holds: its own, and those of its groups (not its About this package). */
function entriesOf(category: Category): Exclude<PropSidebarItem, { type: 'html' }>[] {
  return category.items.flatMap((child) => {
    if (child.type === 'html' || isAboutGroup(child)) return [];
    if (child.type === 'category' && child.href === undefined) return entriesOf(child);
    return [child];
  });
}

/** A package has an npm name (sidebars.ts): a category, or a link when the package has one page. */
const isPackage = (item: PropSidebarItem): boolean => item.type !== 'html' && typeof item.customProps?.npm === 'string';

function listed(labels: readonly string[], total: number): string {
  // "and 1 more" would take the room of the one name it leaves out.
  const shown = total <= SHOWN + 1 ? labels : labels.slice(0, SHOWN);
  const more = total - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : (shown[0] ?? '');
}

/**
 * The line for `category`'s card, or null when it holds nothing worth naming. `markOf`
 * gives an item's readers-class (src/access/item-marks.ts): only items whose mark is the
 * card's own are named, and the count is given only when every item is.
 */
export function cardContents(category: Category, markOf: (item: PropSidebarItem) => string | null): string | null {
  const entries = entriesOf(category);
  const packages = entries.filter(isPackage);
  const chosen = packages.length > 0 ? packages : entries;
  const own = markOf(category);
  const named = chosen.filter((item) => markOf(item) === own).map((item) => item.label);
  if (named.length === 0) return null;
  const noun = packages.length > 0 ? 'packages' : 'pages';
  if (named.length < chosen.length)
    return `${noun[0]?.toUpperCase()}${noun.slice(1)} such as ${listed(named, named.length)}`;
  return `${chosen.length} ${chosen.length === 1 ? noun.slice(0, -1) : noun}: ${listed(named, chosen.length)}`;
}
