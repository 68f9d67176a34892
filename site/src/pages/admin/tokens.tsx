import AdminLayout from '@site/src/components/admin/AdminLayout';
import ConnectedAppsPanel from '@site/src/components/admin/ConnectedAppsPanel';
import TokensPanel from '@site/src/components/admin/TokensPanel';

/** `/admin/tokens`: every reader's personal access tokens and connected apps. */
export default function AdminTokensPage(): React.JSX.Element {
  return (
    <AdminLayout title="Tokens and apps" current="tokens">
      <TokensPanel />
      <ConnectedAppsPanel />
    </AdminLayout>
  );
}
