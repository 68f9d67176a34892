import DocCategoryGeneratedIndexPage from '@theme-original/DocCategoryGeneratedIndexPage';
import type DocCategoryGeneratedIndexPageType from '@theme/DocCategoryGeneratedIndexPage';
import type { WrapperProps } from '@docusaurus/types';

import { CardFactsProvider } from '@site/src/access/card-facts';
import type { CategoryCards } from '@site/src/plugins/gated-docs-routes';

type Props = WrapperProps<typeof DocCategoryGeneratedIndexPageType> & { cards?: CategoryCards };

// (CUSTOM) Hands the page's own card facts (a route prop from src/plugins/gated-docs.ts,
// gated with the page: descriptions, versions, platforms) to its package cards: the shared
// docs metadata does not carry private descriptions.
export default function DocCategoryGeneratedIndexPageWrapper({ cards, ...props }: Props): React.JSX.Element {
  return (
    <CardFactsProvider value={cards ?? null}>
      <DocCategoryGeneratedIndexPage {...props} />
    </CardFactsProvider>
  );
}
