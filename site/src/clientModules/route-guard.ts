/**
 * Client-side half of the access policy. The gate server refuses private pages and their
 * chunks to anonymous readers; this keeps an in-app navigation from even starting to
 * render one: Docusaurus calls onRouteUpdate before it fetches the next route's code.
 */
import type { ClientModule } from '@docusaurus/types';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

import { loginRedirectFor, type PageLocation } from '@site/src/auth/guard';
import { getSessionState, subscribeSession } from '@site/src/auth/session-store';

/** A full load, so the gate server's own rules answer on the way to the login page. */
function guard(location: PageLocation): void {
  const target = loginRedirectFor(getSessionState(), location);
  if (target !== null) window.location.assign(target);
}

if (ExecutionEnvironment.canUseDOM) {
  // The server authorised this page's HTML, but the session can end in between (account
  // disabled, cookie expired): once the answer is a clear 401, leave the private page.
  subscribeSession(() => guard(window.location));
}

export const onRouteUpdate: ClientModule['onRouteUpdate'] = ({ location }) => {
  guard(location);
};
