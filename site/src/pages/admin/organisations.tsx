import { useCallback, useEffect, useState } from 'react';
import TabItem from '@theme/TabItem';
import Tabs from '@theme/Tabs';

import { messageOf } from '@site/src/api/json-api';
import AccessGroupsPanel from '@site/src/components/admin/AccessGroupsPanel';
import AdminLayout from '@site/src/components/admin/AdminLayout';
import OrganisationsPanel from '@site/src/components/admin/OrganisationsPanel';
import PackageReadersPanel from '@site/src/components/admin/PackageReadersPanel';
import ReadersCsvPanel from '@site/src/components/admin/ReadersCsvPanel';
import { accessApi, type AccessOverview } from '@site/src/components/admin/access-api';
import styles from '@site/src/components/admin/admin.module.css';

/**
 * `/admin/organisations`, in tabs: partner organisations with their licences and members, who
 * reads a package, the reader groups administrators make, and readers' memberships as CSV.
 */
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

  const loaded = (panel: (overview: AccessOverview) => React.JSX.Element) =>
    overview === null ? !error && <p role="status">Loading the organisations…</p> : panel(overview);

  return (
    <AdminLayout title="Organisations" current="organisations">
      <div className={styles.loadingArea}>
        <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
        <Tabs queryString="tab" defaultValue="organisations">
          <TabItem value="organisations" label="Organisations and licences">
            {loaded((data) => (
              <OrganisationsPanel overview={data} reload={load} />
            ))}
          </TabItem>
          <TabItem value="packages" label="Who reads a package">
            {loaded((data) => (
              <PackageReadersPanel overview={data} />
            ))}
          </TabItem>
          <TabItem value="groups" label="Reader groups">
            {loaded((data) => (
              <AccessGroupsPanel overview={data} reload={load} />
            ))}
          </TabItem>
          <TabItem value="import" label="Import and export">
            <ReadersCsvPanel onApplied={load} />
          </TabItem>
        </Tabs>
      </div>
    </AdminLayout>
  );
}
