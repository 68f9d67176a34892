import AdminLayout from '@site/src/components/admin/AdminLayout';
import SourcesPanel from '@site/src/components/admin/SourcesPanel';

/** `/admin/sources`: what the content cache holds of each synced package, and the build served. */
export default function AdminSourcesPage(): React.JSX.Element {
  return (
    <AdminLayout title="Package sources" current="sources">
      <SourcesPanel />
    </AdminLayout>
  );
}
