import AdminLayout from '@site/src/components/admin/AdminLayout';
import RequestQueue from '@site/src/components/access-requests/RequestQueue';

/** `/admin/requests`: readers' requests for units they cannot read, and their answers. */
export default function AdminRequestsPage(): React.JSX.Element {
  return (
    <AdminLayout title="Access requests" current="requests">
      <RequestQueue />
    </AdminLayout>
  );
}
