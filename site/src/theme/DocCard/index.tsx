import clsx from 'clsx';
import DocCard from '@theme-original/DocCard';
import type DocCardType from '@theme/DocCard';
import type { WrapperProps } from '@docusaurus/types';

import { useCardDescriptions } from '@site/src/access/card-descriptions';
import { sidebarItemMark } from '@site/src/access/item-marks';

type Props = WrapperProps<typeof DocCardType>;

// (CUSTOM) Marks the card with who may open it (the access styles hide it, and its column,
// from other readers), and gives a doc card the description its category page carries:
// the shared docs metadata holds public docs' descriptions only (src/plugins/gated-docs.ts).
export default function DocCardWrapper({ item }: Props): React.JSX.Element {
  const descriptions = useCardDescriptions();
  const mark = sidebarItemMark(item);
  const description =
    item.type === 'link' && item.description === undefined && item.docId ? descriptions?.[item.docId] : undefined;
  return (
    <DocCard
      item={{ ...item, className: clsx(item.className, mark), ...(description !== undefined && { description }) }}
    />
  );
}
