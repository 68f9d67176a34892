import { useState } from 'react';

import ConfirmDialog from '@site/src/components/ConfirmDialog';
import { ColumnHeads, RevokeButton } from '@site/src/components/DataTable';

import type { ConnectedApp } from '@portal/contract';

import { formatDay } from './format';

/**
 * Connected apps as a table (name, when allowed, last used) with Revoke behind a
 * confirmation: the account page's and the administrators' lists.
 */
export default function ConnectedAppsTable({
  apps,
  classes,
  confirmText,
  onRevoke,
}: {
  apps: readonly ConnectedApp[];
  classes: { tableWrap?: string; table?: string; name?: string; date?: string; actions?: string };
  /** What revoking does, said in the confirmation. */
  confirmText: string;
  onRevoke: (app: ConnectedApp) => void;
}): React.JSX.Element {
  const [revoking, setRevoking] = useState<ConnectedApp | null>(null);
  return (
    <>
      <div className={classes.tableWrap}>
        <table className={classes.table}>
          <ColumnHeads columns={['App', 'Allowed', 'Last used']} actions />
          <tbody>
            {apps.map((app) => (
              <tr key={app.id}>
                <th scope="row">
                  <span className={classes.name}>{app.clientName}</span>
                </th>
                <td className={classes.date}>{formatDay(app.authorisedAt)}</td>
                <td className={classes.date}>{formatDay(app.lastUsedAt) ?? 'never'}</td>
                <td className={classes.actions}>
                  <RevokeButton label={`Revoke ${app.clientName}`} onClick={() => setRevoking(app)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.clientName}”?`}
          confirm="Revoke app"
          danger
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            const app = revoking;
            setRevoking(null);
            onRevoke(app);
          }}
        >
          <p>{confirmText}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
