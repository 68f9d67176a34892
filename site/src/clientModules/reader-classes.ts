/**
 * Keeps the root element's reader classes (`portal-signed-in`, `portal-g-<group>`,
 * `portal-signed-out`) in step with the session, so the access styles show each reader
 * only the sidebar items, cards and links they may open. A client module rather than an
 * effect in the auth provider: it runs before hydration, so it can keep the head script's
 * first guess through React Helmet's rewrite of the root's classes.
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

import { keepReaderClasses } from '@site/src/auth/reader-classes';
import { getSessionState, subscribeSession } from '@site/src/auth/session-store';

if (ExecutionEnvironment.canUseDOM) {
  keepReaderClasses(document.documentElement, { get: getSessionState, subscribe: subscribeSession });
}
