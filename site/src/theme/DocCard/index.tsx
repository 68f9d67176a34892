import clsx from 'clsx';
import DocCard from '@theme-original/DocCard';
import type DocCardType from '@theme/DocCard';
import type { WrapperProps } from '@docusaurus/types';

import { useCardFacts } from '@site/src/access/card-facts';
import { sidebarItemMark } from '@site/src/access/item-marks';

type Props = WrapperProps<typeof DocCardType>;

// (CUSTOM) Marks the card with who may open it (the access styles hide it, and its column,
// from other readers), and gives it the description its category page carries: the
// shared docs metadata holds public docs' descriptions only (src/plugins/gated-docs.ts).
export default function DocCardWrapper({ item }: Props): React.JSX.Element {
  const facts = useCardFacts();
  const mark = sidebarItemMark(item);
  const href = item.type === 'html' ? undefined : item.href;
  const description =
    item.type !== 'html' && item.description === undefined && href !== undefined
      ? facts?.cards[href]?.description
      : undefined;
  return (
    <DocCard
      item={{ ...item, className: clsx(item.className, mark), ...(description !== undefined && { description }) }}
    />
  );
}
