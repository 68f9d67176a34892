import { translate } from '@docusaurus/Translate';
import { PageMetadata } from '@docusaurus/theme-common';

import NotFound from '@site/src/components/NotFound';

/**
 * (CUSTOM, replaces the original) The not-found content, for unknown paths anywhere (the
 * docs plugin renders it inside its own layout under /docs/*). The template's two
 * sentences offered no way on; the portal's page has search and the main sections
 * (src/components/NotFound), which no wrapper around the original could add in its place.
 * It also sets the spec's "Page Not Found | Site" title, which under /docs/* was lost, and
 * a description, which search engines and link previews show instead of the page's text.
 */
export default function NotFoundContent(): React.JSX.Element {
  return (
    <>
      <PageMetadata
        title={translate({ id: 'theme.NotFound.title', message: 'Page Not Found' })}
        description={translate({
          id: 'portal.NotFound.description',
          message: 'There is no page at this address. It may have moved: search the docs or start from a section.',
        })}
      />
      <NotFound />
    </>
  );
}
