/**
 * A page opened from a search result carries `?highlight=<words>`: mark those words in
 * the article, with Pagefind's highlighter from the public search bundle (the script
 * holds no content). Runs after every route change, so client-side navigation works too.
 */
import type { ClientModule } from '@docusaurus/types';

import { HIGHLIGHT_PARAM, SEARCH_PUBLIC } from '@site/src/search/pagefind';

type Highlighter = new (options: Record<string, unknown>) => unknown;

export const onRouteDidUpdate: ClientModule['onRouteDidUpdate'] = ({ location }) => {
  if (!new URLSearchParams(location.search).has(HIGHLIGHT_PARAM)) return;
  (import(/* webpackIgnore: true */ `${SEARCH_PUBLIC}pagefind-highlight.js`) as Promise<{ default: Highlighter }>).then(
    ({ default: PagefindHighlight }) => {
      new PagefindHighlight({ highlightParam: HIGHLIGHT_PARAM, markContext: 'article', addStyles: true });
    },
    (error: unknown) => console.warn('Could not highlight the search words:', error),
  );
};
