import clsx from 'clsx';
import { useLocation } from '@docusaurus/router';

import { openSearch } from '@site/src/search/dialog-store';
import { preloadSearch } from '@site/src/search/pagefind';
import { useSearchBundles } from '@site/src/search/use-search-bundles';

import SearchDialog from './SearchDialog';
import styles from './styles.module.css';

interface Props {
  mobile?: boolean;
  className?: string;
}

function SearchIcon(): React.JSX.Element {
  return (
    <svg width="16" height="16" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
      <path
        d="M14.4 12.9h-.8l-.3-.3a6.5 6.5 0 1 0-.7.7l.3.3v.8l5 5 1.5-1.5-5-5Zm-6 0a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9Z"
        fill="currentColor"
      />
    </svg>
  );
}

/**
 * Search in the navbar (the `custom-search` item): a button that opens the search dialog.
 * The navbar's own instance, which every page renders once, also holds the dialog and its
 * shortcuts; the mobile menu's instance only opens it.
 */
export default function SearchBar({ mobile = false, className }: Props): React.JSX.Element {
  const { pathname } = useLocation();
  const bundles = useSearchBundles();
  // A pointer on the button or focus on it: the dialog is about to open, so its search opens now.
  const preload = (): void => {
    if (bundles) preloadSearch(bundles);
  };
  if (mobile) {
    // In the menu: a full-width, labelled field-like button, the way phones expect search.
    return (
      <li className="menu__list-item">
        <button
          type="button"
          className={clsx(styles.drawerTrigger, className)}
          onClick={() => openSearch(pathname)}
          onPointerEnter={preload}
          onFocus={preload}
          aria-haspopup="dialog"
        >
          <SearchIcon />
          <span>Search the docs</span>
        </button>
      </li>
    );
  }
  return (
    <>
      <button
        type="button"
        className={clsx('navbar__item', styles.trigger, className)}
        onClick={() => openSearch(pathname)}
        onPointerEnter={preload}
        onFocus={preload}
        // No aria-label: the name is the visible text, "Search /" (WCAG 2.5.3, Lighthouse
        // `label-content-name-mismatch`); on narrow screens only the icon shows and "Search"
        // is visually hidden. "/" rather than "Ctrl K": the same key on every system.
        aria-keyshortcuts="Control+K Meta+K /"
        aria-haspopup="dialog"
      >
        <SearchIcon />
        <span className={styles.label}>Search</span>
        <kbd className={styles.kbd}>/</kbd>
      </button>
      <SearchDialog />
    </>
  );
}
