import type { ComponentProps } from 'react';
import MDXA from '@theme-original/MDXComponents/A';
import { isOlderRelease } from '@portal/built-site';

import { lockedLinkData } from '@site/src/access/link-locks';

/**
 * A link in a page's text. A link to an older release of a synced package leads to a page of
 * that release's archive (src/archives), which the app has no route for: Docusaurus's own
 * link check leaves it to the archives' merge, which checks every such link
 * (src/archives/merge.ts), and the route guard loads it in full. A link to a page that not
 * everyone may read names the units it needs (`data-units`), so that a reader who holds none
 * sees it locked, as the sidebar locks it (src/plugins/access-marks.ts).
 */
export default function ReleaseLink(props: ComponentProps<typeof MDXA>): React.JSX.Element {
  const href = props.href ?? '';
  const marks = lockedLinkData(href);
  return href.startsWith('/') && isOlderRelease(href.split(/[?#]/)[0] ?? '') ? (
    <MDXA {...props} {...marks} data-noBrokenLinkCheck />
  ) : (
    <MDXA {...props} {...marks} />
  );
}
