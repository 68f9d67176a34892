import Link from '@docusaurus/Link';

import { useAuth } from '@site/src/auth/AuthProvider';

import styles from './styles.module.css';
import { licenceEndingText } from './text';

/**
 * A signed-in partner's notice that their organisation's licence ends soon (within the
 * portal's LICENCE_NOTICE_DAYS), above every page's navbar; nothing for anyone else.
 */
export default function LicenceBanner(): React.JSX.Element | null {
  const { state } = useAuth();
  if (state.status !== 'signedIn' || !state.licenceEnding) return null;
  return (
    <section className={styles.banner} aria-label="Your licence" data-licence-banner>
      <p>
        {licenceEndingText(state.licenceEnding)} <Link to="/account">See what you read and ask to renew</Link>
      </p>
    </section>
  );
}
