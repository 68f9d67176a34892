import { possessive } from '@portal/contract/names';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import clsx from 'clsx';

import { messageOf } from '@site/src/api/json-api';
import { createLatest } from '@site/src/api/latest';
import ConfirmDialog from '@site/src/components/ConfirmDialog';
import { ColumnHeads } from '@site/src/components/DataTable';

import { GROUPS } from '@portal/access';

import { adminApi, type AccessOverview, type GroupInfo, type ReaderAccount, type ReaderPage } from './api';
import { formatTime } from './format';
import RowMenu, { type RowMenuItem } from './RowMenu';
import {
  accessGroupsOf,
  ADMIN_GROUP,
  changeFilters,
  confirmDisable,
  confirmRemove,
  countText,
  domainGroups,
  guardOf,
  initialFilters,
  membershipOf,
  organisationOf,
  invitationProblem,
  loadDelay,
  PAGE_SIZE,
  readerName,
  readerStatus,
  grantsOf,
  readsLines,
  toggleGroup,
  turnPage,
  withChanged,
  withRemoved,
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
  locked = null,
}: {
  groups: readonly GroupInfo[];
  chosen: string[];
  onChange: (next: string[]) => void;
  legend: string;
  /** The group that cannot be taken away here, and why (one's own admin group, the last administrator's). */
  locked?: { group: string; reason: string } | null;
}): React.JSX.Element {
  return (
    <fieldset className={styles.groups}>
      <legend>{legend}</legend>
      {groups.map((group) => {
        const fixed = locked !== null && locked.group === group.name && chosen.includes(group.name);
        return (
          <label key={group.name} className={styles.check}>
            <input
              type="checkbox"
              checked={chosen.includes(group.name)}
              disabled={fixed}
              onChange={(event) => onChange(toggleGroup(chosen, group.name, event.target.checked))}
            />{' '}
            {group.name} <span className={styles.muted}>({group.label})</span>
            {fixed && <span className={styles.guard}>{locked.reason}</span>}
          </label>
        );
      })}
    </fieldset>
  );
}

