import { useEffect, useState } from 'react';
import Link from '@docusaurus/Link';

import { accessRequestApi, dayOf, requestState, type AccessRequestInfo } from './api';
import styles from './access-requests.module.css';

/**
 * The reader's requests for access on their account page, newest first, each with its
 * answer: waiting, approved (for them or their organisation, until when) or declined with
 * the administrator's reason. Nothing at all for a reader who never asked.
 */
export default function MyRequestsPanel(): React.JSX.Element | null {
  const [requests, setRequests] = useState<AccessRequestInfo[] | null>(null);
  useEffect(() => {
    // A reader who never asked sees no panel; a failure shows none either (the rest of the page stands).
    accessRequestApi.mine().then(
      (list) => setRequests(list.requests),
      () => setRequests([]),
    );
  }, []);
  if (requests === null || requests.length === 0) return null;
  return (
    <section className={styles.card} aria-labelledby="requests-heading">
      <h2 id="requests-heading">Your access requests</h2>
      <ul className={styles.list}>
        {requests.map((request) => (
          <li key={request.id}>
            <strong>{request.unitLabel}</strong>{' '}
            <span className={styles.status} data-status={request.status}>
              {requestState(request)}
            </span>
            {request.status === 'approved' && (
              <>
                {' '}
                <Link to={request.path}>Read it</Link>
              </>
            )}
            <div className={styles.meta}>
              Asked from {request.path} on {dayOf(request.createdAt)}
              {request.reason ? `: “${request.reason}”` : ''}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
