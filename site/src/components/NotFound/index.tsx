import { useMemo, useState, type FormEvent } from 'react';
import Link from '@docusaurus/Link';
import { useLocation } from '@docusaurus/router';
import useIsBrowser from '@docusaurus/useIsBrowser';
import Heading from '@theme/Heading';

import { linkMark } from '@site/src/access/item-marks';
import { appRoutePaths } from '@site/src/auth/app-routes';
import AccessLock from '@site/src/components/AccessLock';
import { families } from '@site/src/data/families';
import BlogIcon from '@site/src/icons/blog.svg';
import StartIcon from '@site/src/icons/start.svg';
import { openSearch } from '@site/src/search/dialog-store';

import { nearestPath, searchWordsOf } from './suggest';
import styles from './styles.module.css';

const sections = [
  { id: 'start', title: 'Getting Started', to: '/docs/', Icon: StartIcon },
  ...families.map(({ id, title, to, Icon }) => ({ id, title, to, Icon })),
  { id: 'blog', title: 'Blog', to: '/blog', Icon: BlogIcon },
];

/**
 * The not-found page's content, for every reader and every unknown path (the gate answers
 * such a path with 404 and this page; the route guard leaves it alone): what was asked
 * for, the nearest page when the address looks mistyped, a search that starts from the
 * words of the address, and the way to each section. The one server-rendered not-found
 * page serves every unknown path, so what depends on the path appears once the page runs,
 * in room the page keeps for it.
 */
export default function NotFound(): React.JSX.Element {
  const { pathname } = useLocation();
  const isBrowser = useIsBrowser();
  const [query, setQuery] = useState<string | null>(null);
  const suggestion = useMemo(() => (isBrowser ? nearestPath(pathname, appRoutePaths()) : null), [isBrowser, pathname]);
  const words = query ?? (isBrowser ? searchWordsOf(pathname) : '');

  function onSearch(event: FormEvent<HTMLFormElement>): void {
    event.preventDefault();
    openSearch(pathname, words.trim());
  }

  return (
    <main className={styles.page}>
      <div className="container">
        <p className={styles.code} aria-hidden="true">
          404
        </p>
        <Heading as="h1" className={styles.title}>
          Page Not Found
        </Heading>
        <p className={styles.lead}>
          There is no page at
          <code className={styles.path}>{isBrowser ? pathname : '\u00a0'}</code>
          It may have moved, or the address may have a typo.
        </p>
        <p className={styles.suggestion}>
          {suggestion !== null && (
            <>
              Did you mean{' '}
              <Link to={suggestion}>
                {suggestion}
                <AccessLock to={suggestion} />
              </Link>
              ?
            </>
          )}
        </p>

        <form className={styles.search} role="search" onSubmit={onSearch}>
          <label htmlFor="not-found-search" className={styles.searchLabel}>
            Search the documentation
          </label>
          <div className={styles.searchRow}>
            <input
              id="not-found-search"
              className={styles.searchInput}
              type="search"
              value={words}
              onChange={(event) => setQuery(event.target.value)}
              placeholder="Package, API or topic"
            />
            <button type="submit" className="button button--primary">
              Search
            </button>
          </div>
        </form>

        <Heading as="h2" className={styles.sectionsTitle}>
          Or go to a section
        </Heading>
        <ul className={styles.sections}>
          {sections.map(({ id, title, to, Icon }) => (
            <li key={id} className={linkMark(to) ?? undefined}>
              <Link to={to} className={styles.section}>
                <Icon className={styles.icon} aria-hidden="true" focusable="false" />
                <span>
                  {title}
                  <AccessLock to={to} />
                </span>
              </Link>
            </li>
          ))}
        </ul>
        <p className={styles.home}>
          <Link to="/">Go to the home page</Link>
        </p>
      </div>
    </main>
  );
}
