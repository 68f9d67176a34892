import type { ReactNode } from 'react';
import Content from '@theme-original/DocItem/Content';
import type ContentType from '@theme/DocItem/Content';
import type { WrapperProps } from '@docusaurus/types';
import { useDoc } from '@docusaurus/plugin-content-docs/client';

import CopyPageMarkdown from '@site/src/components/CopyPageMarkdown';

type Props = WrapperProps<typeof ContentType>;

// (CUSTOM) "Copy page as Markdown" above every doc page's title, so a reader can hand the
// page to a coding assistant as the gate's clean `.md` twin rather than as copied HTML.
export default function ContentWrapper(props: Props): ReactNode {
  const { metadata } = useDoc();
  return (
    <>
      <CopyPageMarkdown permalink={metadata.permalink} />
      <Content {...props} />
    </>
  );
}
