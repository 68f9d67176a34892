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
 * The URL to load in full when the app is sent, from another path, to one that is no page
 * of it, or null to stay. This tab's route table is the one of the build it loaded; since
 * then a release may have swapped in a build with more pages (an older release's pages move
 * to `<section>/<version>/`, and the search, read fresh, links them), so the server is
 * asked: it answers the page, or its own not-found page with status 404. Docusaurus does
 * the same when a route's chunk is gone after a deployment. A change of query or hash on
 * the same path stays in the app, so the not-found page itself never loads again.
 */
export function unknownRouteReloadFor(
  { pathname, search, hash }: PageLocation,
  fromPathname: string | null,
  isAppRoute: IsAppRoute,
): string | null {
  if (fromPathname === null || fromPathname === pathname || isAppRoute(pathname)) return null;
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
