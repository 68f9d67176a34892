import { useCallback, useEffect, useState } from 'react';
import clsx from 'clsx';

import { messageOf } from '@site/src/api/json-api';
import { createLatest } from '@site/src/api/latest';
import { ColumnHeads } from '@site/src/components/DataTable';

import { adminApi, type AuditEvent } from './api';
import { actorOf, describeEvent, KIND_LABELS } from './audit-words';
import { formatTime } from './format';
import styles from './admin.module.css';

/** What an event did in words, then (muted) the actor's groups and address. */
function Details({ event }: { event: AuditEvent }): React.JSX.Element {
  const words = describeEvent(event);
  const context = [
    ...(event.groups.length > 0 && event.kind !== 'admin.groups' ? [event.groups.join(', ')] : []),
    ...(event.clientIp ? [event.clientIp] : []),
  ].join(' · ');
  return (
    <>
      {words}
      {context && (
        <span className={styles.muted}>
          {words ? ' · ' : ''}
          {context}
        </span>
      )}
    </>
  );
}

export interface AuditFilters {
  kind: string;
  reader: string;
  from: string;
  to: string;
}

/** A date field's value (`2026-11-22`) as the start of that day in UTC, or undefined. */
function dayStart(value: string, addDays = 0): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const date = new Date(`${value}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + addDays);
  return date.toISOString();
}

/**
 * The audit trail, newest first: who signed in, was refused or signed out, which private
 * pages they read, and every administrator's action with before and after. Filtered by
 * kind, reader and days; exported as CSV or JSON with the same filters.
 */
export default function AuditPanel({
  filters,
  onFilters,
}: {
  /** Null until the page knows them (a reader named in its address). */
  filters: AuditFilters | null;
  onFilters: (next: AuditFilters) => void;
}): React.JSX.Element {
  const known = filters ?? { kind: '', reader: '', from: '', to: '' };
  const [events, setEvents] = useState<AuditEvent[] | null>(null);
  const [kinds, setKinds] = useState<string[]>(Object.keys(KIND_LABELS));
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loadingMore, setLoadingMore] = useState(false);

  const { kind, reader, from, to } = known;
  const ready = filters !== null;
  const params = {
    kind: kind || undefined,
    reader: reader.trim() || undefined,
    from: dayStart(from),
    to: dayStart(to, 1),
  };

  const [latest] = useState(createLatest);
  const load = useCallback(
    async (before?: string) => {
      const isNewest = latest.begin();
      try {
        const page = await adminApi.audit({
          kind: kind || undefined,
          reader: reader.trim() || undefined,
          from: dayStart(from),
          to: dayStart(to, 1),
          before,
          limit: 100,
        });
        if (!isNewest()) return;
        setEvents((current) => (before && current ? [...current, ...page.events] : page.events));
        setNext(page.next);
        setKinds(page.kinds);
        setError(null);
      } catch (caught) {
        if (!isNewest()) return;
        setError(messageOf(caught, 'Could not load the audit trail.'));
      }
    },
    [kind, reader, from, to, latest],
  );

  useEffect(() => {
    if (!ready) return undefined;
    const timer = window.setTimeout(() => void load(), 250);
    return () => window.clearTimeout(timer);
  }, [load, ready]);

  const set = (change: Partial<AuditFilters>): void => onFilters({ ...known, ...change });

  return (
    <section className={styles.card} aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit trail</h2>
      <div className={styles.filters} role="search">
        <label className={styles.field}>
          Kind
          <select value={known.kind} onChange={(event) => set({ kind: event.target.value })}>
            <option value="">Every kind</option>
            {kinds.map((kind) => (
              <option key={kind} value={kind}>
                {KIND_LABELS[kind] ?? kind}
              </option>
            ))}
          </select>
        </label>
        <label className={styles.field}>
          Reader (e-mail or id)
          <input type="search" value={known.reader} onChange={(event) => set({ reader: event.target.value })} />
        </label>
        <label className={styles.field}>
          From
          <input type="date" value={known.from} onChange={(event) => set({ from: event.target.value })} />
        </label>
        <label className={styles.field}>
          To
          <input type="date" value={known.to} onChange={(event) => set({ to: event.target.value })} />
        </label>
      </div>
      <p className={styles.exports}>
        Export these events:{' '}
        <a href={adminApi.exportUrl('csv', params)} download>
          CSV
        </a>{' '}
        ·{' '}
        <a href={adminApi.exportUrl('json', params)} download>
          JSON
        </a>
      </p>
      <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
      {events === null ? (
        <p>Loading the trail…</p>
      ) : events.length === 0 ? (
        <p>No events match.</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={clsx(styles.table, styles.stacked)}>
            <ColumnHeads columns={['When', 'What', 'Who', 'On whom or what', 'Details']} />
            <tbody>
              {events.map((event) => (
                <tr key={event.id}>
                  <td data-label="When" className={styles.nowrap}>
                    {formatTime(event.at)}
                  </td>
                  <td data-label="What">
                    {KIND_LABELS[event.kind] ?? event.kind}
                    {event.demo && <span className={styles.badge}>demo</span>}
                  </td>
                  <td data-label="Who" className={styles.email}>
                    {actorOf(event)}
                  </td>
                  <td data-label="On whom or what" className={styles.email}>
                    {event.path ?? event.subjectEmail ?? event.subjectUid ?? ''}
                  </td>
                  <td data-label="Details">
                    <Details event={event} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {next && (
        <button
          type="button"
          className="button button--secondary button--sm"
          disabled={loadingMore}
          onClick={() => {
            setLoadingMore(true);
            void load(next).finally(() => setLoadingMore(false));
          }}
        >
          {loadingMore ? 'Loading…' : 'Older events'}
        </button>
      )}
    </section>
  );
}
