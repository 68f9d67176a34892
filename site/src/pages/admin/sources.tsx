import AdminLayout from '@site/src/components/admin/AdminLayout';
import SiteReleasesPanel from '@site/src/components/admin/SiteReleasesPanel';
import SourcesPanel from '@site/src/components/admin/SourcesPanel';

/** `/admin/sources`: what the content cache holds of each synced package, the build served, and the site releases. */
export default function AdminSourcesPage(): React.JSX.Element {
  return (
    <AdminLayout title="Package sources" current="sources">
      <SourcesPanel />
      <SiteReleasesPanel />
    </AdminLayout>
  );
}
