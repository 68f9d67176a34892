import { useCallback, useEffect, useState } from 'react';

import { messageOf } from '@site/src/api/json-api';
import { formatDay } from '@site/src/components/account/format';
import { ColumnHeads } from '@site/src/components/DataTable';

import { adminApi, type RebuildJob, type SourcesOverview } from './api';
import styles from './admin.module.css';

/** While a rebuild waits or runs, the view asks again this often. */
const BUSY_REFRESH_MS = 3000;

const when = (iso: string | null): string =>
  iso === null ? '—' : `${formatDay(iso) ?? ''} ${new Date(iso).toLocaleTimeString(undefined, { timeStyle: 'short' })}`;

const JOB_STATES: Record<RebuildJob['state'], string> = {
  queued: 'waiting',
  running: 'building',
  served: 'served',
  unchanged: 'no change',
  failed: 'failed',
};

/**
 * What the sync could not publish, per source: releases refused whole (the release before
 * each stays published), a failed sync (the cache's copy is served), and what was left out of
 * a published release. Package text is shown as text only.
 */
function SourceProblems({ sources }: { sources: SourcesOverview['sources'] }): React.JSX.Element | null {
  const troubled = sources.filter((source) => source.refused.length || source.notes.length || source.error);
  if (troubled.length === 0) return null;
  return (
    <>
      <h3>Releases that could not be published</h3>
      {troubled.map((source) => (
        <div key={source.id}>
          <h4>{source.id}</h4>
          {source.error && (
            <p className={styles.error}>
              The last sync failed; the portal serves what it synced before. <span>{source.error}</span>
            </p>
          )}
          {source.refused.length > 0 && (
            <ul>
              {source.refused.map((release) => (
                <li key={release.version}>
                  <strong>{release.version}</strong>: this release could not be published: {release.reason}.
                  {release.at && ` (${when(release.at)})`}
                </li>
              ))}
            </ul>
          )}
          {source.notes.length > 0 && (
            <details>
              <summary>Left out of published releases ({source.notes.length.toLocaleString('en')})</summary>
              <ul>
                {source.notes.map((entry, index) => (
                  <li key={index}>
                    {entry.version}: {entry.note}
                  </li>
                ))}
              </ul>
            </details>
          )}
        </div>
      ))}
    </>
  );
}

/**
 * The package sections synced from their registries and repositories (site/sources.yaml):
 * what the content cache holds of each, the build this replica serves, and the rebuilds
 * that release hooks asked for, with the end of a failed one's output.
 */
export default function SourcesPanel(): React.JSX.Element {
  const [overview, setOverview] = useState<SourcesOverview | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setOverview(await adminApi.sources());
      setError(null);
    } catch (failure) {
      setError(messageOf(failure, 'Could not load the package sources.'));
    }
  }, []);

  const busy = overview?.jobs.some((job) => job.state === 'queued' || job.state === 'running') ?? false;
  useEffect(() => {
    // The first answer at once; then, while a rebuild waits or runs, again every few seconds.
    const first = overview === null && error === null;
    if (!first && !busy) return undefined;
    const timer = window.setTimeout(() => void load(), first ? 0 : BUSY_REFRESH_MS);
    return () => window.clearTimeout(timer);
  }, [overview, error, busy, load]);

  return (
    <section className={styles.card} aria-labelledby="sources-heading">
      <h2 id="sources-heading">Package sources</h2>
      <p className={styles.muted}>
        Package sections made from their registries and repositories, as <code>site/sources.yaml</code> lists them.{' '}
        <code>npm run sync</code> fetches them; a signed release hook (<code>POST /api/hooks/sync</code>) syncs one and
        serves the new build on every replica.
      </p>
      <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
      {overview === null ? (
        !error && <p>Loading the package sources…</p>
      ) : (
        <>
          <p>
            Serving build <code>{overview.build.id}</code> ({overview.build.files.toLocaleString('en')} files) since{' '}
            {when(overview.build.servedSince)}. Last sync: {when(overview.syncedAt)}. Release hooks are{' '}
            {overview.hooks ? 'on' : 'off (set SOURCES_HOOK_SECRET to turn them on)'}.
          </p>
          <div className={styles.tableWrap}>
            <table className={`${styles.table} ${styles.stacked}`}>
              <caption>Sources</caption>
              <ColumnHeads columns={['Source', 'From', 'Versions published', 'Releases', 'Fetched']} />
              <tbody>
                {overview.sources.map((source) => (
                  <tr key={source.id}>
                    <td data-label="Source">{source.id}</td>
                    <td data-label="From" className={styles.email}>
                      {source.kind} <code>{source.origin}</code>
                    </td>
                    <td data-label="Versions published">{source.versions.join(', ') || 'none'}</td>
                    <td data-label="Releases">{source.releases}</td>
                    <td data-label="Fetched" className={styles.nowrap}>
                      {when(source.fetchedAt)}
                      {source.offline && ' (origin unreachable: from the cache)'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {overview.sources.length === 0 && <p>Nothing has been synced yet: run npm run sync.</p>}
          <SourceProblems sources={overview.sources} />
          <h3>Rebuilds on this replica</h3>
          {overview.jobs.length === 0 ? (
            <p>No release hook has asked for a rebuild since this replica started.</p>
          ) : (
            <div className={styles.tableWrap}>
              <table className={`${styles.table} ${styles.stacked}`}>
                <caption>Rebuilds, newest first</caption>
                <ColumnHeads columns={['Source', 'Asked by', 'Asked', 'Finished', 'Outcome']} />
                <tbody>
                  {overview.jobs.map((job) => (
                    <tr key={job.id}>
                      <td data-label="Source">{job.source}</td>
                      <td data-label="Asked by">{job.reason}</td>
                      <td data-label="Asked" className={styles.nowrap}>
                        {when(job.queuedAt)}
                      </td>
                      <td data-label="Finished" className={styles.nowrap}>
                        {when(job.finishedAt)}
                      </td>
                      <td data-label="Outcome">
                        {JOB_STATES[job.state]}
                        {job.error && (
                          <details>
                            <summary>Why</summary>
                            <pre>{job.error}</pre>
                          </details>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
