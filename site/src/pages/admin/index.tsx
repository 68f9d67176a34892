import { useHistory } from '@docusaurus/router';

import AdminLayout, { adminPath } from '@site/src/components/admin/AdminLayout';
import ReadersPanel from '@site/src/components/admin/ReadersPanel';

/** `/admin`: readers, their groups and organisation, and invitations. */
export default function AdminPage(): React.JSX.Element {
  const history = useHistory();
  return (
    <AdminLayout title="Readers" current="readers">
      <ReadersPanel
        onShowTrail={(reader) => history.push(`${adminPath('audit')}?reader=${encodeURIComponent(reader)}`)}
      />
    </AdminLayout>
  );
}
