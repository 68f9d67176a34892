/**
 * (CUSTOM) Docusaurus theme-common's `reactUtils`, with our own `useShallowMemoObject` in
 * place of its one; src/plugins/no-collator-at-startup.ts puts this module where
 * theme-common imports its own. Everything else is the original, re-exported.
 */
import { useMemo } from 'react';

export * from '@portal/theme-common-react-utils';

/**
 * The object of the last render while its keys and values are the same. The original
 * sorts the keys with `localeCompare`, and a page's first `localeCompare` makes the
 * browser build its collator: 8 to 16 ms in Chromium on this machine, about four times
 * that on Lighthouse's phone, inside the hydration of every page with a code block (the
 * word-wrap button watches the block with options memoised this way) and in the phone's
 * sidebar. The sort only makes the memo independent of the keys' order, so any fixed
 * order does: these keys are property names, and code-unit order is one.
 */
export function useShallowMemoObject<O extends object>(object: O): O {
  const entries = Object.entries(object);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // The entries are the dependencies: an object of any keys, as in the original.
  // eslint-disable-next-line react-hooks/exhaustive-deps, react-hooks/use-memo
  return useMemo(() => object, entries.flat());
}
