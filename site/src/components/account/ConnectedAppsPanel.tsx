import { useCallback, useEffect, useState } from 'react';

import { jsonRequest, messageOf } from '@site/src/api/json-api';

import type { ConnectedApp, ConnectedAppList } from '@portal/contract';

import { failureMessage } from './api';
import ConnectedAppsTable from './ConnectedAppsTable';
import styles from './account.module.css';

/** The reader's connected apps (`/api/apps`, server/src/routes/oauth.ts). */
export const appsApi = {
  list: () => jsonRequest<ConnectedAppList>('GET', '/api/apps', undefined, failureMessage),
  revoke: (id: string) =>
    jsonRequest<undefined>('DELETE', `/api/apps/${encodeURIComponent(id)}`, undefined, failureMessage),
};

/**
 * The assistants the reader let read for them by signing in (OAuth on /mcp): each one's name,
 * when it was allowed and last used, and Revoke, which ends its access at once.
 */
export default function ConnectedAppsPanel(): React.JSX.Element {
  const [apps, setApps] = useState<ConnectedApp[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState('');

  const load = useCallback(
    (): Promise<void> =>
      appsApi.list().then(
        (list) => {
          setApps(list.apps);
          setError(null);
        },
        (caught: unknown) => setError(messageOf(caught, 'Could not load your connected apps.')),
      ),
    [],
  );
  useEffect(() => {
    void load();
  }, [load]);

  async function revoke(app: ConnectedApp): Promise<void> {
    try {
      await appsApi.revoke(app.id);
      setNotice(`${app.clientName} can no longer read for you.`);
    } catch (caught) {
      setError(messageOf(caught, 'The app was not revoked; try again.'));
    }
    await load();
  }

  return (
    <section className={styles.card} aria-labelledby="apps-heading">
      <h2 id="apps-heading">Connected apps</h2>
      <p>
        Assistants you allowed to read for you by signing in from them (the MCP server at <code>/mcp</code> asks them
        to). Each reads what you may read, as it is at each use.
      </p>
      <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
      <div role="status" className={styles.notice}>
        {notice}
      </div>
      {apps === null ? (
        error === null && <p role="status">Loading your connected apps…</p>
      ) : apps.length === 0 ? (
        <p className={styles.empty}>No app reads for you. An assistant that connects to /mcp asks you here first.</p>
      ) : (
        <ConnectedAppsTable
          apps={apps}
          classes={{ tableWrap: styles.tableWrap, table: styles.table, name: styles.tokenName }}
          confirmText="It is refused from its next request. To use it again, connect it again and allow it."
          onRevoke={(app) => void revoke(app)}
        />
      )}
    </section>
  );
}
