import { useCallback, useEffect, useReducer, useState } from 'react';
import clsx from 'clsx';
import Link from '@docusaurus/Link';

import { messageOf } from '@site/src/api/json-api';
import ConfirmDialog from '@site/src/components/ConfirmDialog';
import { ASSISTANT_PATH } from '@site/src/components/NavbarAuthItem/AccountMenu';
import { ColumnHeads, RevokeButton } from '@site/src/components/DataTable';

import { tokenApi, type TokenRecord } from './api';
import { describeExpiry, formatDay, statusOf } from './format';
import { initialTokensState, tokensReducer, tokensView } from './tokens-state';
import NewTokenForm from './NewTokenForm';
import NewTokenNotice from './NewTokenNotice';
import styles from './account.module.css';

/** The most a single moment's clock matters here: whether a token has expired, for its label. */
const useNow = (): number => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 60_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
};

function TokenRow({
  token,
  now,
  onRevoke,
}: {
  token: TokenRecord;
  now: number;
  onRevoke: (token: TokenRecord) => void;
}): React.JSX.Element {
  const status = statusOf(token, now);
  return (
    <tr>
      <th scope="row">
        <span className={styles.tokenName}>{token.name}</span>
        <code className={styles.hint}>{token.hint}</code>
        {token.scope === 'admin' && <span className={styles.hint}> administration API only</span>}
      </th>
      <td>{formatDay(token.createdAt)}</td>
      <td>{describeExpiry(token, now)}</td>
      <td>{formatDay(token.lastUsedAt) ?? 'never'}</td>
      <td>
        <span className={clsx(styles.status, styles[`status-${status}`])}>{status}</span>
      </td>
      <td>{status === 'active' && <RevokeButton label={`Revoke ${token.name}`} onClick={() => onRevoke(token)} />}</td>
    </tr>
  );
}

/**
 * The reader's personal access tokens: make one (its secret shown once), see each one's
 * life and last use, revoke one after a confirmation.
 */
/** `onSettled`: called once the list has loaded or failed to, when the panel has its height. */
export default function TokensPanel({ onSettled }: { onSettled?: () => void }): React.JSX.Element {
  const [state, dispatch] = useReducer(tokensReducer, initialTokensState);
  const { list, loadError, error, notice, created } = state;
  const [revoking, setRevoking] = useState<TokenRecord | null>(null);
  const now = useNow();
  const settled = list !== null || loadError !== null;
  useEffect(() => {
    if (settled) onSettled?.();
  }, [settled, onSettled]);

  const load = useCallback(
    (): Promise<void> =>
      tokenApi.list().then(
        (next) => dispatch({ type: 'loaded', list: next }),
        (caught: unknown) =>
          dispatch({ type: 'loadFailed', message: messageOf(caught, 'Could not load your tokens.') }),
      ),
    [],
  );

  useEffect(() => {
    void load();
  }, [load]);

  async function revoke(token: TokenRecord): Promise<void> {
    dispatch({ type: 'revoking' });
    try {
      await tokenApi.revoke(token.id);
      dispatch({ type: 'revoked', token });
    } catch (caught) {
      dispatch({ type: 'revokeFailed', message: messageOf(caught, 'The token was not revoked; try again.') });
    }
    await load();
  }

  return (
    <section className={styles.card} aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">Personal access tokens</h2>
      <p>
        A token lets your coding assistant (Claude Code, Cursor, VS Code and others) read the pages you may read: the
        MCP server at <code>/mcp</code>, the search API, <code>/llms.txt</code> and every page as Markdown. It carries
        your access as it is at each use, so if your groups change or your account is disabled, the token follows within
        a minute. Most assistants sign in by themselves and need no token: see{' '}
        <Link to={ASSISTANT_PATH}>Use with your assistant</Link>.
      </p>

      {tokensView(state) === 'failed' ? (
        <div role="alert">
          <p className={styles.error}>{loadError}</p>
          <button type="button" className="button button--secondary button--sm" onClick={() => void load()}>
            Try again
          </button>
        </div>
      ) : list === null ? (
        <p role="status">Loading your tokens…</p>
      ) : (
        <>
          <h3 className={styles.subheading}>Create a token</h3>
          <NewTokenForm
            maxDays={list.maxDays}
            administrator={list.groups.includes('admin')}
            onCreated={(next) => {
              dispatch({ type: 'created', created: next });
              void load();
            }}
          />
          {created && (
            <NewTokenNotice
              key={created.record.id}
              created={created}
              onDone={() => dispatch({ type: 'secretDismissed' })}
            />
          )}

          <h3 className={styles.subheading}>Your tokens</h3>
          <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
          <div role="status" className={styles.notice}>
            {notice}
          </div>
          {list.tokens.length === 0 ? (
            <p className={styles.empty}>You have no tokens yet. Create one above for each assistant or machine.</p>
          ) : (
            <div className={styles.tableWrap}>
              <table className={styles.table}>
                <ColumnHeads columns={['Name', 'Created', 'Expires', 'Last used', 'Status']} actions />
                <tbody>
                  {list.tokens.map((token) => (
                    <TokenRow key={token.id} token={token} now={now} onRevoke={setRevoking} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}

      {revoking && (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
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
            Every assistant that uses it is refused from now on. This cannot be undone; create a new token if you need
            one again.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
