import { useCallback, useEffect, useState } from 'react';

import { messageOf } from '@site/src/api/json-api';
import AccessGroupsPanel from '@site/src/components/admin/AccessGroupsPanel';
import AdminLayout from '@site/src/components/admin/AdminLayout';
import OrganisationsPanel from '@site/src/components/admin/OrganisationsPanel';
import ReadersCsvPanel from '@site/src/components/admin/ReadersCsvPanel';
import { accessApi, type AccessOverview } from '@site/src/components/admin/access-api';
import styles from '@site/src/components/admin/admin.module.css';

/** `/admin/organisations`: partner organisations with their licences and members, access groups, readers as CSV. */
export default function AdminOrganisationsPage(): React.JSX.Element {
  const [overview, setOverview] = useState<AccessOverview | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setOverview(await accessApi.overview());
      setError(null);
    } catch (failure) {
      setError(messageOf(failure, 'Could not load the organisations.'));
    }
  }, []);
  useEffect(() => {
    // The first answer at once, after the first paint (as the sources panel does).
    const timer = window.setTimeout(() => void load(), 0);
    return () => window.clearTimeout(timer);
  }, [load]);

  return (
    <AdminLayout title="Organisations" current="organisations">
      <div className={styles.loadingArea}>
        <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
        {overview === null ? (
          !error && <p role="status">Loading the organisations…</p>
        ) : (
          <>
            <OrganisationsPanel overview={overview} reload={load} />
            <AccessGroupsPanel overview={overview} reload={load} />
            <ReadersCsvPanel onApplied={load} />
          </>
        )}
      </div>
    </AdminLayout>
  );
}
