/**
 * Docusaurus prefetches the code of every route a visible link points to, and preloads
 * it on hover. The gate server refuses the chunks of a private route to a reader outside
 * its groups (401 signed out, refused signed in), so fetching them only costs requests
 * and fills the console with errors. This wraps the runtime's `prefetch` and `preload` so
 * a private route is fetched only for a signed-in reader who may read it; while the
 * session check is still in flight the requests wait for its answer instead of being lost.
 *
 * Prefetching is speculative, so it also waits for an idle moment, one route per idle
 * callback: Docusaurus starts it from the links' IntersectionObserver, all visible links
 * in one task, and matching a route and adding its `<link rel="prefetch">` elements for
 * a dozen links made a long task during the page load (Lighthouse `total-blocking-time`).
 * Preloading (hover, navigation) is never delayed.
 */
import ExecutionEnvironment from '@docusaurus/ExecutionEnvironment';

import { prefetchDecision } from '@site/src/auth/guard';
import { getSessionState, subscribeSession } from '@site/src/auth/session-store';

type RouteLoader = (routePath: string) => unknown;
interface DocusaurusRuntime {
  prefetch: RouteLoader;
  preload: RouteLoader;
}

/** Loads that wait for the session answer, with the path each one is for. */
const waiting: { path: string; run: () => void }[] = [];

/** Runs `work` when the main thread is idle (at the latest after a second). */
function whenIdle(work: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(work, { timeout: 1000 });
  else window.setTimeout(work, 1);
}

/** `load` for a public route or one the reader may read; `defer` postpones it to an idle moment. */
function gated(load: RouteLoader, defer: boolean): RouteLoader {
  const run: RouteLoader = defer
    ? (routePath) => {
        whenIdle(() => void load(routePath));
        return true;
      }
    : load;
  return (routePath) => {
    const path = routePath.split(/[?#]/, 1)[0] ?? routePath;
    const decision = prefetchDecision(getSessionState(), path);
    if (decision === 'load') return run(routePath);
    if (decision === 'wait') waiting.push({ path, run: () => void run(routePath) });
    return false;
  };
}

function wrap(runtime: unknown): unknown {
  const candidate = runtime as Partial<DocusaurusRuntime> | undefined;
  if (!candidate || typeof candidate.prefetch !== 'function' || typeof candidate.preload !== 'function') return runtime;
  return { ...candidate, prefetch: gated(candidate.prefetch, true), preload: gated(candidate.preload, false) };
}

if (ExecutionEnvironment.canUseDOM) {
  subscribeSession(() => {
    const session = getSessionState();
    if (session.status === 'loading') return;
    for (const queued of waiting.splice(0)) if (prefetchDecision(session, queued.path) === 'load') queued.run();
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
