import { useCallback, useEffect, useState } from 'react';

import { ApiError, messageOf } from '@site/src/api/json-api';
import { ColumnHeads } from '@site/src/components/DataTable';

import { adminApi, type SiteReleaseInfo, type SiteReleasesOverview } from './api';
import { formatTime } from './format';
import styles from './admin.module.css';

const when = (iso: string | null): string => formatTime(iso) ?? '—';

const megabytes = (bytes: number): string =>
  `${(bytes / 1_000_000).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;

const STATES: Record<SiteReleaseInfo['state'], string> = {
  live: 'served everywhere',
  kept: 'kept',
  collected: 'deleted from the store',
};

/**
 * The site releases: each build published as a bundle every replica serves, the live one
 * first in the administrator's eye, and a button to serve an earlier one again (a rollback,
 * audited). Shown only where site releases are on (SITE_RELEASES).
 */
export default function SiteReleasesPanel(): React.JSX.Element | null {
  const [overview, setOverview] = useState<SiteReleasesOverview | null>(null);
  const [off, setOff] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [working, setWorking] = useState<number | null>(null);

  const load = useCallback(async () => {
    try {
      setOverview(await adminApi.siteReleases());
      setError(null);
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 404) setOff(true);
      else setError(messageOf(failure, 'Could not load the site releases.'));
    }
  }, []);
  useEffect(() => {
    // The first answer once the page has painted.
    const timer = window.setTimeout(() => void load(), 0);
    return () => window.clearTimeout(timer);
  }, [load]);

  const serve = async (release: SiteReleaseInfo) => {
    if (
      !window.confirm(
        `Serve release ${release.id} (built ${when(release.builtAt)}) on every replica in place of the live one?`,
      )
    )
      return;
    setWorking(release.id);
    setDone(null);
    try {
      await adminApi.serveSiteRelease(release.id);
      setDone(`Release ${release.id} is live: every replica serves it within seconds.`);
      await load();
    } catch (failure) {
      setError(messageOf(failure, 'Could not serve that release.'));
    } finally {
      setWorking(null);
    }
  };

  if (off) return null;
  return (
    <section className={styles.card} aria-labelledby="releases-heading">
      <h2 id="releases-heading">Site releases</h2>
      <p className={styles.muted}>
        Each build is published as a release that every replica fetches, checks file by file and serves; a replica
        started later starts with the live one.
      </p>
      <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
      <div role="status">{done && <p>{done}</p>}</div>
      {overview === null ? (
        !error && <p>Loading the site releases…</p>
      ) : (
        <>
          <p>
            Kept in <code>{overview.store}</code>. This replica serves{' '}
            {overview.serving ? (
              <>
                release <code>{overview.serving.slice(0, 12)}</code>
              </>
            ) : (
              'the build it started with'
            )}
            .
          </p>
          {overview.refused && (
            <p className={styles.error}>
              This replica could not serve release <code>{overview.refused.bundle.slice(0, 12)}</code> (
              {when(overview.refused.at)}) and serves the one before it: {overview.refused.error}
            </p>
          )}
          <div className={styles.tableWrap}>
            <table className={`${styles.table} ${styles.stacked}`}>
              <caption>Releases, newest first</caption>
              <ColumnHeads columns={['Release', 'Built', 'Made by', 'Size', 'State', 'Serve']} />
              <tbody>
                {overview.releases.map((release) => (
                  <tr key={release.id}>
                    <td data-label="Release">
                      {release.id} <code>{release.bundle.slice(0, 12)}</code>
                    </td>
                    <td data-label="Built" className={styles.nowrap}>
                      {when(release.builtAt)}
                    </td>
                    <td data-label="Made by">
                      {release.job}
                      {release.madeLiveBy && ` (served again by ${release.madeLiveBy})`}
                    </td>
                    <td data-label="Size" className={styles.nowrap}>
                      {release.files.toLocaleString('en')} files, {megabytes(release.bytes)}
                    </td>
                    <td data-label="State">
                      {STATES[release.state]}
                      {release.state === 'live' && release.liveSince && ` since ${when(release.liveSince)}`}
                    </td>
                    <td data-label="Serve">
                      {release.state === 'kept' && (
                        <button
                          type="button"
                          className="button button--secondary button--sm"
                          disabled={working !== null}
                          onClick={() => void serve(release)}
                        >
                          {working === release.id ? 'Serving…' : 'Serve this release'}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {overview.releases.length === 0 && <p>No release has been published yet.</p>}
        </>
      )}
    </section>
  );
}
