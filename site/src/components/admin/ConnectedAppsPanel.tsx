import { useState } from 'react';

import { jsonRequest, messageOf } from '@site/src/api/json-api';
import ConnectedAppsTable from '@site/src/components/account/ConnectedAppsTable';

import type { AdminAppList, ConnectedApp } from '@portal/contract';

import { failureMessage } from './api';
import styles from './admin.module.css';

/** One reader's connected apps for administrators (`/api/admin/apps`, server/src/routes/oauth.ts). */
const appsApi = {
  list: (reader: string) =>
    jsonRequest<AdminAppList>('GET', `/api/admin/apps?reader=${encodeURIComponent(reader)}`, undefined, failureMessage),
  revoke: (id: string) =>
    jsonRequest<undefined>('DELETE', `/api/admin/apps/${encodeURIComponent(id)}`, undefined, failureMessage),
};

/**
 * The assistants one reader allowed through OAuth (by e-mail or uid), and revoking any of
 * them: recorded in the trail, refused from the app's next request.
 */
export default function ConnectedAppsPanel(): React.JSX.Element {
  const [reader, setReader] = useState('');
  const [found, setFound] = useState<AdminAppList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState('');

  async function load(who: string): Promise<void> {
    try {
      setFound(await appsApi.list(who.trim()));
      setError(null);
    } catch (failure) {
      setFound(null);
      setError(messageOf(failure, 'Could not load the apps.'));
    }
  }

  async function revoke(app: ConnectedApp): Promise<void> {
    try {
      await appsApi.revoke(app.id);
      setNotice(`${app.clientName} was revoked.`);
    } catch (failure) {
      setError(messageOf(failure, 'Could not revoke the app.'));
    }
    if (found) await load(found.uid);
  }

  return (
    <section className={styles.card} aria-labelledby="apps-heading">
      <h2 id="apps-heading">Connected apps</h2>
      <p className={styles.muted}>The assistants a reader allowed to read for them by signing in (OAuth on /mcp).</p>
      <form
        className={styles.filters}
        onSubmit={(event) => {
          event.preventDefault();
          if (reader.trim()) void load(reader);
        }}
      >
        <label className={styles.field}>
          Reader (e-mail or uid)
          <input type="search" value={reader} onChange={(event) => setReader(event.target.value)} />
        </label>
        <button type="submit" className="button button--secondary button--sm">
          Show apps
        </button>
      </form>
      <p role="status" className={styles.notice}>
        {notice}
      </p>
      <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
      {found &&
        (found.apps.length === 0 ? (
          <p className={styles.muted}>{found.email ?? found.uid} has no connected apps.</p>
        ) : (
          <ConnectedAppsTable
            apps={found.apps}
            classes={{ tableWrap: styles.tableWrap, table: styles.table, date: styles.nowrap, actions: styles.actions }}
            confirmText="The app is refused from its next request, and the reader must allow it again to use it."
            onRevoke={(app) => void revoke(app)}
          />
        ))}
    </section>
  );
}
