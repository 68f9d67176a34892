import { isPublicRoute, loginUrlFor } from '@portal/access';

import type { SessionState } from './session-store';

export interface PageLocation {
  pathname: string;
  search: string;
  hash: string;
}

/**
 * Where a reader on `location` must go instead, or null to stay. Only a reader the server
 * said is signed out (401) is sent away from a private route; while the session loads, or
 * when its answer could not be read, the gate server's own checks on the page's chunks
 * decide, so a slow or failed session check never bounces a signed-in reader.
 */
export function loginRedirectFor(session: SessionState, { pathname, search, hash }: PageLocation): string | null {
  if (session.status !== 'signedOut' || !session.confirmed || isPublicRoute(pathname)) return null;
  return loginUrlFor(pathname + search + hash);
}
