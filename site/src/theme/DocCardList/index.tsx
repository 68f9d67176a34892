import clsx from 'clsx';
import DocCardList from '@theme-original/DocCardList';
import type DocCardListType from '@theme/DocCardList';
import type { WrapperProps } from '@docusaurus/types';
import type { PropSidebarItem } from '@docusaurus/plugin-content-docs';
import Heading from '@theme/Heading';

import { useCardFacts } from '@site/src/access/card-facts';
import { sidebarItemMark } from '@site/src/access/item-marks';
import { isAboutGroup } from '@site/src/data/repository-pages';

import styles from './styles.module.css';

type Props = WrapperProps<typeof DocCardListType>;

/**
 * The package groups ("Player adapters", "Tracking") of a monorepo card, which its category
 * page lists too; not its "About this package", which holds the repository's own pages.
 */
function groupsOf(item: PropSidebarItem): Extract<PropSidebarItem, { type: 'category' }>[] {
  if (item.type !== 'category') return [];
  return item.items.filter(
    (child): child is Extract<PropSidebarItem, { type: 'category' }> =>
      child.type === 'category' && child.href === undefined && !isAboutGroup(child),
  );
}

const headingId = (owner: string, group: string): string =>
  `${owner}-${group}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');

// (CUSTOM) On a category page, a monorepo's card is followed by one section per group of
// its packages, as cards with the group's description, so "Player Framework" shows its
// players, player adapters and tracking packages and not one card to open.
// Only the groups the page's own prop names (src/plugins/gated-docs-routes.ts) are listed;
// each section is marked with who may open it, like the cards, and counts the cards its
// reader sees: a partner licensed for two players sees "Players 2", not the four there are.
export default function DocCardListWrapper(props: Props): React.JSX.Element {
  const facts = useCardFacts();
  const sections = (props.items ?? []).flatMap((item) =>
    item.type === 'category' && item.href !== undefined && facts?.sections.includes(item.href)
      ? groupsOf(item).map((group) => ({ owner: item.label, group }))
      : [],
  );
  return (
    <>
      <DocCardList {...props} />
      {sections.map(({ owner, group }) => (
        <section
          key={`${owner}/${group.label}`}
          className={clsx(styles.section, sidebarItemMark(group))}
          aria-labelledby={headingId(owner, group.label)}
        >
          <Heading as="h2" id={headingId(owner, group.label)} className={styles.heading}>
            {group.label}
          </Heading>
          {group.description && <p className={styles.description}>{group.description}</p>}
          <DocCardList items={group.items} className={clsx(props.className, styles.cards)} />
          {/* How many cards this reader sees (the access styles hide the others): a CSS counter
              of the cards shown, drawn beside the heading from the first paint. */}
          <span className={styles.count} aria-hidden="true" />
        </section>
      ))}
    </>
  );
}
