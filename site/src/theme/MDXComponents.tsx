import MDXComponents from '@theme-original/MDXComponents';

import ReleaseLink from '@site/src/components/ReleaseLink';
import ScrollableTable from '@site/src/components/ScrollableTable';

// (CUSTOM) Tables in docs and posts scroll in a frame of their own that shows when there is
// more to the right or left, and becomes a labelled, keyboard-scrollable region when it
// overflows. Infima scrolls the table element itself, with no sign that it scrolls: wide
// option tables (the dash.js adapter's) looked cut off at 1280 px.
// Links to an older release of a synced package lead to its archive, checked apart: ReleaseLink.
export default {
  ...MDXComponents,
  a: ReleaseLink,
  table: ScrollableTable,
};
