import type { ComponentProps } from 'react';
import MDXA from '@theme-original/MDXComponents/A';
import { isOlderRelease } from '@portal/built-site';

/**
 * A link in a page's text. A link to an older release of a synced package leads to a page of
 * that release's archive (src/archives), which the app has no route for: Docusaurus's own
 * link check leaves it to the archives' merge, which checks every such link
 * (src/archives/merge.ts), and the route guard loads it in full.
 */
export default function ReleaseLink(props: ComponentProps<typeof MDXA>): React.JSX.Element {
  const href = props.href ?? '';
  return href.startsWith('/') && isOlderRelease(href.split(/[?#]/)[0] ?? '') ? (
    <MDXA {...props} data-noBrokenLinkCheck />
  ) : (
    <MDXA {...props} />
  );
}
