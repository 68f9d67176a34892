import { useState } from 'react';
import Link from '@docusaurus/Link';

import { useAuth } from '@site/src/auth/AuthProvider';

import styles from './styles.module.css';
import { licenceEndingText } from './text';

/** Where a hidden banner is remembered for the tab's session, with the end it announced. */
const HIDDEN_KEY = 'portal.licence-banner.hidden';

const hiddenEnd = (): string | null => {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage.getItem(HIDDEN_KEY);
  } catch {
    return null;
  }
};

/**
 * A signed-in partner's notice that their organisation's licence ends soon (within the
 * portal's LICENCE_NOTICE_DAYS), on every page; nothing for anyone else. It sits at the foot
 * of the window, over the page, so that its arrival with the session moves nothing on the
 * page, and it can be hidden until the tab is closed.
 */
export default function LicenceBanner(): React.JSX.Element | null {
  const { state } = useAuth();
  const [hidden, setHidden] = useState(hiddenEnd);
  if (state.status !== 'signedIn' || !state.licenceEnding) return null;
  const ending = state.licenceEnding;
  const first = ending.units.map((unit) => unit.endsAt).sort()[0] ?? '';
  if (hidden === first) return null;
  return (
    <section className={styles.banner} aria-label="Your licence" data-licence-banner>
      <p>
        {licenceEndingText(ending)} <Link to="/account">See what you read and ask to renew</Link>
      </p>
      <button
        type="button"
        className={styles.hide}
        onClick={() => {
          try {
            window.sessionStorage.setItem(HIDDEN_KEY, first);
          } catch {
            // Storage refused (a private window's quota): hidden for this page only.
          }
          setHidden(first);
        }}
      >
        Hide
      </button>
    </section>
  );
}
