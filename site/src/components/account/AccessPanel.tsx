import { possessive } from '@portal/contract/names';
import { useEffect, useState } from 'react';
import { REQUEST_ACCESS } from '@portal/access';

import type { MyAccessAnswer } from '@portal/contract';
import { accessBySource } from '@site/src/access/sources';
import { jsonRequest, messageOf, serverReason } from '@site/src/api/json-api';
import { dayOf } from '@site/src/components/access-requests/api';

import styles from './account.module.css';

/** The reader's access as one list per source, titled in their words. */
export function accessSections(access: MyAccessAnswer): { title: string; labels: string[] }[] {
  const until = (endsAt: string | null) => (endsAt === null ? 'with no end date' : `until ${dayOf(endsAt)}`);
  return accessBySource(access).map(({ source, labels, everything }) => ({
    title:
      source.kind === 'group'
        ? `Through your group ${source.group}`
        : source.kind === 'licence'
          ? `From ${possessive(source.organisation)} licence, ${until(source.endsAt)}`
          : `Granted to you, ${until(source.endsAt)}`,
    labels: everything ? ['Every page of the portal'] : labels,
  }));
}

const LOAD_FAILED = 'What you can read could not be loaded right now. Reload the page to try again.';

const failure = (status: number, body: unknown): string =>
  status === 401
    ? 'Your session has ended. Sign in again to see what you can read.'
    : (serverReason(body) ?? LOAD_FAILED);

/**
 * "What you can read" on `/account` (`GET /api/access`): the reader's organisation, and each
 * package or section they read with where it comes from and until when.
 */
export default function AccessPanel(): React.JSX.Element {
  const [state, setState] = useState<{ access: MyAccessAnswer } | { error: string } | null>(null);
  useEffect(() => {
    jsonRequest<MyAccessAnswer>('GET', '/api/access', undefined, failure).then(
      (access) => setState({ access }),
      (caught: unknown) => setState({ error: messageOf(caught, LOAD_FAILED) }),
    );
  }, []);

  return (
    <section className={styles.card} aria-labelledby="access-heading">
      <h2 id="access-heading">What you can read</h2>
      {state === null && <p role="status">Loading what you can read…</p>}
      {state !== null && 'error' in state && (
        <p role="alert" className={styles.error}>
          {state.error}
        </p>
      )}
      {state !== null && 'access' in state && (
        <>
          {state.access.organisation && (
            <p>
              You read as a member of <strong>{state.access.organisation.name}</strong>.
            </p>
          )}
          {accessSections(state.access).map((section) => (
            <div key={section.title}>
              <h3 className={styles.subheading}>{section.title}</h3>
              <ul className={styles.accessList}>
                {section.labels.map((label) => (
                  <li key={label}>{label}</li>
                ))}
              </ul>
            </div>
          ))}
          {state.access.units.length === 0 && <p>Nothing yet.</p>}
          <p className={styles.muted}>
            For a package you cannot read yet, open one of its pages and ask for access there, or write to{' '}
            <a href={`mailto:${REQUEST_ACCESS.email}`}>{REQUEST_ACCESS.label}</a>.
          </p>
        </>
      )}
    </section>
  );
}
