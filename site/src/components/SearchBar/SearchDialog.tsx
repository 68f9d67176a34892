import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import Link from '@docusaurus/Link';
import { useHistory, useLocation } from '@docusaurus/router';
import { BREADCRUMB_SEPARATOR } from '@portal/search';
import { loginUrlFor, readersOf, REQUEST_ACCESS, SEARCH_ROOT, searchBundlesFor, unitId } from '@portal/access';

import { useAuth } from '@site/src/auth/AuthProvider';
import { requestAccessHref } from '@site/src/auth/errors';
import { usePackages } from '@site/src/packages/usePackages';
import { placeOf } from '@site/src/packages/versions';
import { closeSearch, openSearch, useSearchDialog } from '@site/src/search/dialog-store';
import { preloadSearch, search, type SearchAnswer } from '@site/src/search/pagefind';
import { reportSearch } from '@site/src/search/report';
import { usePreloadSearchWhenIdle, useSearchBundles } from '@site/src/search/use-search-bundles';

import styles from './styles.module.css';

function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return Boolean(element && (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName)));
}

/** A result's URL as a path on this site (Pagefind gives site-relative URLs). */
function sitePath(url: string): string {
  const parsed = new URL(url, 'https://portal.invalid');
  return parsed.pathname + parsed.search + parsed.hash;
}

const FOCUSABLE = 'input, button, a[href]';

const PUBLIC_ONLY = searchBundlesFor(null);

