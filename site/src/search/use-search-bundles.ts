import { useEffect, useMemo } from 'react';
import { searchBundlesFor } from '@portal/access';

import { useAuth } from '@site/src/auth/AuthProvider';

import { preloadSearch } from './pagefind';

/**
 * The search bundles the reader may read (`searchBundlesFor` their units; the public one
 * signed out), or null while the session is not yet known.
 */
export function useSearchBundles(): readonly string[] | null {
  const { state } = useAuth();
  const units = state.status === 'signedIn' ? state.units : null;
  const known = state.status !== 'loading';
  return useMemo(() => (known ? searchBundlesFor(units) : null), [known, units]);
}

/** How long after the page's load the search opens on its own, when the browser is idle. */
const IDLE_PRELOAD_DELAY_MS = 2000;

/**
 * Opens the reader's search once the page has loaded and the browser is idle, so that the
 * first query does not wait for the bundles; the search button also opens it on hover and
 * focus (`preloadSearch`), for a dialog opened sooner.
 */
export function usePreloadSearchWhenIdle(bundles: readonly string[] | null): void {
  useEffect(() => {
    if (bundles === null) return;
    let idle: number | undefined;
    const timer = window.setTimeout(() => {
      const run = (): void => preloadSearch(bundles);
      idle = 'requestIdleCallback' in window ? window.requestIdleCallback(run, { timeout: 2000 }) : undefined;
      if (idle === undefined) run();
    }, IDLE_PRELOAD_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      if (idle !== undefined) window.cancelIdleCallback(idle);
    };
  }, [bundles]);
}
