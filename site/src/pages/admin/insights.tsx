import AdminLayout from '@site/src/components/admin/AdminLayout';
import InsightsView from '@site/src/components/admin/InsightsView';

/** `/admin/insights`: what readers of each group read, searched for and said, over a period. */
export default function AdminInsightsPage(): React.JSX.Element {
  return (
    <AdminLayout title="Insights" current="insights">
      <InsightsView />
    </AdminLayout>
  );
}
