import { useState } from 'react';

import ConfirmDialog from '@site/src/components/ConfirmDialog';

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
          <thead>
            <tr>
              <th scope="col">App</th>
              <th scope="col">Allowed</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span className="portal-visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {apps.map((app) => (
              <tr key={app.id}>
                <th scope="row">
                  <span className={classes.name}>{app.clientName}</span>
                </th>
                <td className={classes.date}>{formatDay(app.authorisedAt)}</td>
                <td className={classes.date}>{formatDay(app.lastUsedAt) ?? 'never'}</td>
                <td className={classes.actions}>
                  <button
                    type="button"
                    className="button button--sm button--danger"
                    onClick={() => setRevoking(app)}
                    aria-label={`Revoke ${app.clientName}`}
                  >
                    Revoke
                  </button>
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
