import { useId, useState } from 'react';

import { messageOf } from '@site/src/api/json-api';
import { ColumnHeads } from '@site/src/components/DataTable';

import { accessApi, type ImportChange, type ImportReport } from './access-api';
import styles from './admin.module.css';

/** The rows of a preview shown one by one; the counts cover the whole file. */
const SHOWN_ROWS = 200;

const placeOf = (organisation: string | null): string => organisation ?? 'none (by e-mail domain)';

/** A row's change in words. */
export function describeChange(change: ImportChange): string {
  const groups = [
    change.groupsAdded.length > 0 ? `groups added: ${change.groupsAdded.join(', ')}` : '',
    change.groupsRemoved.length > 0 ? `groups removed: ${change.groupsRemoved.join(', ')}` : '',
  ].filter(Boolean);
  switch (change.change) {
    case 'new':
      return [`new membership in ${placeOf(change.organisation.after)}`, ...groups].join('; ');
    case 'moved':
      return [
        `moved from ${placeOf(change.organisation.before)} to ${placeOf(change.organisation.after)}`,
        ...groups,
      ].join('; ');
    case 'groups':
      return groups.join('; ');
    case 'removed':
      return `membership removed (was ${placeOf(change.organisation.before)}${change.groupsRemoved.length > 0 ? `, groups ${change.groupsRemoved.join(', ')}` : ''})`;
    default:
      return 'no change';
  }
}

/** The first SHOWN_ROWS rows of a list of the preview, by their line in the file; nothing for none. */
function RowsTable({
  caption,
  heading,
  rows,
}: {
  caption: string;
  heading: string;
  rows: { line: number; email: string | null; text: string }[];
}): React.JSX.Element | null {
  if (rows.length === 0) return null;
  return (
    <div className={styles.tableWrap}>
      <table className={styles.table}>
        <caption>{caption}</caption>
        <ColumnHeads columns={['Line', 'E-mail', heading]} />
        <tbody>
          {rows.slice(0, SHOWN_ROWS).map((row) => (
            <tr key={row.line}>
              <td>{row.line}</td>
              <td className={styles.email}>{row.email ?? '—'}</td>
              <td>{row.text}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Readers' memberships from a CSV file (`email,organisation,groups`): a preview row by row
 * of what would change and which rows are refused and why, then applying all of it or none;
 * and the export, in the same columns, to edit and import again.
 */
export default function ReadersCsvPanel({ onApplied }: { onApplied: () => Promise<void> }): React.JSX.Element {
  const [csv, setCsv] = useState<string | null>(null);
  const [fileName, setFileName] = useState('');
  const [report, setReport] = useState<ImportReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [working, setWorking] = useState(false);
  const fileId = useId();

  async function send(apply: boolean): Promise<void> {
    if (csv === null) return;
    setWorking(true);
    setError(null);
    setNotice(null);
    try {
      const answer = apply ? await accessApi.applyImport(csv) : await accessApi.previewImport(csv);
      setReport(answer);
      if (answer.applied) {
        const { counts } = answer;
        setNotice(
          `Imported ${fileName}: ${counts.new} new, ${counts.moved} moved, ${counts.groups} with other groups, ${counts.removed} removed, ${counts.unchanged} unchanged. Readers get it on their next request.`,
        );
        setCsv(null);
        await onApplied();
      } else if (apply)
        setError('Nothing was imported: the file has refused rows (below). Correct them and try again.');
    } catch (caught) {
      setReport(null);
      setError(messageOf(caught, 'The file could not be read; nothing was changed.'));
    } finally {
      setWorking(false);
    }
  }

  const changed = report?.changes ?? [];
  return (
    <section className={styles.card} aria-labelledby="readers-csv-heading">
      <h2 id="readers-csv-heading">Import and export readers</h2>
      <p>
        A CSV file with the header <code>email,organisation,groups</code>: one row per reader, the organisation&apos;s
        id (empty: the organisation of their e-mail&apos;s domain, if any) and access groups separated by spaces (empty:
        none). A row sets that reader&apos;s organisation and groups to exactly what it says; readers the file does not
        name keep theirs; a row with neither removes the reader&apos;s placement. At most 10,000 rows and 4 MiB.
      </p>
      <p>
        <a className="button button--secondary button--sm" href={accessApi.exportUrl} download>
          Export readers (CSV)
        </a>
      </p>
      <div className={styles.formRow}>
        <label className={styles.field} htmlFor={fileId}>
          CSV file to import
          <input
            id={fileId}
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              const file = event.target.files?.[0];
              setReport(null);
              setError(null);
              setNotice(null);
              if (!file) return setCsv(null);
              setFileName(file.name);
              void file.text().then(setCsv);
            }}
          />
        </label>
        <button
          type="button"
          className="button button--secondary button--sm"
          disabled={csv === null || working}
          onClick={() => void send(false)}
        >
          Preview
        </button>
        <button
          type="button"
          className="button button--primary button--sm"
          disabled={csv === null || working || report === null || report.applied || report.refused.length > 0}
          onClick={() => void send(true)}
        >
          Apply import
        </button>
      </div>
      <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
      <div role="status" className={styles.notice}>
        {notice}
      </div>
      {report && (
        <div aria-label="Import preview" role="region">
          <p>
            {report.applied ? 'Applied' : 'Preview (nothing changed yet)'}: {report.rows} row(s),{' '}
            <strong>{report.counts.new}</strong> new, <strong>{report.counts.moved}</strong> moved,{' '}
            <strong>{report.counts.groups}</strong> with other groups, <strong>{report.counts.removed}</strong> removed,{' '}
            <strong>{report.counts.unchanged}</strong> unchanged, <strong>{report.counts.refused}</strong> refused.
          </p>
          <RowsTable
            caption="Refused rows"
            heading="Why"
            rows={report.refused.map((row) => ({ line: row.line, email: row.email, text: row.reason }))}
          />
          <RowsTable
            caption="What each row does"
            heading="Change"
            rows={changed.map((row) => ({ line: row.line, email: row.email, text: describeChange(row) }))}
          />
          {Math.max(changed.length, report.refused.length) > SHOWN_ROWS && (
            <p className={styles.muted}>
              The first {SHOWN_ROWS} rows of each list are shown; the counts cover the file.
            </p>
          )}
        </div>
      )}
    </section>
  );
}