function InviteForm({ onInvited }: { onInvited: () => void }): React.JSX.Element {
  // The policy's groups, known when the page is built: the form has its height from the first paint.
  const groups = GROUPS;
  const [email, setEmail] = useState('');
  const [chosen, setChosen] = useState<string[]>(['partner']);
  const [method, setMethod] = useState<'password' | 'provider'>('password');
  const [working, setWorking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{
    email: string;
    link: string | null;
    mailed: boolean;
    inboxUrl: string | null;
  } | null>(null);
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
      setResult({
        email: email.trim(),
        link: answer.passwordLink ?? null,
        mailed: answer.mailed === true,
        inboxUrl: answer.inboxUrl ?? null,
      });
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
          {result.mailed && (
            <p>
              The invitation went to {result.email} by e-mail
              {result.inboxUrl && (
                <>
                  {' '}
                  (development: read it in the <a href={result.inboxUrl}>mail catcher</a>)
                </>
              )}
              .
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** A message under the filters: what was done, or why it was not. One at a time, so they never contradict. */
type Message = { kind: 'done' | 'failed'; text: string } | null;

/** The dialog that places a reader in an organisation and in groups made here (PUT /api/admin/memberships). */
function MembershipDialog({
  reader,
  access,
  onCancel,
  onSave,
}: {
  reader: ReaderAccount;
  access: AccessOverview;
  onCancel: () => void;
  onSave: (organisation: string | null, groups: string[]) => void;
}): React.JSX.Element {
  const [chosen, setChosen] = useState(() => membershipOf(reader, access));
  const byDomain = access.organisations.find((organisation) => {
    const email = reader.email?.toLowerCase() ?? '';
    return reader.emailVerified && organisation.domains.includes(email.slice(email.lastIndexOf('@') + 1));
  });
  return (
    <ConfirmDialog
      title={`Organisation and groups of ${reader.email}`}
      confirm="Save"
      onCancel={onCancel}
      onConfirm={() => onSave(chosen.organisation, chosen.groups)}
    >
      <label className={styles.field}>
        Organisation
        <select
          value={chosen.organisation ?? ''}
          onChange={(event) => setChosen({ ...chosen, organisation: event.target.value || null })}
        >
          <option value="">
            {byDomain ? `By e-mail domain: ${byDomain.name}` : 'None (no organisation by e-mail domain)'}
          </option>
          {access.organisations.map((organisation) => (
            <option key={organisation.id} value={organisation.id}>
              {organisation.name}
            </option>
          ))}
        </select>
      </label>
      {access.groups.length > 0 ? (
        <GroupPicker
          groups={access.groups}
          chosen={chosen.groups}
          onChange={(groups) => setChosen({ ...chosen, groups })}
          legend="Groups made by administrators"
        />
      ) : (
        <p className={styles.muted}>No groups have been made here yet.</p>
      )}
      <p className={styles.muted}>
        The reader reads their organisation&apos;s live licences and their groups&apos; units from their next page on.
      </p>
    </ConfirmDialog>
  );
}

/**
 * The readers of the portal, searched, filtered and paged on the server: their groups,
 * organisation, status and last sign-in, and what an administrator can do to each in one
 * menu per row (change groups, organisation, disable, enable, remove; the irreversible ones
 * after a confirmation). What the server would refuse (one's own account, the last
 * administrator) is not offered, and the row says why.
 */
export default function ReadersPanel({ onShowTrail }: { onShowTrail: (reader: string) => void }): React.JSX.Element {
  const [filters, setFilters] = useState<ReaderFilters>(initialFilters);
  const [data, setData] = useState<ReaderPage | null>(null);
  // undefined while it loads: the table waits for it, so its columns do not move when it comes.
  const [access, setAccess] = useState<AccessOverview | null | undefined>(undefined);
  const [message, setMessage] = useState<Message>(null);
  const [editing, setEditing] = useState<{ reader: ReaderAccount; groups: string[] } | null>(null);
  const [placing, setPlacing] = useState<ReaderAccount | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [latest] = useState(createLatest);

  const load = useCallback(
    async (current: ReaderFilters) => {
      const isNewest = latest.begin();
      try {
        const page = await adminApi.readers({ ...current, limit: PAGE_SIZE });
        if (isNewest()) setData(page);
      } catch (caught) {
        if (isNewest()) setMessage({ kind: 'failed', text: messageOf(caught, 'Could not load the readers.') });
      }
    },
    [latest],
  );

  // Read again after each change of a membership (accessRound).
  const [accessRound, setAccessRound] = useState(0);
  useEffect(() => {
    const timer = window.setTimeout(() => void load(filters), loadDelay(filters));
    return () => window.clearTimeout(timer);
  }, [filters, load]);

  useEffect(() => {
    let current = true;
    // Without the database there are no organisations to show; the rest of the panel works.
    adminApi.access().then(
      (answer) => current && setAccess(answer),
      () => current && setAccess(null),
    );
    return () => {
      current = false;
    };
  }, [accessRound]);

  const update = (change: Partial<Omit<ReaderFilters, 'page'>>): void =>
    setFilters((current) => changeFilters(current, change));

  /** Does a change; the row shows the server's answer at once, then the page is read again. */
  async function act(
    run: () => Promise<unknown>,
    done: string,
    after?: (page: ReaderPage) => ReaderPage,
  ): Promise<void> {
    try {
      await run();
    } catch (caught) {
      setMessage({ kind: 'failed', text: messageOf(caught, 'That did not work; nothing was changed.') });
      return;
    }
    if (after) setData((current) => (current ? after(current) : current));
    setMessage({ kind: 'done', text: done });
    await load(filters);
  }

  const change = (run: () => Promise<{ after: ReaderAccount }>, done: string): Promise<void> => {
    let changed: ReaderAccount | null = null;
    return act(
      async () => {
        changed = (await run()).after;
      },
      done,
      (page) => (changed ? withChanged(page, changed) : page),
    );
  };

  function actionsOf(reader: ReaderAccount, guard: string | null): RowMenuItem[] {
    const name = readerName(reader);
    const items: RowMenuItem[] = [
      { label: 'Change groups…', onSelect: () => setEditing({ reader, groups: reader.claimedGroups }) },
    ];
    if (access && reader.email)
      items.push({ label: 'Organisation and access groups…', onSelect: () => setPlacing(reader) });
    if (reader.disabled)
      items.push({
        label: 'Enable',
        onSelect: () => void change(() => adminApi.setDisabled(reader.uid, false), `${name} is enabled.`),
      });
    else if (guard === null)
      items.push({
        label: 'Disable…',
        onSelect: () => {
          const asked = confirmDisable(reader);
          setPending({ ...asked, run: () => change(() => adminApi.setDisabled(reader.uid, true), asked.done) });
        },
      });
    for (const grant of grantsOf(data?.access[reader.uid])) {
      const what = grant.labels.join(', ');
      items.push({
        label: `Revoke the grant of ${what}…`,
        danger: true,
        onSelect: () => {
          const done = `${possessive(name)} grant of ${what} is revoked.`;
          setPending({
            title: `Revoke ${possessive(name)} grant of ${what}?`,
            body: `${name} stops reading ${what} on their next request, unless their organisation’s licence or a group gives it. The audit trail keeps the grant.`,
            confirm: 'Revoke grant',
            danger: true,
            done,
            run: () => act(() => adminApi.revokeGrant(grant.id), done),
          });
        },
      });
    }
    items.push({ label: 'Show in the audit trail', onSelect: () => onShowTrail(name) });
    if (guard === null)
      items.push({
        label: 'Remove…',
        danger: true,
        onSelect: () => {
          const asked = confirmRemove(reader);
          setPending({
            ...asked,
            run: () =>
              act(
                () => adminApi.remove(reader.uid),
                asked.done,
                (page) => withRemoved(page, reader.uid),
              ),
          });
        },
      });
    return items;
  }

  const editingGuard = editing && data ? guardOf(editing.reader, data) : null;

  return (
    <>
      <InviteForm onInvited={() => void load(filters)} />

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
              {GROUPS.map((group) => (
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

        <div role="alert">{message?.kind === 'failed' && <p className={styles.error}>{message.text}</p>}</div>
        <div role="status" className={styles.notice}>
          {message?.kind === 'done' ? message.text : null}
        </div>

        {data === null || access === undefined ? (
          <p>Loading readers…</p>
        ) : (
          <>
            <p className={styles.muted}>{countText(data)}</p>
            <div className={styles.tableWrap}>
              <table className={clsx(styles.table, styles.stacked)}>
                <ColumnHeads
                  columns={['E-mail', 'Organisation', 'Groups', 'Reads', 'Status', 'Last sign-in', 'Created']}
                  actions
                />
                <tbody>
                  {data.readers.map((reader) => {
                    const guard = guardOf(reader, data);
                    const organisation = access ? organisationOf(reader, access) : null;
                    const made = access ? accessGroupsOf(reader, access) : [];
                    const status = readerStatus(reader, data.access[reader.uid]);
                    const reads = readsLines(data.access[reader.uid]);
                    return (
                      <tr key={reader.uid}>
                        <th scope="row" className={styles.email}>
                          {reader.email ?? '(no e-mail)'}
                          {reader.providers.includes('github.com') && <span className={styles.badge}>GitHub</span>}
                          {guard && <span className={styles.guard}>{guard}</span>}
                        </th>
                        <td data-label="Organisation">
                          {organisation ? (
                            <>
                              {organisation.name}
                              {organisation.how === 'domain' && (
                                <span className={styles.muted}> (by e-mail domain)</span>
                              )}
                            </>
                          ) : (
                            '–'
                          )}
                        </td>
                        <td data-label="Groups">
                          {reader.groups.length + made.length === 0
                            ? '–'
                            : [...reader.groups, ...made].map((group) => (
                                <span
                                  key={group}
                                  className={styles.chip}
                                  title={
                                    made.includes(group)
                                      ? 'A group made by administrators'
                                      : reader.claimedGroups.includes(group)
                                        ? 'Set by an administrator'
                                        : 'By the e-mail domain'
                                  }
                                >
                                  {group}
                                </span>
                              ))}
                        </td>
                        <td data-label="Reads" className={styles.reads}>
                          {reads.length === 0
                            ? 'nothing'
                            : reads.map((line) => (
                                <span key={line} className={styles.readsLine}>
                                  {line}
                                </span>
                              ))}
                        </td>
                        <td data-label="Status">
                          <span className={clsx(styles.status, styles[`status-${status.replace(' ', '-')}`])}>
                            {status}
                          </span>
                        </td>
                        <td data-label="Last sign-in">{formatTime(reader.lastSignInAt) ?? 'never'}</td>
                        <td data-label="Created">{formatTime(reader.createdAt) ?? '–'}</td>
                        <td className={styles.actions}>
                          <RowMenu label={`Actions for ${readerName(reader)}`} items={actionsOf(reader, guard)} />
                        </td>
                      </tr>
                    );
                  })}
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
            void change(
              () => adminApi.setGroups(target.reader.uid, target.groups),
              `Groups of ${readerName(target.reader)} saved.`,
            );
          }}
        >
          <GroupPicker
            groups={GROUPS}
            chosen={editing.groups}
            onChange={(next) => setEditing({ ...editing, groups: next })}
            legend="Set by an administrator"
            locked={editingGuard ? { group: ADMIN_GROUP, reason: editingGuard } : null}
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
      {placing && access && (
        <MembershipDialog
          reader={placing}
          access={access}
          onCancel={() => setPlacing(null)}
          onSave={(organisation, groups) => {
            const target = placing;
            setPlacing(null);
            void act(
              () => adminApi.setMembership(target.email ?? '', organisation, groups),
              `Organisation and groups of ${readerName(target)} saved.`,
            ).then(() => setAccessRound((round) => round + 1));
          }}
        />
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
