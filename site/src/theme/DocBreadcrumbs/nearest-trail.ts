/** A sidebar entry as far as a trail needs it (the docs plugin's PropSidebarItem). */
export interface TrailItem {
  type: string;
  label?: string;
  href?: string;
  items?: readonly TrailItem[];
}

export interface Crumb {
  label: string;
  href: string | undefined;
}

const normalise = (path: string): string => path.replace(/\/+$/, '').toLowerCase();

/**
 * The sidebar's trail to the entry nearest above `pathname`, for a page the sidebar does not
 * list (an API reference's symbol pages): the deepest entry whose address is a folder of the
 * page's, with the categories that hold it. Null when no entry is (the page stands alone).
 */
export function nearestTrail(items: readonly TrailItem[], pathname: string): Crumb[] | null {
  const page = normalise(pathname);
  let best: { trail: Crumb[]; length: number } | null = null;
  const visit = (entries: readonly TrailItem[], above: Crumb[]): void => {
    for (const item of entries) {
      if (item.type !== 'link' && item.type !== 'category') continue;
      const crumb = { label: item.label ?? '', href: item.href };
      const trail = [...above, crumb];
      const href = item.href === undefined ? null : normalise(item.href.split(/[?#]/)[0] ?? '');
      if (href && href !== page && page.startsWith(`${href}/`) && (best === null || href.length > best.length))
        best = { trail, length: href.length };
      if (item.items) visit(item.items, trail);
    }
  };
  visit(items, []);
  return best === null ? null : (best as { trail: Crumb[] }).trail;
}
