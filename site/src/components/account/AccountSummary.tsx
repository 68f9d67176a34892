import Link from '@docusaurus/Link';
import { GROUPS, loginUrlFor, REQUEST_ACCESS } from '@portal/access';

import { useAuth } from '@site/src/auth/AuthProvider';

import styles from './account.module.css';

const labelOf = (group: string): string => GROUPS.find((known) => known.name === group)?.label ?? group;

/** Who is signed in and which groups they read with, as `GET /api/session` says now. */
export default function AccountSummary(): React.JSX.Element {
  const { state } = useAuth();
  return (
    <section className={styles.card} aria-labelledby="summary-heading">
      <h2 id="summary-heading">Signed in as</h2>
      {state.status === 'loading' && <p role="status">Loading your account…</p>}
      {state.status === 'signedOut' && (
        <p role="alert" className={styles.error}>
          You are not signed in any more. <Link to={loginUrlFor('/account')}>Sign in again</Link> to see your account.
        </p>
      )}
      {state.status === 'signedIn' && (
        <dl className={styles.facts}>
          <dt>E-mail</dt>
          <dd className={styles.email}>{state.email}</dd>
          <dt>Groups</dt>
          <dd>
            {state.groups.length === 0 ? (
              'none'
            ) : (
              <ul className={styles.groups}>
                {state.groups.map((group) => (
                  <li key={group}>
                    <span className={styles.chip}>{group}</span> {labelOf(group)}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
      )}
      <p className={styles.muted}>
        Your groups decide which pages you and your tokens may read. To read more, write to{' '}
        <a href={`mailto:${REQUEST_ACCESS.email}`}>{REQUEST_ACCESS.label}</a>.
      </p>
    </section>
  );
}
