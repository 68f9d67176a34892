import { createContext, useContext, type ReactNode } from 'react';

import type { CategoryCards } from '@site/src/plugins/gated-docs-routes';

/**
 * What a generated-index category page may show on its package cards (the `cards` prop
 * the gated docs plugin gives it, gated with the page); null outside such a page.
 */
const CardFactsContext = createContext<CategoryCards | null>(null);

export function CardFactsProvider({
  value,
  children,
}: {
  value: CategoryCards | null;
  children: ReactNode;
}): React.JSX.Element {
  return <CardFactsContext.Provider value={value}>{children}</CardFactsContext.Provider>;
}

export function useCardFacts(): CategoryCards | null {
  return useContext(CardFactsContext);
}
