/**
 * Docusaurus prefetches the code of every route a visible link points to, and preloads
 * it on hover. For a signed-out reader the chunks of private routes are refused by the
 * gate server (401), so fetching them only costs requests and fills the console with
 * errors. This wraps the runtime's `prefetch` and `preload` so private routes are
 * fetched only for a signed-in reader; while the session check is still in flight the
 * requests wait for its answer instead of being lost.
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';
import { isPublicRoute } from '@portal/access';

import { getSessionState, subscribeSession } from '@site/src/auth/session-store';

type RouteLoader = (routePath: string) => unknown;
interface DocusaurusRuntime {
  prefetch: RouteLoader;
  preload: RouteLoader;
}

const waiting: (() => void)[] = [];

function gated(load: RouteLoader): RouteLoader {
  return (routePath) => {
    const path = routePath.split(/[?#]/, 1)[0] ?? routePath;
    if (isPublicRoute(path)) return load(routePath);
    const session = getSessionState();
    if (session.status === 'signedIn') return load(routePath);
    if (session.status === 'loading') waiting.push(() => void load(routePath));
    return false;
  };
}

function wrap(runtime: unknown): unknown {
  const candidate = runtime as Partial<DocusaurusRuntime> | undefined;
  if (!candidate || typeof candidate.prefetch !== 'function' || typeof candidate.preload !== 'function') return runtime;
  return { ...candidate, prefetch: gated(candidate.prefetch), preload: gated(candidate.preload) };
}

if (ExecutionEnvironment.canUseDOM) {
  subscribeSession(() => {
    const session = getSessionState();
    if (session.status === 'loading') return;
    const queued = waiting.splice(0);
    if (session.status === 'signedIn') queued.forEach((load) => load());
  });
  // The client entry assigns window.docusaurus after the client modules have run.
  const global = window as unknown as { docusaurus?: unknown };
  let current = wrap(global.docusaurus);
  Object.defineProperty(window, 'docusaurus', {
    configurable: true,
    get: () => current,
    set: (value: unknown) => {
      current = wrap(value);
    },
  });
}
