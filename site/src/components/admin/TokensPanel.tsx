import { useCallback, useEffect, useState } from 'react';

import { messageOf } from '@site/src/api/json-api';
import { createLatest } from '@site/src/api/latest';
import ConfirmDialog from '@site/src/components/ConfirmDialog';
import { describeExpiry, formatDay, statusOf } from '@site/src/components/account/format';
import { ColumnHeads, RevokeButton } from '@site/src/components/DataTable';

import { adminApi, type AdminToken } from './api';
import { noTokensText, readerFilter, revokedNotice } from './tokens-state';
import styles from './admin.module.css';

/**
 * Every reader's personal access tokens (names, first characters, dates; never a secret),
 * for an administrator who must end one: a leaked token, a reader who left. Revoking is
 * confirmed first, recorded in the trail, and refused at once by every replica that shares
 * Redis (within `SESSION_CACHE_TTL_SECONDS` by the others).
 */
export default function TokensPanel(): React.JSX.Element {
  const [reader, setReader] = useState('');
  const [tokens, setTokens] = useState<AdminToken[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [revoking, setRevoking] = useState<AdminToken | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [latest] = useState(createLatest);

  const load = useCallback(
    async (who: string) => {
      const isNewest = latest.begin();
      try {
        const { tokens: found } = await adminApi.tokens(readerFilter(who));
        if (!isNewest()) return;
        setTokens(found);
        setError(null);
        setNow(Date.now());
      } catch (failure) {
        if (isNewest()) setError(messageOf(failure, 'Could not load the tokens.'));
      }
    },
    [latest],
  );

  useEffect(() => {
    const timer = window.setTimeout(() => void load(reader), 250);
    return () => window.clearTimeout(timer);
  }, [reader, load]);

  async function revoke(token: AdminToken): Promise<void> {
    try {
      await adminApi.revokeToken(token.id);
      setNotice(revokedNotice(token));
      await load(reader);
    } catch (failure) {
      setError(messageOf(failure, 'Could not revoke the token.'));
    }
  }

  return (
    <section className={styles.card} aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">Personal access tokens</h2>
      <p className={styles.muted}>
        Readers make tokens on their account page for their coding assistants; each reads what its reader may read, as
        the reader’s groups are now.
      </p>
      <div className={styles.filters}>
        <label className={styles.field}>
          Reader (e-mail or id)
          <input type="search" value={reader} onChange={(event) => setReader(event.target.value)} />
        </label>
      </div>
      <p role="status" className={styles.notice}>
        {notice}
      </p>
      <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
      {tokens === null ? (
        <p>Loading the tokens…</p>
      ) : tokens.length === 0 ? (
        <p>{noTokensText(reader)}</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={`${styles.table} ${styles.stacked}`}>
            <caption>Tokens, newest first</caption>
            <ColumnHeads columns={['Reader', 'Name', 'Made', 'Ends', 'Last used', 'Status']} actions />
            <tbody>
              {tokens.map((token) => {
                const status = statusOf(token, now);
                return (
                  <tr key={token.id}>
                    <td data-label="Reader" className={styles.email}>
                      {token.email}
                    </td>
                    <td data-label="Name">
                      {token.name} <code className={styles.muted}>{token.hint}</code>
                    </td>
                    <td data-label="Made" className={styles.nowrap}>
                      {formatDay(token.createdAt)}
                    </td>
                    <td data-label="Ends">{describeExpiry(token, now)}</td>
                    <td data-label="Last used" className={styles.nowrap}>
                      {formatDay(token.lastUsedAt) ?? 'never'}
                    </td>
                    <td data-label="Status">{status}</td>
                    <td className={styles.actions}>
                      {status === 'active' && (
                        <RevokeButton
                          label={`Revoke ${token.name} of ${token.email}`}
                          onClick={() => setRevoking(token)}
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.name}” of ${revoking.email}?`}
          confirm="Revoke token"
          danger
          onCancel={() => setRevoking(null)}
          onConfirm={() => {
            const token = revoking;
            setRevoking(null);
            void revoke(token);
          }}
        >
          <p>
            Every assistant that uses it is refused from now on. This cannot be undone; the reader can make a new one.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
