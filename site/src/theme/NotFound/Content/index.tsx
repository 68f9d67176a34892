import { translate } from '@docusaurus/Translate';
import { PageMetadata } from '@docusaurus/theme-common';
import Content from '@theme-original/NotFound/Content';
import type ContentType from '@theme/NotFound/Content';
import type { WrapperProps } from '@docusaurus/types';

type Props = WrapperProps<typeof ContentType>;

// (CUSTOM) Under /docs/* the docs plugin renders only this content inside its own layout,
// so the tab kept the bare site title after hydration. Setting the title here gives every
// not-found page the spec's "Page Not Found | Site" title.
export default function ContentWrapper(props: Props): React.JSX.Element {
  return (
    <>
      <PageMetadata title={translate({ id: 'theme.NotFound.title', message: 'Page Not Found' })} />
      <Content {...props} />
    </>
  );
}
