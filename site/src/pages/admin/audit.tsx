import { useState } from 'react';
import { useLocation } from '@docusaurus/router';
import useIsBrowser from '@docusaurus/useIsBrowser';

import AdminLayout from '@site/src/components/admin/AdminLayout';
import AuditPanel, { type AuditFilters } from '@site/src/components/admin/AuditPanel';

/** `/admin/audit`: the audit trail, filtered by kind, reader (`?reader=` from a reader's menu) and days. */
export default function AdminAuditPage(): React.JSX.Element {
  const { search } = useLocation();
  // The built page has no address of its own: the reader it names is known once the page runs.
  const isBrowser = useIsBrowser();
  const [edited, setEdited] = useState<AuditFilters | null>(null);
  const filters =
    edited ??
    (isBrowser ? { kind: '', reader: new URLSearchParams(search).get('reader') ?? '', from: '', to: '' } : null);
  return (
    <AdminLayout title="Audit trail" current="audit">
      <AuditPanel filters={filters} onFilters={setEdited} />
    </AdminLayout>
  );
}
