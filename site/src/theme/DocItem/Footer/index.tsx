import type { ReactNode } from 'react';
import Footer from '@theme-original/DocItem/Footer';
import type FooterType from '@theme/DocItem/Footer';
import type { WrapperProps } from '@docusaurus/types';

import PageFeedback from '@site/src/components/feedback/PageFeedback';

type Props = WrapperProps<typeof FooterType>;

// (CUSTOM) "Was this page helpful?" at the end of every doc page, after the original footer.
export default function FooterWrapper(props: Props): ReactNode {
  return (
    <>
      <Footer {...props} />
      <PageFeedback />
    </>
  );
}
