import { PUBLIC, readersOf } from '@portal/access';

import { internalPath } from '@site/src/access/item-marks';

/**
 * The lock a signed-out visitor sees beside a link to a private page, for the portal's own
 * components (the sidebar, cards and pager get theirs from the access styles). Nothing for
 * a public or external target; hidden unless the root says the reader is signed out, which
 * the head script knows before the first paint (src/plugins/access-marks.ts).
 */
export default function AccessLock({ to }: { to: string }): React.JSX.Element | null {
  const path = internalPath(to);
  if (path === null || readersOf(path) === PUBLIC) return null;
  return <span className="portal-lock" role="img" aria-label="(sign in to read)" />;
}
