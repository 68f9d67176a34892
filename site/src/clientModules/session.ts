/**
 * Learns who the reader is as soon as the page's code runs, before React hydrates: from
 * the `portal_groups` hint cookie when that settles it (a signed-out visitor on a public
 * page, or on the not-found page, is never asked about, so the browser logs no 401), else
 * from `GET /api/session`. The navbar, the route guard and the access styles all read the
 * one session store this fills.
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import { isPublicRoute } from '@portal/access';

import { isAppRoute } from '@site/src/auth/app-routes';
import { loadSession } from '@site/src/auth/session-store';

if (ExecutionEnvironment.canUseDOM) {
  const { pathname } = window.location;
  void loadSession(fetch, {
    cookie: document.cookie,
    privatePage: isAppRoute(pathname) && !isPublicRoute(pathname),
  });
}
