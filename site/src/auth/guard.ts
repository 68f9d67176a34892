import { canRead, isPublicRoute, loginUrlFor } from '@portal/access';

import type { SessionState } from './session-store';

export interface PageLocation {
  pathname: string;
  search: string;
  hash: string;
}

/** Whether a path is a page of the app; false for one only the not-found page answers. */
export type IsAppRoute = (pathname: string) => boolean;

/**
 * Where a reader on `location` must go instead, or null to stay. Only a reader known to be
 * signed out is sent away from a private route; while the session loads, or when its
 * answer could not be read, the gate server's own checks on the page's chunks decide, so a
 * slow or failed session check never bounces a signed-in reader. A path that is no page of
 * the app stays too: its not-found page is for everyone, signed in or not, and sending a
 * mistyped address to the sign-in page would only hide the mistake.
 */
export function loginRedirectFor(
  session: SessionState,
  { pathname, search, hash }: PageLocation,
  isAppRoute: IsAppRoute,
): string | null {
  if (session.status !== 'signedOut' || !session.confirmed || isPublicRoute(pathname)) return null;
  if (!isAppRoute(pathname)) return null;
  return loginUrlFor(pathname + search + hash);
}

/**
 * The URL to load in full when a signed-in reader navigates in the app to a route outside
 * their groups, or null to let the app render it. The full load lets the gate server
 * answer with its no-access page instead of the app failing on refused chunks. Call it
 * for in-app navigations only: the page the server itself sent was allowed, and loading
 * it again would loop.
 */
export function noAccessReloadFor(
  session: SessionState,
  { pathname, search, hash }: PageLocation,
  isAppRoute: IsAppRoute,
): string | null {
  if (session.status !== 'signedIn' || canRead(session.units, pathname) || !isAppRoute(pathname)) return null;
  return pathname + search + hash;
}

/**
 * Whether the app may fetch a route's code ahead of a click: at once for a public route or
 * one the reader may read, after the session answer while it is awaited, never otherwise
 * (the gate would refuse the chunks).
 */
export function prefetchDecision(session: SessionState, pathname: string): 'load' | 'wait' | 'skip' {
  if (isPublicRoute(pathname)) return 'load';
  if (session.status === 'loading') return 'wait';
  return session.status === 'signedIn' && canRead(session.units, pathname) ? 'load' : 'skip';
}
