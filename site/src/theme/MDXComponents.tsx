import MDXComponents from '@theme-original/MDXComponents';

import ScrollableTable from '@site/src/components/ScrollableTable';

// (CUSTOM) Tables in docs and posts scroll in a frame of their own that shows when there is
// more to the right or left, and becomes a labelled, keyboard-scrollable region when it
// overflows. Infima scrolls the table element itself, with no sign that it scrolls: wide
// option tables (the dash.js adapter's) looked cut off at 1280 px.
export default {
  ...MDXComponents,
  table: ScrollableTable,
};
