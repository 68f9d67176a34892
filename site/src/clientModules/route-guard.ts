/**
 * Client-side half of the access policy. The gate server refuses private pages and their
 * chunks to readers outside their groups; this keeps an in-app navigation from even
 * starting to render one: Docusaurus calls onRouteUpdate before it fetches the next
 * route's code. A path that is no page of this tab's app is loaded in full: a build
 * swapped in since may have it, else the server answers its not-found page.
 */
import type { ClientModule } from '@docusaurus/types';
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

import { isAppRoute } from '@site/src/auth/app-routes';
import { loginRedirectFor, noAccessReloadFor, type PageLocation, unknownRouteReloadFor } from '@site/src/auth/guard';
import { getSessionState, subscribeSession } from '@site/src/auth/session-store';

/**
 * A full load, so the gate server's own rules answer (its redirect, its no-access page, or
 * a page this tab's app does not have). `from` is the path the app came from, null for the
 * page the server itself sent.
 */
function guard(location: PageLocation, from: string | null): void {
  const session = getSessionState();
  const target =
    loginRedirectFor(session, location, isAppRoute) ??
    (from !== null ? noAccessReloadFor(session, location, isAppRoute) : null) ??
    unknownRouteReloadFor(location, from, isAppRoute);
  if (target !== null) window.location.assign(target);
}

/**
 * A plain click on a link this reader may not follow, or to a path this tab's app does not
 * have, loads the page in full at once, before the router starts: Docusaurus fetches the
 * next route's code right after onRouteUpdate, and the gate would refuse those chunks (a
 * 401 or 403 in the console) while the full load is already on its way; a path the app
 * does not have would show its not-found page until the load arrived.
 */
function onClick(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return;
  if (anchor.target !== '' && anchor.target !== '_self') return;
  const url = new URL(anchor.href, window.location.href);
  if (url.origin !== window.location.origin) return;
  const session = getSessionState();
  const target =
    loginRedirectFor(session, url, isAppRoute) ??
    noAccessReloadFor(session, url, isAppRoute) ??
    unknownRouteReloadFor(url, window.location.pathname, isAppRoute);
  if (target === null) return;
  event.preventDefault();
  window.location.assign(target);
}

if (ExecutionEnvironment.canUseDOM) {
  // The server authorised this page's HTML, but the session can end in between (account
  // disabled, cookie expired): once the answer is a clear 401, leave the private page.
  subscribeSession(() => guard(window.location, null));
  // Capture: before React's own listener, so the router never sees the click.
  document.addEventListener('click', onClick, true);
}

export const onRouteUpdate: ClientModule['onRouteUpdate'] = ({ location, previousLocation }) => {
  // The first call is for the page the server sent (previousLocation null): it was allowed.
  guard(location, previousLocation?.pathname ?? null);
};
