import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import { useHistory, useLocation } from '@docusaurus/router';
import { loginUrlFor } from '@portal/access';

import { useAuth } from '@site/src/auth/AuthProvider';
import { search, searchBundlesFor, type SearchHit } from '@site/src/search/pagefind';

import styles from './styles.module.css';

interface Props {
  mobile?: boolean;
  className?: string;
}

function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return Boolean(element && (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName)));
}

/** A result's URL as a path on this site (Pagefind gives site-relative URLs). */
function sitePath(url: string): string {
  const parsed = new URL(url, 'https://portal.invalid');
  return parsed.pathname + parsed.search + parsed.hash;
}

/**
 * Search in the navbar: a button that opens a search dialog (also Ctrl/⌘-K and `/`).
 * A signed-in reader searches the pages their groups may read; a signed-out reader the
 * public pages, and is told that signing in searches the rest.
 */
export default function SearchBar({ mobile = false, className }: Props): React.JSX.Element | null {
  const auth = useAuth();
  const history = useHistory();
  const location = useLocation();
  // Open on the page it was opened on: navigating anywhere closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === location.pathname;
  const setOpen = useCallback((value: boolean) => setOpenOn(value ? location.pathname : null), [location.pathname]);
  const [query, setQuery] = useState('');
  // The answer for a query (or that it failed); what is shown is derived from it.
  const [answer, setAnswer] = useState<{ query: string; base: string; hits: SearchHit[] | 'error' } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const signedIn = auth.state.status === 'signedIn';
  const groups = auth.state.status === 'signedIn' ? auth.state.groups : null;
  const bundles = useMemo(() => searchBundlesFor(groups), [groups]);
  // One string per set of bundles: what an answer was for, and what the effect depends on.
  const base = bundles.join(' ');

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent): void => {
      const modK = (event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 'k';
      const slash = event.key === '/' && !event.metaKey && !event.ctrlKey && !isTyping(event.target);
      if (modK || slash) {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setOpen]);

  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  const text = query.trim();
  useEffect(() => {
    if (!open || text === '') return;
    let current = true;
    search(bundles, text).then(
      (found) => {
        if (current && found !== null) setAnswer({ query: text, base, hits: found });
      },
      (error: unknown) => {
        console.error('Search failed:', error);
        if (current) setAnswer({ query: text, base, hits: 'error' });
      },
    );
    return () => {
      current = false;
    };
  }, [open, text, base, bundles]);
  const answered = answer !== null && answer.query === text && answer.base === base ? answer.hits : null;
  const hits = Array.isArray(answered) ? answered : [];
  const state = text === '' ? 'idle' : answered === null ? 'searching' : answered === 'error' ? 'error' : 'done';

  const go = useCallback(
    (url: string) => {
      setOpen(false);
      history.push(sitePath(url));
    },
    [history, setOpen],
  );

  const onListKey = (event: KeyboardEvent<HTMLElement>): void => {
    if (event.key === 'Escape') {
      setOpen(false);
      return;
    }
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const links = Array.from(list.current?.querySelectorAll<HTMLAnchorElement>('a') ?? []);
    if (links.length === 0) return;
    event.preventDefault();
    const index = links.indexOf(document.activeElement as HTMLAnchorElement);
    const next = event.key === 'ArrowDown' ? index + 1 : index - 1;
    if (next < 0) input.current?.focus();
    else links[Math.min(next, links.length - 1)]?.focus();
  };

  return (
    <>
      <button
        type="button"
        className={clsx(mobile ? 'menu__link' : 'navbar__item', styles.trigger, className)}
        onClick={() => setOpen(true)}
        // No aria-label: the name is the visible text, "Search Ctrl K" (WCAG 2.5.3, Lighthouse
        // `label-content-name-mismatch`); on narrow screens "Search" is only visually hidden.
        aria-keyshortcuts="Control+K Meta+K /"
        aria-haspopup="dialog"
      >
        <svg width="16" height="16" viewBox="0 0 20 20" aria-hidden="true" focusable="false">
          <path
            d="M14.4 12.9h-.8l-.3-.3a6.5 6.5 0 1 0-.7.7l.3.3v.8l5 5 1.5-1.5-5-5Zm-6 0a4.5 4.5 0 1 1 0-9 4.5 4.5 0 0 1 0 9Z"
            fill="currentColor"
          />
        </svg>
        <span className={styles.label}>Search</span>
        {!mobile && (
          <>
            {' '}
            <kbd className={styles.kbd}>Ctrl K</kbd>
          </>
        )}
      </button>
      {open && (
        <div
          className={styles.backdrop}
          onMouseDown={(event) => event.target === event.currentTarget && setOpen(false)}
        >
          <div
            className={styles.dialog}
            role="dialog"
            aria-modal="true"
            aria-label="Search the documentation"
            onKeyDown={onListKey}
          >
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
            {!signedIn && (
              <p className={styles.hint}>
                You are searching the public pages only.{' '}
                <Link to={loginUrlFor(location.pathname + location.search)}>Sign in</Link> to search everything.
              </p>
            )}
            {/* data-answered: the query whose answer the list shows, so a test can wait for it. */}
            <ul
              ref={list}
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
              {state === 'done' && hits.length === 0 && `No results for “${query.trim()}”.`}
              {state === 'error' && 'Search is not available right now. Try again in a moment.'}
            </p>
          </div>
        </div>
      )}
    </>
  );
}
