import { useMemo } from 'react';
import clsx from 'clsx';
import DocSidebarItem from '@theme-original/DocSidebarItem';
import type DocSidebarItemType from '@theme/DocSidebarItem';
import type { WrapperProps } from '@docusaurus/types';

import { sidebarItemMark } from '@site/src/access/item-marks';
import { useNewsSummary } from '@site/src/components/whats-new/summary';
import { useChosenVersions, usePackages } from '@site/src/packages/usePackages';
import { packageOfHref, preferredHref } from '@site/src/packages/versions';

type Props = WrapperProps<typeof DocSidebarItemType>;

/** The class of a sidebar entry with something new for the reader (custom.css draws the mark). */
export const NEWS_MARK_CLASS = 'portal-news';

// (CUSTOM) Marks the item with who may open it, so the access styles hide it from readers
// outside those groups (a category shows while anything in it may be opened) and lock it
// for signed-out visitors. A synced package's entry leads to the version the reader chose
// in its version menu (after hydration: the server knows no choice).
// A section with something new for the reader since their last visit ("what's new") carries
// the news mark, once the page runs.
export default function DocSidebarItemWrapper({ item, ...props }: Props): React.JSX.Element {
  const packages = usePackages();
  const news = useNewsSummary();
  const itemHref = 'href' in item ? item.href : undefined;
  const isNew = itemHref !== undefined && news !== null && news.sections.has(itemHref.replace(/\/?$/, '/'));
  const marked = useMemo(() => {
    const mark = sidebarItemMark(item);
    return mark === null && !isNew
      ? item
      : { ...item, className: clsx(item.className, mark, isNew && NEWS_MARK_CLASS) };
  }, [item, isNew]);
  const href = 'href' in marked ? marked.href : undefined;
  if (href && packageOfHref(href, packages)) {
    return <PackageEntry item={marked} packages={packages} {...props} />;
  }
  return <DocSidebarItem item={marked} {...props} />;
}

/** A synced package's entry: its link follows the reader's chosen version. */
function PackageEntry({
  item,
  packages,
  ...props
}: Props & { packages: ReturnType<typeof usePackages> }): React.JSX.Element {
  const chosen = useChosenVersions(packages);
  const href = 'href' in item && item.href ? preferredHref(item.href, packages, chosen) : undefined;
  const withHref = useMemo(
    () => (href && 'href' in item && href !== item.href ? { ...item, href } : item),
    [item, href],
  );
  return <DocSidebarItem item={withHref} {...props} />;
}
