import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import clsx from 'clsx';

import { messageOf } from '@site/src/api/json-api';
import { createLatest } from '@site/src/api/latest';
import ConfirmDialog from '@site/src/components/ConfirmDialog';

import { adminApi, type GroupInfo, type ReaderAccount, type ReaderPage } from './api';
import { formatTime } from './format';
import {
  changeFilters,
  confirmDisable,
  confirmRemove,
  countText,
  domainGroups,
  initialFilters,
  invitationProblem,
  loadDelay,
  PAGE_SIZE,
  readerName,
  readerStatus,
  toggleGroup,
  turnPage,
  type Confirmation,
  type ReaderFilters,
} from './readers-state';
import styles from './admin.module.css';

/** A confirmation asked for before something is done to a reader, and the thing to do. */
interface Pending extends Confirmation {
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
            onChange={(event) => onChange(toggleGroup(chosen, group.name, event.target.checked))}
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
    const problem = invitationProblem(chosen);
    if (problem) {
      setError(problem);
      return;
    }
    setWorking(true);
    try {
      const answer = await adminApi.invite(email.trim(), chosen, method);
      setResult({ email: email.trim(), link: answer.passwordLink ?? null });
      setEmail('');
      onInvited();
    } catch (caught) {
      setError(messageOf(caught, 'The invitation failed.'));
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
  const [filters, setFilters] = useState<ReaderFilters>(initialFilters);
  const [data, setData] = useState<ReaderPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ reader: ReaderAccount; groups: string[] } | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [latest] = useState(createLatest);

  const load = useCallback(
    async (current: ReaderFilters) => {
      const isNewest = latest.begin();
      try {
        const page = await adminApi.readers({ ...current, limit: PAGE_SIZE });
        if (isNewest()) {
          setData(page);
          setError(null);
        }
      } catch (caught) {
        if (isNewest()) setError(messageOf(caught, 'Could not load the readers.'));
      }
    },
    [latest],
  );

  useEffect(() => {
    const timer = window.setTimeout(() => void load(filters), loadDelay(filters));
    return () => window.clearTimeout(timer);
  }, [filters, load]);

  const update = (change: Partial<Omit<ReaderFilters, 'page'>>): void =>
    setFilters((current) => changeFilters(current, change));

  async function act(run: () => Promise<unknown>, done: string): Promise<void> {
    try {
      await run();
      setNotice(done);
      setError(null);
      await load(filters);
    } catch (caught) {
      setError(messageOf(caught, 'That did not work; nothing was changed.'));
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
            <p className={styles.muted}>{countText(data)}</p>
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
                      <span className="portal-visually-hidden">Actions</span>
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
                        <span
                          className={clsx(styles.status, styles[`status-${readerStatus(reader).replace(' ', '-')}`])}
                        >
                          {readerStatus(reader)}
                        </span>
                      </td>
                      <td>{formatTime(reader.lastSignInAt) ?? 'never'}</td>
                      <td>{formatTime(reader.createdAt) ?? '–'}</td>
                      <td className={styles.actions}>
                        <button
                          type="button"
                          className="button button--sm button--secondary"
                          onClick={() => setEditing({ reader, groups: reader.claimedGroups })}
                          aria-label={`Change the groups of ${readerName(reader)}`}
                        >
                          Groups
                        </button>
                        <button
                          type="button"
                          className="button button--sm button--secondary"
                          onClick={() => {
                            if (reader.disabled)
                              void act(() => adminApi.setDisabled(reader.uid, false), `${reader.email} is enabled.`);
                            else {
                              const asked = confirmDisable(reader);
                              setPending({
                                ...asked,
                                run: () => act(() => adminApi.setDisabled(reader.uid, true), asked.done),
                              });
                            }
                          }}
                          aria-label={`${reader.disabled ? 'Enable' : 'Disable'} ${readerName(reader)}`}
                        >
                          {reader.disabled ? 'Enable' : 'Disable'}
                        </button>
                        <button
                          type="button"
                          className="button button--sm button--secondary"
                          onClick={() => onShowTrail(readerName(reader))}
                          aria-label={`Show the trail of ${readerName(reader)}`}
                        >
                          Trail
                        </button>
                        <button
                          type="button"
                          className="button button--sm button--danger"
                          onClick={() => {
                            const asked = confirmRemove(reader);
                            setPending({ ...asked, run: () => act(() => adminApi.remove(reader.uid), asked.done) });
                          }}
                          aria-label={`Remove ${readerName(reader)}`}
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
                onClick={() => setFilters((current) => turnPage(current, -1))}
              >
                Previous
              </button>
              <button
                type="button"
                className="button button--sm button--secondary"
                disabled={data.page >= data.pages}
                onClick={() => setFilters((current) => turnPage(current, 1))}
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
          {domainGroups(editing.reader).length > 0 && (
            <p className={styles.muted}>
              Also in {domainGroups(editing.reader).join(', ')} by the e-mail domain rule; that comes from the access
              policy, not from here.
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
