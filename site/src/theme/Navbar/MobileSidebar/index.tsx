import { startTransition, useEffect, useState, type ReactNode } from 'react';
import MobileSidebar from '@theme-original/Navbar/MobileSidebar';
import type MobileSidebarType from '@theme/Navbar/MobileSidebar';
import type { WrapperProps } from '@docusaurus/types';

type Props = WrapperProps<typeof MobileSidebarType>;

// (CUSTOM) The mobile menu (navbar links and, on doc pages, the whole doc sidebar) is not
// in the server's HTML: the original renders it, hidden, as soon as hydration tells it the
// screen is narrow, in the same blocking render that swaps the desktop sidebar and table of
// contents for their mobile forms: after the main bundle's start-up, the longest main-thread
// task of a doc page on a phone.
// Here it is rendered in a transition right after hydration instead, which React splits
// into short tasks; the menu is ready long before a reader can open it, and it opens and
// looks as before.
export default function MobileSidebarWrapper(props: Props): ReactNode {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    startTransition(() => setReady(true));
  }, []);
  return ready ? <MobileSidebar {...props} /> : null;
}
