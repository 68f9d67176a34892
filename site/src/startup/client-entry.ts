/**
 * (CUSTOM) The page's start-up in five main-thread tasks instead of one: evaluating the
 * main bundle's modules, then Docusaurus's own client entry (which loads the route's
 * chunks and starts hydration), was the longest task of a page load, 100 to 230 ms on
 * Lighthouse's phone (4× CPU) for a doc page. The browser can paint and take input
 * between tasks; the longest step left, requesting the page's chunks, takes 50 to 90 ms
 * there, and the others 20 to 70.
 * src/plugins/staged-startup.ts puts this module in the place of Docusaurus's client
 * entry; the original runs unchanged as the last step. `webpackMode: "eager"` keeps every
 * module in the main bundle: no step waits for the network.
 */

/** Resolves in a new task (a message to ourselves: not clamped like a timer, not a frame late). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

async function start(): Promise<void> {
  // 1. React and ReactDOM: the largest modules, with nothing of the site's yet.
  await import(/* webpackMode: "eager" */ 'react-dom/client');
  await nextTask();
  // 2. The route table: a loadable component for every page of the site.
  await import(/* webpackMode: "eager" */ '@generated/routes');
  await nextTask();
  // 3. The app: the theme's layout and the client modules (the session is asked for here,
  //    before hydration, as before).
  await import(/* webpackMode: "eager" */ '@docusaurus/core/lib/client/App');
  await nextTask();
  // 4. The page's chunks are requested: Docusaurus's own preload, which the entry calls
  //    again and then finds under way.
  const { default: preload } = await import(/* webpackMode: "eager" */ '@docusaurus/core/lib/client/preload');
  void preload(window.location.pathname);
  await nextTask();
  // 5. Docusaurus's own entry: waits for those chunks, then hydrates in a transition.
  await import(/* webpackMode: "eager" */ '@portal/docusaurus-client-entry');
}

void start();
