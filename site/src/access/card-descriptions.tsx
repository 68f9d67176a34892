import { createContext, useContext, type ReactNode } from 'react';

import type { CardDescriptions } from '@site/src/plugins/gated-docs-routes';

/**
 * The descriptions a generated-index category page may show on its doc cards (the
 * `cardDescriptions` prop the gated docs plugin gives it); null outside such a page.
 */
const CardDescriptionsContext = createContext<CardDescriptions | null>(null);

export function CardDescriptionsProvider({
  value,
  children,
}: {
  value: CardDescriptions | null;
  children: ReactNode;
}): React.JSX.Element {
  return <CardDescriptionsContext.Provider value={value}>{children}</CardDescriptionsContext.Provider>;
}

export function useCardDescriptions(): CardDescriptions | null {
  return useContext(CardDescriptionsContext);
}