function Dialog({ initialQuery }: { initialQuery: string }): React.JSX.Element {
  const auth = useAuth();
  const history = useHistory();
  const location = useLocation();
  const [query, setQuery] = useState(initialQuery);
  // The answer for a query (or that it failed); what is shown is derived from it.
  const [answer, setAnswer] = useState<{ query: string; base: string; found: SearchAnswer | 'error' } | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const signedIn = auth.state.status === 'signedIn';
  const readable = useSearchBundles();
  // Signed out until the session is known: the public bundle.
  const bundles = readable ?? PUBLIC_ONLY;
  // On a page of an older release of a synced package, the reader may search that release
  // instead of the newest (which a search finds by default).
  const packages = usePackages();
  const place = placeOf(location.pathname, packages);
  const olderRelease = place && place.version.version !== place.pkg.latest ? place : null;
  const [inRelease, setInRelease] = useState(false);
  const version = inRelease && olderRelease ? olderRelease.version.version : undefined;
  // A release is searched in the bundle of the package's own access unit (the reader reads
  // it: they are on its page), which holds a bundle of each of its older releases.
  const packageReaders = olderRelease ? readersOf(olderRelease.pkg.basePath) : null;
  const packageBundle = packageReaders === null ? null : `${SEARCH_ROOT}${unitId(packageReaders)}/`;
  const searched = useMemo(
    () => (version !== undefined && packageBundle !== null ? [packageBundle] : bundles),
    [version, packageBundle, bundles],
  );
  // One string per set of bundles and release: what an answer was for, and what the effect depends on.
  const base = `${searched.join(' ')}${version === undefined ? '' : ` @${version}`}`;

  // Focus goes to the field, and back to whatever opened the dialog when it closes.
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    input.current?.focus();
    input.current?.select();
    return () => {
      if (opener?.isConnected) opener.focus();
    };
  }, []);

  // The dialog is open: its search opens now, if the button's hover or the idle page has
  // not opened it already, rather than on the first key.
  useEffect(() => {
    if (readable !== null) preloadSearch(readable);
  }, [readable]);

  const text = query.trim();
  useEffect(() => {
    if (text === '') return;
    let current = true;
    search(searched, text, { version }).then(
      (found) => {
        if (current && found !== null) setAnswer({ query: text, base, found });
      },
      (error: unknown) => {
        console.error('Search failed:', error);
        if (current) setAnswer({ query: text, base, found: 'error' });
      },
    );
    return () => {
      current = false;
    };
  }, [text, base, searched, version]);
  const answered = answer !== null && answer.query === text && answer.base === base ? answer.found : null;
  const found = answered === null || answered === 'error' ? null : answered;
  const hits = found?.hits ?? [];
  const state = text === '' ? 'idle' : answered === null ? 'searching' : answered === 'error' ? 'error' : 'done';

  // The search a signed-in reader ends with (closing the dialog, opening a result, leaving
  // the page) is reported once, with its result count, for the insights; the queries typed
  // on the way to it are not.
  const finished = useRef<{ query: string; results: number } | null>(null);
  const count = hits.length;
  useEffect(() => {
    finished.current = signedIn && state === 'done' ? { query: text, results: count } : null;
  }, [signedIn, state, text, count]);
  useEffect(() => {
    const report = (): void => {
      if (finished.current) reportSearch(finished.current.query, finished.current.results);
      finished.current = null;
    };
    window.addEventListener('pagehide', report);
    return () => {
      window.removeEventListener('pagehide', report);
      report();
    };
  }, []);

  const go = useCallback(
    (url: string) => {
      closeSearch();
      history.push(sitePath(url));
    },
    [history],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLElement>): void => {
    if (event.key === 'Escape') {
      event.preventDefault();
      closeSearch();
      return;
    }
    if (event.key === 'Tab') {
      // A modal dialog keeps focus inside until it is closed.
      const focusable = Array.from(dialog.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? []);
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
      return;
    }
    // Roving focus through the results' links (and the no-results state's): the arrows move,
    // Home and End jump, Enter follows the link; up from the first goes back to the field.
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key)) return;
    const links = Array.from(dialog.current?.querySelectorAll<HTMLAnchorElement>('[data-roving] a') ?? []);
    const index = links.indexOf(document.activeElement as HTMLAnchorElement);
    if (links.length === 0 || ((event.key === 'Home' || event.key === 'End') && index === -1)) return;
    event.preventDefault();
    const next =
      event.key === 'Home' ? 0 : event.key === 'End' ? links.length - 1 : index + (event.key === 'ArrowDown' ? 1 : -1);
    if (next < 0) input.current?.focus();
    else links[Math.min(next, links.length - 1)]?.focus();
  };

  return (
    <div className={styles.backdrop} onMouseDown={(event) => event.target === event.currentTarget && closeSearch()}>
      <div
        ref={dialog}
        className={styles.dialog}
        role="dialog"
        aria-modal="true"
        aria-label="Search the documentation"
        onKeyDown={onKeyDown}
      >
        <div className={styles.field}>
          <svg width="18" height="18" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
            <path
              d="M14.4 12.9h-.8l-.3-.3a6.5 6.5 0 1 0-.7.7l.3.3v.8l5 5 1.5-1.5-5-5Zm-6 0a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9Z"
              fill="currentColor"
            />
          </svg>
          <input
            ref={input}
            className={styles.input}
            type="search"
            placeholder={signedIn ? 'Search the docs you can read' : 'Search the public pages'}
            aria-label="Search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && hits[0]) go(hits[0].url);
            }}
          />
          <button type="button" className={styles.close} onClick={closeSearch}>
            Close
          </button>
        </div>
        {olderRelease && (
          <label className={styles.scope}>
            <input type="checkbox" checked={inRelease} onChange={(event) => setInRelease(event.target.checked)} />{' '}
            Search only version {olderRelease.version.version} of {olderRelease.pkg.title}
          </label>
        )}
        {!signedIn && (
          <p className={styles.hint}>
            You are searching the public pages only.{' '}
            <Link to={loginUrlFor(location.pathname + location.search)} onClick={closeSearch}>
              Sign in
            </Link>{' '}
            to search everything you can read.
          </p>
        )}
        {/* data-answered: the query whose answer the list shows, so a test can wait for it. */}
        <ul
          data-roving
          className={styles.results}
          aria-label="Search results"
          data-answered={answered === null ? undefined : text}
        >
          {hits.map((hit) => (
            <li key={hit.url} className={styles.result}>
              <Link
                to={sitePath(hit.url)}
                className={styles.resultLink}
                onClick={(event) => {
                  event.preventDefault();
                  go(hit.url);
                }}
              >
                {hit.breadcrumb.length > 0 && (
                  <span className={styles.breadcrumb}>{hit.breadcrumb.join(BREADCRUMB_SEPARATOR)}</span>
                )}
                <span className={styles.title}>{hit.title}</span>
                <span className={styles.excerpt} dangerouslySetInnerHTML={{ __html: hit.excerpt }} />
              </Link>
              {hit.headings.length > 0 && (
                <ul className={styles.headings}>
                  {hit.headings.map((heading) => (
                    <li key={heading.url}>
                      <Link
                        to={sitePath(heading.url)}
                        className={styles.headingLink}
                        onClick={(event) => {
                          event.preventDefault();
                          go(heading.url);
                        }}
                      >
                        {heading.title}
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          ))}
        </ul>
        <p className={styles.status} role="status">
          {state === 'searching' && 'Searching…'}
          {state === 'done' && hits.length === 0 && `No results for “${text}”.`}
          {state === 'done' && hits.length > 0 && found?.corrected && `Showing results for “${found.corrected}”.`}
          {state === 'error' && 'Search is not available right now. Try again in a moment.'}
        </p>
        {state === 'done' && hits.length === 0 && (
          <div className={styles.noResults} data-roving>
            <h2 className={styles.noResultsTitle} id="search-nearby">
              {found && found.nearby.length > 0 ? 'Closest sections' : 'Start from'}
            </h2>
            <ul aria-labelledby="search-nearby" className={styles.nearby}>
              {(found && found.nearby.length > 0
                ? found.nearby
                : [{ section: 'Getting Started', title: 'What to read first', url: '/docs/' }]
              ).map((place) => (
                <li key={place.section}>
                  <Link
                    to={sitePath(place.url)}
                    onClick={(event) => {
                      event.preventDefault();
                      go(place.url);
                    }}
                  >
                    {place.section}
                  </Link>{' '}
                  <span className={styles.nearbyPage}>({place.title})</span>
                </li>
              ))}
            </ul>
            <p className={styles.hint}>
              Not what you need, or a page you cannot read?{' '}
              <a href={requestAccessHref(auth.state.email ?? null, location.pathname)}>
                Ask {REQUEST_ACCESS.label} for access
              </a>
              .
            </p>
          </div>
        )}
        <p className={styles.footer} aria-hidden="true">
          <kbd>↑</kbd> <kbd>↓</kbd> to move, <kbd>Enter</kbd> to open, <kbd>Esc</kbd> to close
        </p>
      </div>
    </div>
  );
}

/**
 * The page's one search dialog, and the shortcuts that open it (Ctrl/⌘-K, and `/` outside
 * a text field). A signed-in reader searches the pages their groups may read; a signed-out
 * reader the public pages, and is told that signing in searches the rest.
 */
export default function SearchDialog(): React.JSX.Element | null {
  const { pathname } = useLocation();
  const { openOn, query, opening } = useSearchDialog();
  usePreloadSearchWhenIdle(useSearchBundles());

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent): void => {
      const modK = (event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 'k';
      const slash = event.key === '/' && !event.metaKey && !event.ctrlKey && !isTyping(event.target);
      if (modK || slash) {
        event.preventDefault();
        openSearch(window.location.pathname);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // Open on the page it was opened on: navigating anywhere closes it.
  if (openOn !== pathname) return null;
  return <Dialog key={opening} initialQuery={query} />;
}
