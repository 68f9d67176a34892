import clsx from 'clsx';
import Link from '@docusaurus/Link';
import { ThemeClassNames } from '@docusaurus/theme-common';
import Heading from '@theme/Heading';
import type { Props } from '@theme/DocCard/Layout';

import { useCardFacts } from '@site/src/access/card-facts';
import { sidebarItemMark } from '@site/src/access/item-marks';
import { platformsText } from '@site/src/data/platforms';
import { cardContents } from '@site/src/packages/card-contents';

import styles from './styles.module.css';

function PackageIcon(): React.JSX.Element {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M12 2.5 3.5 7v10l8.5 4.5 8.5-4.5V7L12 2.5Zm0 2.3L18.1 8 12 11.2 5.9 8 12 4.8Zm-6.5 5 5.5 2.9v6.4l-5.5-2.9V9.8Zm7.5 9.3v-6.4l5.5-2.9v6.4l-5.5 2.9Z"
        fill="currentColor"
      />
    </svg>
  );
}

function PageIcon(): React.JSX.Element {
  return (
    <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <path
        d="M6 2.5h8.2L19 7.3V21.5H5V2.5h1Zm1 2v15h10V8.5h-4v-4H7Zm2 8h6v1.6H9v-1.6Zm0 3.2h6v1.6H9v-1.6Z"
        fill="currentColor"
      />
    </svg>
  );
}

/**
 * (CUSTOM, ejected) A package card: the whole name, its npm name, its one-line description
 * (or, where the page may not carry it, what the category holds: "6 packages: …" rather
 * than the template's "6 items"), its current version and its platforms. The template's
 * card puts an emoji glyph before the title inside the same heading (an empty box without
 * an emoji font) and cuts the title to one line; a wrapper cannot take either out, so this replaces the layout. DocCard (wrapped in
 * src/theme/DocCard) still decides the link, the description and the access mark, which
 * stays on the link: the direct child of the list's column, as the access styles expect.
 */
export default function DocCardLayout({ item, className, href, title, description }: Props): React.JSX.Element {
  const facts = useCardFacts()?.cards[href];
  const meta = [facts?.version && `v${facts.version}`, facts?.platforms && platformsText(facts.platforms)];
  const npm = item.type !== 'html' && typeof item.customProps?.npm === 'string' ? item.customProps.npm : null;
  const text =
    item.type === 'category' && item.description === undefined
      ? cardContents(item, (child) => sidebarItemMark(child))
      : description;
  return (
    <Link href={href} className={clsx('card', ThemeClassNames.docs.docCard.container, styles.card, className)}>
      <span className={styles.icon}>{item.type === 'category' ? <PackageIcon /> : <PageIcon />}</span>
      <Heading as="h2" className={styles.title}>
        {title}
      </Heading>
      {npm && <p className={styles.npm}>{npm}</p>}
      {text && <p className={styles.description}>{text}</p>}
      {(meta[0] || meta[1]) && (
        <p className={styles.meta}>
          {meta[0] && <span className={styles.version}>{meta[0]}</span>}
          {meta[1] && <span className={styles.platforms}>{meta[1]}</span>}
        </p>
      )}
    </Link>
  );
}
