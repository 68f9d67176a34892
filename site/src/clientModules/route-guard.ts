/**
 * Client-side half of the access policy. The gate server refuses private pages and their
 * chunks to readers outside their groups; this keeps an in-app navigation from even
 * starting to render one: Docusaurus calls onRouteUpdate before it fetches the next
 * route's code.
 */
import type { ClientModule } from '@docusaurus/types';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

import { loginRedirectFor, noAccessReloadFor, type PageLocation } from '@site/src/auth/guard';
import { getSessionState, subscribeSession } from '@site/src/auth/session-store';

/** A full load, so the gate server's own rules answer (its redirect or its no-access page). */
function guard(location: PageLocation, inApp: boolean): void {
  const session = getSessionState();
  const target = loginRedirectFor(session, location) ?? (inApp ? noAccessReloadFor(session, location) : null);
  if (target !== null) window.location.assign(target);
}

if (ExecutionEnvironment.canUseDOM) {
  // The server authorised this page's HTML, but the session can end in between (account
  // disabled, cookie expired): once the answer is a clear 401, leave the private page.
  subscribeSession(() => guard(window.location, false));
}

export const onRouteUpdate: ClientModule['onRouteUpdate'] = ({ location, previousLocation }) => {
  // The first call is for the page the server sent (previousLocation null): it was allowed.
  guard(location, previousLocation !== null);
};
