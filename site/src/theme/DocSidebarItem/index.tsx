import { useMemo } from 'react';
import clsx from 'clsx';
import DocSidebarItem from '@theme-original/DocSidebarItem';
import type DocSidebarItemType from '@theme/DocSidebarItem';
import type { WrapperProps } from '@docusaurus/types';

import { sidebarItemMark } from '@site/src/access/item-marks';

type Props = WrapperProps<typeof DocSidebarItemType>;

// (CUSTOM) Marks the item with who may open it, so the access styles hide it from readers
// outside those groups (a category shows while anything in it may be opened) and lock it
// for signed-out visitors.
export default function DocSidebarItemWrapper({ item, ...props }: Props): React.JSX.Element {
  const marked = useMemo(() => {
    const mark = sidebarItemMark(item);
    return mark === null ? item : { ...item, className: clsx(item.className, mark) };
  }, [item]);
  return <DocSidebarItem item={marked} {...props} />;
}
