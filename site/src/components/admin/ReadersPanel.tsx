import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import clsx from 'clsx';

import ConfirmDialog from '@site/src/components/ConfirmDialog';

import { adminApi, AdminApiError, type GroupInfo, type ReaderAccount, type ReaderPage } from './api';
import { formatTime } from './format';
import styles from './admin.module.css';

interface Filters {
  q: string;
  group: string;
  status: string;
  sort: string;
  page: number;
}

const PAGE_SIZE = 50;

function statusOf(reader: ReaderAccount): string {
  if (reader.disabled) return 'disabled';
  return reader.groups.length === 0 ? 'no access' : 'active';
}

/** A confirmation asked for before something is done to a reader. */
interface Pending {
  title: string;
  body: string;
  confirm: string;
  danger: boolean;
  run: () => Promise<void>;
}

function GroupPicker({
  groups,
  chosen,
  onChange,
  legend,
}: {
  groups: GroupInfo[];
  chosen: string[];
  onChange: (next: string[]) => void;
  legend: string;
}): React.JSX.Element {
  return (
    <fieldset className={styles.groups}>
      <legend>{legend}</legend>
      {groups.map((group) => (
        <label key={group.name} className={styles.check}>
          <input
            type="checkbox"
            checked={chosen.includes(group.name)}
            onChange={(event) =>
              onChange(event.target.checked ? [...chosen, group.name] : chosen.filter((name) => name !== group.name))
            }
          />{' '}
          {group.name} <span className={styles.muted}>({group.label})</span>
        </label>
      ))}
    </fieldset>
  );
}

