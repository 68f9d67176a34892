import clsx from 'clsx';
import Link from '@docusaurus/Link';
import { GROUPS, loginUrlFor, REQUEST_ACCESS } from '@portal/access';

import { useAuth } from '@site/src/auth/AuthProvider';
import { GROUP_CLASS_PREFIX } from '@site/src/auth/reader-classes';

import styles from './account.module.css';

const labelOf = (group: string): string => GROUPS.find((known) => known.name === group)?.label ?? group;

/**
 * Until the session answers, the facts' shape with nothing seen in it: an e-mail line and
 * one line per group the root's reader classes name (set from the hint cookie before the
 * first paint), so the card keeps its height when the answer fills it in.
 */
function Placeholder(): React.JSX.Element {
  const shown = GROUPS.map(
    ({ name }) => `html.${GROUP_CLASS_PREFIX}${name} [data-placeholder-group="${name}"]{display:list-item}`,
  ).join('');
  return (
    <>
      <p role="status" className="portal-visually-hidden">
        Loading your account…
      </p>
      {/* As markup, not a text child: the browser's text of a style element is not React's. */}
      <style dangerouslySetInnerHTML={{ __html: shown }} />
      <dl className={clsx(styles.facts, styles.placeholder)} aria-hidden="true">
        <dt>E-mail</dt>
        <dd className={styles.email}>&nbsp;</dd>
        <dt>Groups</dt>
        <dd>
          <ul className={styles.groups}>
            {GROUPS.map((group) => (
              <li key={group.name} data-placeholder-group={group.name}>
                <span className={styles.chip}>{group.name}</span> {labelOf(group.name)}
              </li>
            ))}
          </ul>
        </dd>
      </dl>
    </>
  );
}

/** Who is signed in and which groups they read with, as `GET /api/session` says now. */
export default function AccountSummary(): React.JSX.Element {
  const { state } = useAuth();
  return (
    <section className={styles.card} aria-labelledby="summary-heading">
      <h2 id="summary-heading">Signed in as</h2>
      {state.status === 'loading' && <Placeholder />}
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
