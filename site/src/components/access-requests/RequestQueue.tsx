import { possessive } from '@portal/contract/names';
import { useCallback, useEffect, useState } from 'react';

import { messageOf } from '@site/src/api/json-api';
import ConfirmDialog from '@site/src/components/ConfirmDialog';

import { accessRequestApi, approvalChange, dayInWords, dayOf, type QueuedAccessRequest } from './api';
import styles from './access-requests.module.css';

type Scope = '' | 'reader' | 'organisation';

/** One open request and its two answers: approve (for whom, until when, confirmed) or decline (why). */
function OpenRequest({
  request,
  onAnswered,
}: {
  request: QueuedAccessRequest;
  onAnswered: (message: string) => Promise<void>;
}): React.JSX.Element {
  // No default: approving for the whole organisation widens a commercial licence, so it is chosen.
  const [scope, setScope] = useState<Scope>(request.organisation ? '' : 'reader');
  const [endsOn, setEndsOn] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [declineReason, setDeclineReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const id = `request-${request.id}`;

  async function run(work: () => Promise<unknown>, done: string): Promise<void> {
    setBusy(true);
    setError('');
    try {
      await work();
      await onAnswered(done);
    } catch (caught) {
      setError(messageOf(caught, 'The answer was not saved; try again.'));
    } finally {
      setBusy(false);
    }
  }

  const whom = scope === 'organisation' && request.organisation ? request.organisation.name : request.email;
  const until = dayInWords(endsOn);
  const licensed = request.organisation?.licensed ?? [];
  return (
    <li aria-labelledby={`${id}-title`}>
      <div id={`${id}-title`}>
        <strong>{request.email}</strong> asks for <strong>{request.unitLabel}</strong>
      </div>
      <div className={styles.meta}>
        {request.organisation ? `${request.organisation.name} · ` : 'No organisation · '}
        asked {dayOf(request.createdAt)} from {request.path}
      </div>
      {request.reason && <p className={styles.meta}>“{request.reason}”</p>}
      {request.organisation && (
        <p className={styles.meta}>
          {possessive(request.organisation.name)} licence now:{' '}
          {licensed.length === 0
            ? 'nothing'
            : licensed
                .map((unit) => `${unit.unitLabel} (${unit.endsAt ? `until ${dayOf(unit.endsAt)}` : 'no end'})`)
                .join(', ')}
          .
        </p>
      )}
      <div className={styles.answer}>
        <label className={styles.field}>
          Approve for
          <select value={scope} onChange={(event) => setScope(event.target.value as Scope)}>
            {request.organisation && (
              <option value="" disabled>
                Choose whom…
              </option>
            )}
            <option value="reader">{request.email} alone</option>
            {request.organisation && <option value="organisation">everyone at {request.organisation.name}</option>}
          </select>
        </label>
        <label className={styles.field}>
          Last day (optional, YYYY-MM-DD)
          <input type="date" value={endsOn} onChange={(event) => setEndsOn(event.target.value)} />
          <span className={styles.meta}>{endsOn === '' ? 'No end date' : (until ?? 'Not a day')}</span>
        </label>
        <button
          type="button"
          className="button button--primary"
          disabled={busy || scope === '' || (endsOn !== '' && until === null)}
          onClick={() => setConfirming(true)}
        >
          Approve…
        </button>
      </div>
      {confirming && scope !== '' && (
        <ConfirmDialog
          title={`Approve ${request.unitLabel} for ${whom}?`}
          confirm="Approve"
          onCancel={() => setConfirming(false)}
          onConfirm={() => {
            setConfirming(false);
            void run(
              () => accessRequestApi.approve(request.id, { for: scope, endsOn: endsOn || null }),
              `${request.unitLabel} approved for ${whom}.`,
            );
          }}
        >
          <p>{approvalChange(request, scope, endsOn)}</p>
        </ConfirmDialog>
      )}
      <div className={styles.answer}>
        <label className={styles.field}>
          Reason to decline
          <input
            type="text"
            maxLength={500}
            value={declineReason}
            onChange={(event) => setDeclineReason(event.target.value)}
          />
        </label>
        <button
          type="button"
          className="button button--secondary"
          disabled={busy || declineReason.trim() === ''}
          onClick={() =>
            void run(
              () => accessRequestApi.decline(request.id, declineReason),
              `${possessive(request.email)} request for ${request.unitLabel} declined.`,
            )
          }
        >
          Decline
        </button>
      </div>
      <p role="alert" className={styles.error}>
        {error}
      </p>
    </li>
  );
}

/**
 * The administrators' queue of access requests: open ones oldest first, each answered here,
 * then the latest answers. An approval takes effect for the reader (or their whole
 * organisation) on their next request, without a new sign-in.
 */
export default function RequestQueue(): React.JSX.Element {
  const [requests, setRequests] = useState<QueuedAccessRequest[] | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');

  const load = useCallback(
    (): Promise<void> =>
      accessRequestApi.queue().then(
        (queue) => {
          setRequests(queue.requests);
          setError('');
        },
        (caught: unknown) => setError(messageOf(caught, 'Could not load the access requests.')),
      ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const open = requests?.filter((request) => request.status === 'pending') ?? [];
  const answered = requests?.filter((request) => request.status !== 'pending') ?? [];
  return (
    <>
      <div role="status" className={styles.status}>
        {notice}
      </div>
      <p role="alert" className={styles.error}>
        {error}
      </p>
      <section className={styles.card} aria-labelledby="open-requests">
        <h2 id="open-requests">Waiting for an answer{requests ? ` (${open.length})` : ''}</h2>
        {requests === null ? (
          error === '' && <p className={styles.loading}>Loading the requests…</p>
        ) : open.length === 0 ? (
          <p>No request is waiting. Readers ask from the page they cannot read.</p>
        ) : (
          <ul className={styles.list}>
            {open.map((request) => (
              <OpenRequest
                key={request.id}
                request={request}
                onAnswered={async (message) => {
                  setNotice(message);
                  await load();
                }}
              />
            ))}
          </ul>
        )}
      </section>
      {answered.length > 0 && (
        <section className={styles.card} aria-labelledby="answered-requests">
          <h2 id="answered-requests">Answered</h2>
          <ul className={styles.list}>
            {answered.map((request) => (
              <li key={request.id}>
                <strong>{request.email}</strong>: {request.unitLabel} —{' '}
                {request.status === 'approved'
                  ? `approved for ${request.grantedTo === 'organisation' ? (request.organisation?.name ?? 'the organisation') : 'the reader'}${request.endsAt ? ` until ${dayOf(request.endsAt)}` : ''}`
                  : `declined: ${request.answer ?? ''}`}
                <div className={styles.meta}>
                  by {request.answeredBy ?? 'an administrator'} on {request.answeredAt ? dayOf(request.answeredAt) : ''}
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
