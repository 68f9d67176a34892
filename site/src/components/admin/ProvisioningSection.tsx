import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import clsx from 'clsx';

import { messageOf } from '@site/src/api/json-api';
import { createLatest } from '@site/src/api/latest';
import ConfirmDialog from '@site/src/components/ConfirmDialog';
import { ColumnHeads } from '@site/src/components/DataTable';

import type { AccessGroupInfo, OrganisationInfo } from './access-api';
import ChangeStatus from './ChangeStatus';
import { formatTime } from './format';
import { provisioningApi, type OrganisationSignIn, type ProvisioningOverview } from './provisioning-api';
import {
  callOutcome,
  callsSummary,
  callTokenName,
  groupChoice,
  groupsNotice,
  nameProblem,
  OUTCOME_WORDS,
  providerProblem,
  SIGN_IN_NAME_MAX,
  signInBody,
  signInFields,
  signInWords,
  type SignInFields,
} from './provisioning-state';
import ScimTokens from './ScimTokens';
import TableWrap from './TableWrap';
import { useChange } from './use-change';
import styles from './admin.module.css';

/** The organisation's own identity provider: its id, the name the sign-in page shows, whether readers must use it. */
function SignInPart({
  organisation,
  signIn,
  onChanged,
}: {
  organisation: OrganisationInfo;
  signIn: OrganisationSignIn | null;
  onChanged: () => Promise<void>;
}): React.JSX.Element {
  const change = useChange(onChanged);
  const [fields, setFields] = useState<SignInFields>(() => signInFields(signIn));
  const [problems, setProblems] = useState<{ provider: string | null; name: string | null }>({
    provider: null,
    name: null,
  });
  const [removing, setRemoving] = useState(false);
  const ids = {
    heading: useId(),
    provider: useId(),
    providerHint: useId(),
    providerProblem: useId(),
    name: useId(),
    nameProblem: useId(),
    required: useId(),
    requiredHint: useId(),
  };
  const providerField = useRef<HTMLInputElement>(null);
  const nameField = useRef<HTMLInputElement>(null);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const found = { provider: providerProblem(fields.provider), name: nameProblem(fields.name) };
    setProblems(found);
    if (found.provider || found.name) {
      change.setError(null);
      (found.provider ? providerField : nameField).current?.focus();
      return;
    }
    const body = signInBody(fields);
    void change
      .run(
        () => provisioningApi.setSignIn(organisation.id, body),
        `${organisation.name}’s readers now ${body.required ? 'must' : 'may'} sign in with “${body.name}”.`,
        'The sign-in was not saved; try again.',
      )
      .then((ok) => ok && setFields(body));
  };

  const describedBy = (...parts: (string | false)[]) => parts.filter(Boolean).join(' ') || undefined;

  return (
    <section className={styles.provisioningPart} aria-labelledby={ids.heading}>
      <h5 id={ids.heading}>Sign-in</h5>
      <p>{signInWords(signIn, organisation.domains)}</p>
      <ChangeStatus error={change.error} notice={change.notice} />
      <form onSubmit={save} noValidate>
        <div className={styles.formRow}>
          <div className={styles.field}>
            <label htmlFor={ids.provider}>Provider id</label>
            <input
              id={ids.provider}
              ref={providerField}
              value={fields.provider}
              placeholder="oidc.northwind"
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
              aria-invalid={problems.provider ? true : undefined}
              aria-describedby={describedBy(ids.providerHint, problems.provider !== null && ids.providerProblem)}
              onChange={(event) => setFields({ ...fields, provider: event.target.value })}
            />
            <span id={ids.providerHint} className={styles.fieldHint}>
              The OIDC or SAML provider as Firebase Authentication names it: oidc.… or saml.…
            </span>
            {problems.provider && (
              <span id={ids.providerProblem} className={styles.error}>
                {problems.provider}
              </span>
            )}
          </div>
          <div className={styles.field}>
            <label htmlFor={ids.name}>Name on the sign-in page</label>
            <input
              id={ids.name}
              ref={nameField}
              value={fields.name}
              placeholder="Northwind single sign-on"
              maxLength={SIGN_IN_NAME_MAX}
              aria-invalid={problems.name ? true : undefined}
              aria-describedby={describedBy(problems.name !== null && ids.nameProblem)}
              onChange={(event) => setFields({ ...fields, name: event.target.value })}
            />
            {problems.name && (
              <span id={ids.nameProblem} className={styles.error}>
                {problems.name}
              </span>
            )}
          </div>
        </div>
        <p className={styles.requiredChoice}>
          <label className={styles.check} htmlFor={ids.required}>
            <input
              id={ids.required}
              type="checkbox"
              checked={fields.required}
              aria-describedby={ids.requiredHint}
              onChange={(event) => setFields({ ...fields, required: event.target.checked })}
            />{' '}
            Readers must use it
          </label>
          <span id={ids.requiredHint} className={styles.fieldHint}>
            Then a reader at its domains who signs in with a password or any other way reads nothing.
          </span>
        </p>
        <div className={styles.linkRow}>
          <button type="submit" className="button button--primary button--sm" disabled={change.working}>
            Save sign-in
          </button>
          {signIn && (
            <button
              type="button"
              className="button button--outline button--danger button--sm"
              disabled={change.working}
              onClick={() => setRemoving(true)}
            >
              Remove single sign-on
            </button>
          )}
        </div>
      </form>
      {removing && signIn && (
        <ConfirmDialog
          title={`Remove the single sign-on of ${organisation.name}?`}
          confirm="Remove single sign-on"
          danger
          onCancel={() => setRemoving(false)}
          onConfirm={() => {
            setRemoving(false);
            void change
              .run(
                () => provisioningApi.removeSignIn(organisation.id),
                `${organisation.name}’s readers sign in with a password or the portal’s other ways again.`,
                'The single sign-on was not removed; try again.',
              )
              .then((ok) => {
                if (!ok) return;
                setFields(signInFields(null));
                setProblems({ provider: null, name: null });
              });
          }}
        >
          <p>
            Its readers sign in with a password or the portal’s other ways again; a sign-in through “{signIn.name}” (
            {signIn.provider}) reads nothing from their next request.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** The administrators' groups its SCIM client may put its readers in. */
function GroupsPart({
  organisation,
  offered,
  groups,
  onChanged,
}: {
  organisation: OrganisationInfo;
  offered: readonly string[];
  groups: readonly AccessGroupInfo[];
  onChanged: () => Promise<void>;
}): React.JSX.Element {
  const change = useChange(onChanged);
  const choice = groupChoice(offered, groups);
  const [selected, setSelected] = useState<string[]>(choice.selected);
  const heading = useId();

  const save = (event: FormEvent) => {
    event.preventDefault();
    const wanted = groups.map((group) => group.name).filter((name) => selected.includes(name));
    void change.run(
      () => provisioningApi.setGroups(organisation.id, wanted),
      groupsNotice(wanted),
      'The groups were not saved; try again.',
    );
  };

  return (
    <section className={styles.provisioningPart} aria-labelledby={heading}>
      <h5 id={heading}>Groups its SCIM client may use</h5>
      <p className={styles.muted}>
        Its client sees these as SCIM groups and may put {organisation.name}’s readers in them; a reader in a group
        reads its units. Make groups on the Reader groups tab.
      </p>
      <ChangeStatus error={change.error} notice={change.notice} />
      {choice.stale.length > 0 && (
        <p>
          No longer a group of the administrators:{' '}
          {choice.stale.map((name) => (
            <span key={name} className={clsx(styles.chip, styles.orphan)}>
              {name}
            </span>
          ))}{' '}
          Saving takes {choice.stale.length === 1 ? 'it' : 'them'} off the list.
        </p>
      )}
      {groups.length === 0 ? (
        <p>No reader group yet: make one on the Reader groups tab, then offer it here.</p>
      ) : (
        <form onSubmit={save}>
          <fieldset className={clsx(styles.groups, styles.offeredGroups)}>
            <legend>Groups {organisation.name}’s SCIM client may put readers in</legend>
            {groups.map((group) => (
              <label key={group.name} className={styles.check}>
                <input
                  type="checkbox"
                  checked={selected.includes(group.name)}
                  onChange={(event) =>
                    setSelected(
                      event.target.checked ? [...selected, group.name] : selected.filter((name) => name !== group.name),
                    )
                  }
                />{' '}
                {group.label} <code>{group.name}</code>
              </label>
            ))}
          </fieldset>
          <button type="submit" className="button button--primary button--sm" disabled={change.working}>
            Save the groups
          </button>
        </form>
      )}
      {groups.length === 0 && choice.stale.length > 0 && (
        <button
          type="button"
          className="button button--secondary button--sm"
          disabled={change.working}
          onClick={() =>
            void change.run(
              () => provisioningApi.setGroups(organisation.id, []),
              groupsNotice([]),
              'The groups were not saved; try again.',
            )
          }
        >
          Take them off the list
        </button>
      )}
    </section>
  );
}

/** The last calls of its SCIM client, newest first, with their outcome; a refused or failed one says so in words. */
function CallsPart({
  overview,
  onRefresh,
}: {
  overview: ProvisioningOverview;
  onRefresh: () => Promise<void>;
}): React.JSX.Element {
  const [refreshing, setRefreshing] = useState(false);
  const heading = useId();
  const { calls, tokens } = overview;
  return (
    <section className={styles.provisioningPart} aria-labelledby={heading}>
      <h5 id={heading}>Last provisioning calls</h5>
      <div className={styles.linkRow}>
        <p>{callsSummary(calls)}</p>
        <button
          type="button"
          className="button button--secondary button--sm"
          disabled={refreshing}
          onClick={() => {
            setRefreshing(true);
            void onRefresh().finally(() => setRefreshing(false));
          }}
        >
          {refreshing ? 'Reading…' : 'Read the calls again'}
        </button>
      </div>
      {calls.length > 0 && (
        <TableWrap label="Last provisioning calls">
          <table className={clsx(styles.table, styles.stacked)}>
            <caption>Last provisioning calls, newest first</caption>
            <ColumnHeads columns={['When', 'Method', 'Path', 'Status', 'Detail', 'Token']} />
            <tbody>
              {calls.map((call, index) => {
                const outcome = callOutcome(call.status);
                const failed = outcome !== 'done';
                return (
                  <tr key={`${call.at}-${index}`} className={failed ? styles.failedCall : undefined}>
                    <td data-label="When" className={styles.nowrap}>
                      {formatTime(call.at)}
                    </td>
                    <td data-label="Method">
                      <code>{call.method}</code>
                    </td>
                    <td data-label="Path">
                      <code className={styles.callPath}>{call.path}</code>
                    </td>
                    <td data-label="Status" className={styles.nowrap}>
                      {failed ? (
                        <strong className={styles.callFailed}>
                          <span aria-hidden="true">✕ </span>
                          {call.status} {OUTCOME_WORDS[outcome]}
                        </strong>
                      ) : (
                        <>
                          <span aria-hidden="true">✓ </span>
                          {call.status} {OUTCOME_WORDS[outcome]}
                        </>
                      )}
                    </td>
                    <td data-label="Detail" className={styles.callPath}>
                      {call.detail ?? '–'}
                    </td>
                    <td data-label="Token">{callTokenName(call, tokens)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableWrap>
      )}
    </section>
  );
}

/**
 * An organisation's own sign-in and SCIM provisioning, in the organisation's editor: its
 * identity provider (and whether its readers must use it), the SCIM endpoint and tokens, the
 * groups its client may use, and its last calls. Read when the organisation is chosen; a change
 * reads it again, and the organisations overview too where the change shows there (its SSO label).
 */
export default function ProvisioningSection({
  organisation,
  groups,
  reload,
}: {
  organisation: OrganisationInfo;
  groups: readonly AccessGroupInfo[];
  /** Reads the organisations overview again. */
  reload: () => Promise<void>;
}): React.JSX.Element {
  const [overview, setOverview] = useState<ProvisioningOverview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [latest] = useState(createLatest);
  const heading = useId();

  const load = useCallback(async () => {
    const isNewest = latest.begin();
    try {
      const answer = await provisioningApi.overview(organisation.id);
      if (!isNewest()) return;
      setOverview(answer);
      setError(null);
    } catch (failure) {
      if (isNewest()) setError(messageOf(failure, 'Could not load its sign-in and provisioning.'));
    }
  }, [organisation.id, latest]);
  const loadBoth = useCallback(async () => {
    await Promise.all([load(), reload()]);
  }, [load, reload]);

  useEffect(() => {
    // After the first paint, as the organisations page reads its overview.
    const timer = window.setTimeout(() => void load(), 0);
    return () => window.clearTimeout(timer);
  }, [load]);

  return (
    <section className={styles.orgSection} aria-labelledby={heading}>
      <h4 id={heading}>Sign-in and provisioning</h4>
      <div role="alert">{error && <p className={styles.error}>{error}</p>}</div>
      {error && (
        <button type="button" className="button button--secondary button--sm" onClick={() => void load()}>
          Try again
        </button>
      )}
      {overview === null ? (
        !error && <p role="status">Loading its sign-in and provisioning…</p>
      ) : (
        <>
          <SignInPart organisation={organisation} signIn={overview.signIn} onChanged={loadBoth} />
          <ScimTokens organisation={organisation} overview={overview} onChanged={load} />
          <GroupsPart organisation={organisation} offered={overview.groups} groups={groups} onChanged={load} />
          <CallsPart overview={overview} onRefresh={load} />
        </>
      )}
    </section>
  );
}