function InviteForm({ groups, onInvited }: { groups: GroupInfo[]; onInvited: () => void }): React.JSX.Element {
  const [email, setEmail] = useState('');
  const [chosen, setChosen] = useState<string[]>(['partner']);
  const [method, setMethod] = useState<'password' | 'provider'>('password');
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ email: string; link: string | null } | null>(null);
  const [copied, setCopied] = useState(false);
  const errorId = useId();

  async function onSubmit(event: FormEvent): Promise<void> {
    event.preventDefault();
    setError(null);
    setResult(null);
    setCopied(false);
    if (chosen.length === 0) {
      setError('Choose at least one group.');
      return;
    }
    setWorking(true);
    try {
      const answer = await adminApi.invite(email.trim(), chosen, method);
      setResult({ email: email.trim(), link: answer.passwordLink ?? null });
      setEmail('');
      onInvited();
    } catch (caught) {
      setError(caught instanceof AdminApiError ? caught.message : 'The invitation failed.');
    } finally {
      setWorking(false);
    }
  }

  return (
    <section className={styles.card} aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite a reader</h2>
      <form onSubmit={(event) => void onSubmit(event)} className={styles.inviteForm}>
        <label className={styles.field}>
          E-mail address
          <input
            type="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-describedby={error ? errorId : undefined}
            autoComplete="off"
          />
        </label>
        <GroupPicker groups={groups} chosen={chosen} onChange={setChosen} legend="Groups" />
        <fieldset className={styles.groups}>
          <legend>How they sign in</legend>
          <label className={styles.check}>
            <input type="radio" name="method" checked={method === 'password'} onChange={() => setMethod('password')} />{' '}
            E-mail and password: create the account now and copy a link to set the password
          </label>
          <label className={styles.check}>
            <input type="radio" name="method" checked={method === 'provider'} onChange={() => setMethod('provider')} />{' '}
            GitHub: the groups are given at their first sign-in with this e-mail
          </label>
        </fieldset>
        <button type="submit" className="button button--primary" disabled={working}>
          {working ? 'Inviting…' : 'Invite'}
        </button>
      </form>
      <div role="alert" id={errorId}>
        {error && <p className={styles.error}>{error}</p>}
      </div>
      {result && (
        <div className={styles.success} role="status">
          {result.link ? (
            <>
              <p>
                Created <strong>{result.email}</strong>. Send them this link to set a password (it works once):
              </p>
              <p className={styles.linkRow}>
                <input readOnly value={result.link} aria-label="Password-setup link" className={styles.linkField} />
                <button
                  type="button"
                  className="button button--secondary button--sm"
                  onClick={() => {
                    void navigator.clipboard.writeText(result.link ?? '').then(() => setCopied(true));
                  }}
                >
                  {copied ? 'Copied' : 'Copy link'}
                </button>
              </p>
            </>
          ) : (
            <p>
              Invited <strong>{result.email}</strong>: they get their groups at their first sign-in with that e-mail.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * The readers of the portal, searched, filtered and paged on the server: their groups,
 * status and last sign-in, and what an administrator can do to each (change groups,
 * disable, enable, remove; the irreversible ones after a confirmation).
 */
export default function ReadersPanel({ onShowTrail }: { onShowTrail: (reader: string) => void }): React.JSX.Element {
  const [filters, setFilters] = useState<Filters>({ q: '', group: '', status: '', sort: 'email', page: 1 });
  const [data, setData] = useState<ReaderPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ reader: ReaderAccount; groups: string[] } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const loadCount = useRef(0);

  const load = useCallback(async (current: Filters) => {
    const ticket = ++loadCount.current;
    try {
      const page = await adminApi.readers({ ...current, limit: PAGE_SIZE });
      if (ticket === loadCount.current) {
        setData(page);
        setError(null);
      }
    } catch (caught) {
      if (ticket === loadCount.current)
        setError(caught instanceof AdminApiError ? caught.message : 'Could not load the readers.');
    }
  }, []);

  useEffect(() => {
    const timer = window.setTimeout(() => void load(filters), filters.q ? 250 : 0);
    return () => window.clearTimeout(timer);
  }, [filters, load]);

  const update = (change: Partial<Filters>): void => setFilters((current) => ({ ...current, page: 1, ...change }));

  async function act(run: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await run();
      setNotice(done);
      setError(null);
      await load(filters);
    } catch (caught) {
      setError(caught instanceof AdminApiError ? caught.message : 'That did not work; nothing was changed.');
    }
  }

  const groups = data?.groups ?? [];

  return (
    <>
      <InviteForm groups={groups} onInvited={() => void load(filters)} />

      <section className={styles.card} aria-labelledby="readers-heading">
        <h2 id="readers-heading">Readers</h2>
        <div className={styles.filters} role="search">
          <label className={styles.field}>
            Search by e-mail
            <input type="search" value={filters.q} onChange={(event) => update({ q: event.target.value })} />
          </label>
          <label className={styles.field}>
            Group
            <select value={filters.group} onChange={(event) => update({ group: event.target.value })}>
              <option value="">Any</option>
              {groups.map((group) => (
                <option key={group.name} value={group.name}>
                  {group.name}
                </option>
              ))}
            </select>
          </label>
          <label className={styles.field}>
            Status
            <select value={filters.status} onChange={(event) => update({ status: event.target.value })}>
              <option value="">Any</option>
              <option value="active">Active</option>
              <option value="no-access">No access</option>
              <option value="disabled">Disabled</option>
            </select>
          </label>
          <label className={styles.field}>
            Sort by
            <select value={filters.sort} onChange={(event) => update({ sort: event.target.value })}>
              <option value="email">E-mail</option>
              <option value="last-sign-in">Last sign-in</option>
              <option value="created">Created</option>
            </select>
          </label>
        </div>

        <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
        <div role="status" className={styles.notice}>
          {notice}
        </div>

        {data === null ? (
          <p>Loading readers…</p>
        ) : (
          <>
            <p className={styles.muted}>
              {data.total} reader{data.total === 1 ? '' : 's'}
              {data.pages > 1 && ` · page ${data.page} of ${data.pages}`}
            </p>
            <div className={styles.tableWrap}>
              <table className={styles.table}>
                <thead>
                  <tr>
                    <th scope="col">E-mail</th>
                    <th scope="col">Groups</th>
                    <th scope="col">Status</th>
                    <th scope="col">Last sign-in</th>
                    <th scope="col">Created</th>
                    <th scope="col">
                      <span className={styles.visuallyHidden}>Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.readers.map((reader) => (
                    <tr key={reader.uid}>
                      <th scope="row" className={styles.email}>
                        {reader.email ?? '(no e-mail)'}
                        {reader.providers.includes('github.com') && <span className={styles.badge}>GitHub</span>}
                      </th>
                      <td>
                        {reader.groups.length === 0
                          ? '–'
                          : reader.groups.map((group) => (
                              <span
                                key={group}
                                className={styles.chip}
                                title={
                                  reader.claimedGroups.includes(group)
                                    ? 'Set by an administrator'
                                    : 'By the e-mail domain'
                                }
                              >
                                {group}
                              </span>
                            ))}
                      </td>
                      <td>
                        <span className={clsx(styles.status, styles[`status-${statusOf(reader).replace(' ', '-')}`])}>
                          {statusOf(reader)}
                        </span>
                      </td>
                      <td>{formatTime(reader.lastSignInAt) ?? 'never'}</td>
                      <td>{formatTime(reader.createdAt) ?? '–'}</td>
                      <td className={styles.actions}>
                        <button
                          type="button"
                          className="button button--sm button--secondary"
                          onClick={() => setEditing({ reader, groups: reader.claimedGroups })}
                          aria-label={`Change the groups of ${reader.email ?? reader.uid}`}
                        >
                          Groups
                        </button>
                        <button
                          type="button"
                          className="button button--sm button--secondary"
                          onClick={() =>
                            reader.disabled
                              ? void act(() => adminApi.setDisabled(reader.uid, false), `${reader.email} is enabled.`)
                              : setPending({
                                  title: `Disable ${reader.email}?`,
                                  body: 'They are signed out within a minute and cannot sign in until enabled again.',
                                  confirm: 'Disable',
                                  danger: false,
                                  run: () =>
                                    act(() => adminApi.setDisabled(reader.uid, true), `${reader.email} is disabled.`),
                                })
                          }
                          aria-label={`${reader.disabled ? 'Enable' : 'Disable'} ${reader.email ?? reader.uid}`}
                        >
                          {reader.disabled ? 'Enable' : 'Disable'}
                        </button>
                        <button
                          type="button"
                          className="button button--sm button--secondary"
                          onClick={() => onShowTrail(reader.email ?? reader.uid)}
                          aria-label={`Show the trail of ${reader.email ?? reader.uid}`}
                        >
                          Trail
                        </button>
                        <button
                          type="button"
                          className="button button--sm button--danger"
                          onClick={() =>
                            setPending({
                              title: `Remove ${reader.email}?`,
                              body: 'The account is deleted for good: its groups, password and GitHub link. This cannot be undone; the audit trail keeps what happened.',
                              confirm: 'Remove for good',
                              danger: true,
                              run: () => act(() => adminApi.remove(reader.uid), `${reader.email} was removed.`),
                            })
                          }
                          aria-label={`Remove ${reader.email ?? reader.uid}`}
                        >
                          Remove
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <nav className={styles.pager} aria-label="Pages of readers">
              <button
                type="button"
                className="button button--sm button--secondary"
                disabled={data.page <= 1}
                onClick={() => setFilters((current) => ({ ...current, page: current.page - 1 }))}
              >
                Previous
              </button>
              <button
                type="button"
                className="button button--sm button--secondary"
                disabled={data.page >= data.pages}
                onClick={() => setFilters((current) => ({ ...current, page: current.page + 1 }))}
              >
                Next
              </button>
            </nav>

            {data.invitations.length > 0 && (
              <>
                <h3>Open invitations</h3>
                <ul className={styles.invitations}>
                  {data.invitations.map((invitation) => (
                    <li key={invitation.email}>
                      <strong>{invitation.email}</strong> → {invitation.groups.join(', ')}{' '}
                      <span className={styles.muted}>
                        by {invitation.invitedBy}, {formatTime(invitation.createdAt)}
                      </span>{' '}
                      <button
                        type="button"
                        className="button button--sm button--link"
                        onClick={() =>
                          void act(
                            () => adminApi.withdraw(invitation.email),
                            `Invitation for ${invitation.email} withdrawn.`,
                          )
                        }
                      >
                        Withdraw
                      </button>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </section>

      {editing && (
        <ConfirmDialog
          title={`Groups of ${editing.reader.email}`}
          confirm="Save groups"
          onCancel={() => setEditing(null)}
          onConfirm={() => {
            const target = editing;
            setEditing(null);
            void act(
              () => adminApi.setGroups(target.reader.uid, target.groups),
              `Groups of ${target.reader.email} saved.`,
            );
          }}
        >
          <GroupPicker
            groups={groups}
            chosen={editing.groups}
            onChange={(next) => setEditing({ ...editing, groups: next })}
            legend="Set by an administrator"
          />
          {editing.reader.groups.some((group) => !editing.reader.claimedGroups.includes(group)) && (
            <p className={styles.muted}>
              Also in{' '}
              {editing.reader.groups.filter((group) => !editing.reader.claimedGroups.includes(group)).join(', ')} by the
              e-mail domain rule; that comes from the access policy, not from here.
            </p>
          )}
          <p className={styles.muted}>The reader&apos;s open sessions follow within a minute.</p>
        </ConfirmDialog>
      )}
      {pending && (
        <ConfirmDialog
          title={pending.title}
          confirm={pending.confirm}
          danger={pending.danger}
          onCancel={() => setPending(null)}
          onConfirm={() => {
            const action = pending;
            setPending(null);
            void action.run();
          }}
        >
          <p>{pending.body}</p>
        </ConfirmDialog>
      )}
    </>
  );
}
