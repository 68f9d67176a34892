import DocCategoryGeneratedIndexPage from '@theme-original/DocCategoryGeneratedIndexPage';
import type DocCategoryGeneratedIndexPageType from '@theme/DocCategoryGeneratedIndexPage';
import type { WrapperProps } from '@docusaurus/types';

import { CardDescriptionsProvider } from '@site/src/access/card-descriptions';
import type { CardDescriptions } from '@site/src/plugins/gated-docs-routes';

type Props = WrapperProps<typeof DocCategoryGeneratedIndexPageType> & { cardDescriptions?: CardDescriptions };

// (CUSTOM) Hands the page's own card descriptions (a route prop from src/plugins/gated-docs.ts,
// gated with the page) to its doc cards: the shared docs metadata no longer carries them.
export default function DocCategoryGeneratedIndexPageWrapper({ cardDescriptions, ...props }: Props): React.JSX.Element {
  return (
    <CardDescriptionsProvider value={cardDescriptions ?? null}>
      <DocCategoryGeneratedIndexPage {...props} />
    </CardDescriptionsProvider>
  );
}
