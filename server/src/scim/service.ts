import type { Auth, UserRecord } from 'firebase-admin/auth';

import type { Licences } from '../auth/licences.js';
import { toReaderAccount, type ReaderAccount } from '../auth/readers.js';
import type { AuditEvent } from '../db/audit.js';
import type { Database } from '../db/database.js';
import type { Organisation } from '../db/licences.js';
import {
  changeGroupMembers,
  deleteScimUser,
  endReaderHoldings,
  organisationGroups,
  saveScimUser,
  scimGroupMembers,
  scimUser,
  scimUserNamed,
  scimUsers,
  type ScimToken,
  type ScimUserRow,
} from '../db/scim.js';
import type { SharedState } from '../shared.js';
import {
  listResponse,
  patchGroup,
  patchUser,
  readFilter,
  readPage,
  readUser,
  SCHEMAS,
  ScimError,
  type GroupChange,
  type ScimUserInput,
} from './protocol.js';

/** Who calls: the organisation a token provisions, the token, and where its resources live. */
export interface ScimCaller {
  organisation: Organisation;
  token: ScimToken;
  /** The portal's origin, for each resource's `meta.location`. */
  origin: string;
  /** Writes an event to the audit trail (with the call's client address where those are kept). */
  audit(event: AuditEvent): void;
}

export interface ScimServiceOptions {
  auth: Auth;
  db: () => Database;
  licences: Licences;
  shared: SharedState;
  /** How long a session cookie lives: a revocation is remembered that long. */
  sessionMaxAgeSeconds: number;
  /** Forgets a reader's cached sessions and account on every replica. */
  forgetReader(uid: string): Promise<void>;
  /** The readers list follows each change. */
  readerChanged(account: ReaderAccount): void;
  readerRemoved(uid: string): void;
  clock?: () => number;
}

const firebaseCode = (error: unknown): string | undefined => (error as { code?: string } | null)?.code;

/** Account changes that the identity service refuses because of the data, as SCIM errors. */
function accountRefusal(error: unknown): never {
  const code = firebaseCode(error);
  if (code === 'auth/email-already-exists')
    throw new ScimError(409, 'Another account already has this e-mail address', 'uniqueness');
  if (code === 'auth/invalid-email') throw new ScimError(400, 'The e-mail address is not valid', 'invalidValue');
  if (code === 'auth/invalid-display-name') throw new ScimError(400, 'The displayName is not valid', 'invalidValue');
  throw error;
}

/**
 * SCIM 2.0 for one organisation's readers: its client (Okta, Entra, any directory) makes,
 * finds, changes, deactivates and deletes readers at the organisation's domains and puts them
 * in the groups an administrator offered it. A reader is a Firebase account (its e-mail, its
 * name, `disabled` as SCIM's `active`) and a row of what SCIM says of them. Deactivating or
 * deleting ends every credential the reader holds, on every replica, and takes away what was
 * given to them alone, so a reactivation gives back what the organisation licenses and nothing
 * more. Every change is written to the audit trail with the client as its actor.
 */
export class ScimService {
  constructor(private readonly options: ScimServiceOptions) {}

  private get db(): Database {
    return this.options.db();
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }

  private record(
    caller: ScimCaller,
    kind: AuditEvent['kind'],
    subject: { uid: string; email: string },
    detail: Record<string, unknown>,
  ): void {
    caller.audit({
      kind,
      actorUid: null,
      actorEmail: `scim:${caller.organisation.id}`,
      subjectUid: subject.uid,
      subjectEmail: subject.email,
      detail: {
        organisation: caller.organisation.id,
        client: { token: caller.token.id, name: caller.token.name },
        ...detail,
      },
    });
  }

  private location(caller: ScimCaller, kind: 'Users' | 'Groups', id: string): string {
    return `${caller.origin}/scim/v2/${kind}/${encodeURIComponent(id)}`;
  }

  /** The e-mail must be at one of the organisation's domains: a token provisions nobody else. */
  private checkDomain(caller: ScimCaller, email: string): void {
    const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
    const { organisation } = caller;
    if (!organisation.domains.includes(domain))
      throw new ScimError(
        400,
        `${email} is not at a domain of ${organisation.name} (${organisation.domains.join(', ') || 'it has none'}): this client provisions only its own readers`,
        'invalidValue',
      );
  }

  private async groupsOf(caller: ScimCaller, emails: readonly string[]): Promise<Map<string, string[]>> {
    const offered = await organisationGroups(this.db, caller.organisation.id);
    const byEmail = new Map<string, string[]>();
    if (emails.length === 0 || offered.length === 0) return byEmail;
    const rows = await this.db.query<{ email: string; groups: string[] }>(
      'select email, groups from reader_memberships where email = any($1::text[])',
      [[...emails]],
    );
    for (const row of rows)
      byEmail.set(
        row.email,
        row.groups.filter((group) => offered.includes(group)),
      );
    return byEmail;
  }

  private userResource(
    caller: ScimCaller,
    row: ScimUserRow,
    account: UserRecord | undefined,
    groups: string[],
  ): Record<string, unknown> {
    const labels = new Map(this.options.licences.snapshot.groups.map((group) => [group.name, group.label]));
    return {
      schemas: [SCHEMAS.user],
      id: row.uid,
      ...(row.externalId === null ? {} : { externalId: row.externalId }),
      userName: row.userName,
      name: {
        ...(row.givenName === null ? {} : { givenName: row.givenName }),
        ...(row.familyName === null ? {} : { familyName: row.familyName }),
      },
      ...(row.displayName === null ? {} : { displayName: row.displayName }),
      emails: [{ value: account?.email ?? row.email, type: 'work', primary: true }],
      active: account !== undefined && !account.disabled,
      groups: groups.map((group) => ({
        value: group,
        display: labels.get(group) ?? group,
        $ref: this.location(caller, 'Groups', group),
      })),
      meta: {
        resourceType: 'User',
        created: row.createdAt,
        lastModified: row.updatedAt,
        location: this.location(caller, 'Users', row.uid),
        version: `W/"${Date.parse(row.updatedAt)}"`,
      },
    };
  }

  private async accounts(uids: readonly string[]): Promise<Map<string, UserRecord>> {
    const found = new Map<string, UserRecord>();
    for (let start = 0; start < uids.length; start += 100) {
      const { users } = await this.options.auth.getUsers(uids.slice(start, start + 100).map((uid) => ({ uid })));
      for (const user of users) found.set(user.uid, user);
    }
    return found;
  }

  private async resources(caller: ScimCaller, rows: ScimUserRow[]): Promise<Record<string, unknown>[]> {
    const [accounts, groups] = await Promise.all([
      this.accounts(rows.map((row) => row.uid)),
      this.groupsOf(
        caller,
        rows.map((row) => row.email),
      ),
    ]);
    return rows.map((row) => this.userResource(caller, row, accounts.get(row.uid), groups.get(row.email) ?? []));
  }

  private async existing(caller: ScimCaller, uid: string): Promise<{ row: ScimUserRow; account: UserRecord }> {
    const row = await scimUser(this.db, caller.organisation.id, uid);
    // Another organisation's reader, or anyone SCIM did not make, is no user of this client.
    if (row === null) throw new ScimError(404, `No User "${uid}" in ${caller.organisation.name}`);
    try {
      return { row, account: await this.options.auth.getUser(uid) };
    } catch (error) {
      if (firebaseCode(error) !== 'auth/user-not-found') throw error;
      await deleteScimUser(this.db, uid);
      throw new ScimError(404, `No User "${uid}" in ${caller.organisation.name}: the account was removed`);
    }
  }

  async listUsers(caller: ScimCaller, query: { filter?: string; startIndex?: string; count?: string }) {
    const page = readPage(query);
    const filter = query.filter ? readFilter(query.filter, ['username', 'externalid', 'id']) : null;
    const { users, total } = await scimUsers(this.db, caller.organisation.id, filter, page);
    return listResponse(await this.resources(caller, users), total, page.start);
  }

  async getUser(caller: ScimCaller, uid: string) {
    const { row, account } = await this.existing(caller, uid);
    const groups = await this.groupsOf(caller, [row.email]);
    return this.userResource(caller, row, account, groups.get(row.email) ?? []);
  }

  private inputOf(row: ScimUserRow, account: UserRecord): ScimUserInput {
    return {
      userName: row.userName,
      email: (account.email ?? row.email).toLowerCase(),
      externalId: row.externalId,
      givenName: row.givenName,
      familyName: row.familyName,
      displayName: row.displayName,
      active: !account.disabled,
    };
  }

  private async checkUserName(caller: ScimCaller, userName: string, uid: string | null): Promise<void> {
    const holder = await scimUserNamed(this.db, caller.organisation.id, userName);
    if (holder !== null && holder !== uid)
      throw new ScimError(
        409,
        `A User with userName "${userName}" already exists in ${caller.organisation.name}`,
        'uniqueness',
      );
  }

  private displayNameOf(input: ScimUserInput): string | null {
    return input.displayName ?? ([input.givenName, input.familyName].filter(Boolean).join(' ') || null);
  }

  /** POST /Users: a new reader, or a reader who already signed in at the organisation's domain (adopted). */
  async createUser(caller: ScimCaller, body: unknown) {
    const input = readUser(body);
    this.checkDomain(caller, input.email);
    if (input.userName.includes('@')) this.checkDomain(caller, input.userName);
    await this.checkUserName(caller, input.userName, null);
    const { auth } = this.options;
    let account: UserRecord | null = null;
    try {
      account = await auth.getUserByEmail(input.email);
    } catch (error) {
      if (firebaseCode(error) !== 'auth/user-not-found') throw error;
    }
    if (account !== null) {
      const [provisioned] = await this.db.query<{ organisation_id: string }>(
        'select organisation_id from scim_users where uid = $1',
        [account.uid],
      );
      if (provisioned) throw new ScimError(409, `${input.email} is already provisioned as another User`, 'uniqueness');
      if (toReaderAccount(account).claimedGroups.length > 0)
        throw new ScimError(
          409,
          `${input.email} is an account the portal's administrators manage: it cannot be provisioned`,
          'uniqueness',
        );
    }
    const created = account === null;
    const displayName = this.displayNameOf(input);
    const uid =
      account?.uid ??
      (
        await auth
          .createUser({
            email: input.email,
            // The organisation's domain is its own: the address is as verified as the organisation.
            emailVerified: true,
            disabled: !input.active,
            ...(displayName ? { displayName } : {}),
          })
          .catch(accountRefusal)
      ).uid;
    let row: ScimUserRow;
    try {
      row = await this.db.transaction(async (tx) => {
        const saved = await saveScimUser(tx, { uid, organisationId: caller.organisation.id, ...input });
        if (!created) {
          const ended = input.active ? null : await endReaderHoldings(tx, uid, input.email);
          await auth.updateUser(uid, { emailVerified: true, disabled: !input.active }).catch(accountRefusal);
          if (ended) await this.forget(uid, ended);
        }
        return saved;
      });
    } catch (error) {
      // Nothing half-made: the account this call made goes with the row that failed.
      if (created) await auth.deleteUser(uid).catch(() => undefined);
      if (error instanceof Error && /duplicate key|unique/i.test(error.message))
        throw new ScimError(
          409,
          `A User with userName "${input.userName}" already exists in ${caller.organisation.name}`,
          'uniqueness',
        );
      throw error;
    }
    const after = await auth.getUser(uid);
    this.options.readerChanged(toReaderAccount(after));
    this.record(
      caller,
      'scim.user',
      { uid, email: input.email },
      { action: created ? 'created' : 'adopted', after: summary(input) },
    );
    return this.userResource(caller, row, after, []);
  }

  async replaceUser(caller: ScimCaller, uid: string, body: unknown) {
    const { row, account } = await this.existing(caller, uid);
    return this.change(caller, row, account, readUser(body));
  }

  async patchUser(caller: ScimCaller, uid: string, body: unknown) {
    const { row, account } = await this.existing(caller, uid);
    return this.change(caller, row, account, patchUser(this.inputOf(row, account), body));
  }

  /** Revokes at once, on every replica, what `endReaderHoldings` ended, and every session of the reader. */
  private async forget(uid: string, ended: { tokens: string[]; grants: string[] }): Promise<void> {
    const { shared, auth } = this.options;
    await shared.setRevokedAt(uid, Math.floor(this.now() / 1000), this.options.sessionMaxAgeSeconds);
    await Promise.all([
      this.options.forgetReader(uid),
      ...ended.tokens.map((token) => shared.broadcast({ token })),
      ...ended.grants.map((grant) => shared.broadcast({ grant })),
    ]);
    await auth.revokeRefreshTokens(uid).catch(() => undefined);
  }

  private async change(caller: ScimCaller, row: ScimUserRow, account: UserRecord, after: ScimUserInput) {
    const before = this.inputOf(row, account);
    this.checkDomain(caller, after.email);
    // A userName that is an address (Okta's and Entra's default) is held to the same domains.
    if (after.userName.includes('@')) this.checkDomain(caller, after.userName);
    if (after.userName.toLowerCase() !== before.userName.toLowerCase())
      await this.checkUserName(caller, after.userName, row.uid);
    const deactivating = before.active && !after.active;
    const { auth } = this.options;
    const displayName = this.displayNameOf(after);
    let ended: Awaited<ReturnType<typeof endReaderHoldings>> | null = null;
    const saved = await this.db.transaction(async (tx) => {
      const kept = await saveScimUser(tx, { uid: row.uid, organisationId: caller.organisation.id, ...after });
      if (after.email !== before.email)
        await tx
          .query('update reader_memberships set email = $2 where email = $1', [before.email, after.email])
          .catch(() => {
            throw new ScimError(409, `${after.email} already has a placement of its own in the portal`, 'uniqueness');
          });
      if (deactivating) ended = await endReaderHoldings(tx, row.uid, before.email);
      // The account last, inside the transaction: when the identity service refuses, no row changed.
      await auth
        .updateUser(row.uid, {
          disabled: !after.active,
          ...(after.email === before.email ? {} : { email: after.email, emailVerified: true }),
          displayName,
        })
        .catch(accountRefusal);
      return kept;
    });
    if (ended !== null) await this.forget(row.uid, ended);
    // A new address moves the reader's organisation by domain (within this one's domains): the data is read again.
    if (ended !== null || after.email !== before.email) await this.options.licences.changed();
    const fresh = await auth.getUser(row.uid);
    this.options.readerChanged(toReaderAccount(fresh));
    const action = deactivating ? 'deactivated' : !before.active && after.active ? 'reactivated' : 'changed';
    this.record(
      caller,
      'scim.user',
      { uid: row.uid, email: after.email },
      {
        action,
        before: summary(before),
        after: summary(after),
        ...(ended === null ? {} : { ended: endedSummary(ended) }),
      },
    );
    const groups = await this.groupsOf(caller, [after.email]);
    return this.userResource(caller, saved, fresh, groups.get(after.email) ?? []);
  }

  /** DELETE /Users/{id}: every credential ended, then the account and its row removed. */
  async deleteUser(caller: ScimCaller, uid: string): Promise<void> {
    const { row, account } = await this.existing(caller, uid);
    const email = (account.email ?? row.email).toLowerCase();
    const ended = await this.db.transaction(async (tx) => {
      const holdings = await endReaderHoldings(tx, uid, email);
      await tx.query('delete from reader_memberships where email = $1', [email]);
      await deleteScimUser(tx, uid);
      // Disabled first (refused everywhere at once), then removed once the rows are gone.
      await this.options.auth.updateUser(uid, { disabled: true });
      return holdings;
    });
    await this.forget(uid, ended);
    await this.options.auth.deleteUser(uid).catch((error: unknown) => {
      if (firebaseCode(error) !== 'auth/user-not-found') throw error;
    });
    await this.options.licences.changed();
    this.options.readerRemoved(uid);
    this.record(
      caller,
      'scim.user',
      { uid, email },
      { action: 'deleted', before: summary(this.inputOf(row, account)), ended: endedSummary(ended) },
    );
  }

  // Groups: the administrators' groups this organisation was offered, by name.

  private async offered(caller: ScimCaller): Promise<{ name: string; label: string }[]> {
    const names = await organisationGroups(this.db, caller.organisation.id);
    return this.options.licences.snapshot.groups.filter((group) => names.includes(group.name));
  }

  private async group(caller: ScimCaller, id: string): Promise<{ name: string; label: string }> {
    const group = (await this.offered(caller)).find((candidate) => candidate.name === id);
    if (!group) throw new ScimError(404, `No Group "${id}" is offered to ${caller.organisation.name}`);
    return group;
  }

  private async groupResource(caller: ScimCaller, group: { name: string; label: string }, members = true) {
    const rows = members ? await scimGroupMembers(this.db, caller.organisation.id, group.name) : [];
    return {
      schemas: [SCHEMAS.group],
      id: group.name,
      displayName: group.label,
      ...(members
        ? {
            members: rows.map((row) => ({
              value: row.uid,
              display: row.userName,
              $ref: this.location(caller, 'Users', row.uid),
            })),
          }
        : {}),
      meta: { resourceType: 'Group', location: this.location(caller, 'Groups', group.name) },
    };
  }

  async listGroups(
    caller: ScimCaller,
    query: { filter?: string; startIndex?: string; count?: string; excludedAttributes?: string },
  ) {
    const page = readPage(query);
    const filter = query.filter ? readFilter(query.filter, ['displayname', 'id']) : null;
    const groups = (await this.offered(caller)).filter(
      (group) =>
        filter === null || (filter.attribute === 'id' ? group.name === filter.value : matchesName(group, filter.value)),
    );
    const members = !/(^|,)\s*members\s*(,|$)/i.test(query.excludedAttributes ?? '');
    const shown = groups.slice(page.start - 1, page.start - 1 + page.count);
    return listResponse(
      await Promise.all(shown.map((group) => this.groupResource(caller, group, members))),
      groups.length,
      page.start,
    );
  }

  async getGroup(caller: ScimCaller, id: string, query: { excludedAttributes?: string } = {}) {
    const members = !/(^|,)\s*members\s*(,|$)/i.test(query.excludedAttributes ?? '');
    return this.groupResource(caller, await this.group(caller, id), members);
  }

  /** POST /Groups: a group is never made here; a displayName that names an offered group links to it. */
  async createGroup(caller: ScimCaller, body: unknown) {
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;
    const displayName = fields?.displayName;
    if (typeof displayName !== 'string' || displayName.trim() === '')
      throw new ScimError(400, '"displayName" is required', 'invalidValue');
    const group = (await this.offered(caller)).find((candidate) => matchesName(candidate, displayName));
    if (!group)
      throw new ScimError(
        400,
        `No group "${displayName.trim()}" is offered to ${caller.organisation.name}: the portal's administrators choose the groups an organisation may use (in /admin, Organisations)`,
        'invalidValue',
      );
    if (fields && 'members' in fields)
      await this.applyGroupChanges(caller, group, [{ kind: 'replace', members: memberList(fields.members) }]);
    return this.groupResource(caller, group);
  }

  async replaceGroup(caller: ScimCaller, id: string, body: unknown) {
    const group = await this.group(caller, id);
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    await this.applyGroupChanges(
      caller,
      group,
      patchGroup(
        {
          schemas: [SCHEMAS.patch],
          Operations: [{ op: 'replace', value: { displayName: fields.displayName, members: fields.members ?? [] } }],
        },
        group.label,
      ),
    );
    return this.groupResource(caller, group);
  }

  async patchGroup(caller: ScimCaller, id: string, body: unknown) {
    const group = await this.group(caller, id);
    await this.applyGroupChanges(caller, group, patchGroup(body, group.label));
    return this.groupResource(caller, group);
  }

  /** DELETE /Groups/{id}: the organisation's readers leave the group; the group stays the portal's. */
  async deleteGroup(caller: ScimCaller, id: string): Promise<void> {
    const group = await this.group(caller, id);
    await this.applyGroupChanges(caller, group, [{ kind: 'replace', members: [] }]);
  }

  /** Works the changes out on the group's current members, checks every member is this organisation's, writes once. */
  private async applyGroupChanges(
    caller: ScimCaller,
    group: { name: string; label: string },
    changes: GroupChange[],
  ): Promise<void> {
    if (changes.length === 0) return;
    const current = await scimGroupMembers(this.db, caller.organisation.id, group.name);
    const members = new Set(current.map((row) => row.uid));
    const named = new Set(changes.flatMap((change) => change.members));
    const rows = new Map<string, ScimUserRow>(current.map((row) => [row.uid, row]));
    for (const uid of named) {
      if (rows.has(uid)) continue;
      const row = await scimUser(this.db, caller.organisation.id, uid);
      if (row === null)
        throw new ScimError(400, `Member "${uid}" is no User of ${caller.organisation.name}`, 'invalidValue');
      rows.set(uid, row);
    }
    for (const change of changes) {
      if (change.kind === 'replace') members.clear();
      for (const uid of change.members)
        if (change.kind === 'remove') members.delete(uid);
        else members.add(uid);
    }
    const before = new Set(current.map((row) => row.uid));
    const add = [...members].filter((uid) => !before.has(uid));
    const remove = [...before].filter((uid) => !members.has(uid));
    if (add.length === 0 && remove.length === 0) return;
    const email = (uid: string) => (rows.get(uid) as ScimUserRow).email;
    await this.db.transaction((tx) =>
      changeGroupMembers(tx, group.name, { add: add.map(email), remove: remove.map(email) }),
    );
    await this.options.licences.changed();
    for (const uid of [...add, ...remove]) await this.options.forgetReader(uid);
    for (const uid of add)
      this.record(caller, 'scim.group', { uid, email: email(uid) }, { action: 'added', group: group.name });
    for (const uid of remove)
      this.record(caller, 'scim.group', { uid, email: email(uid) }, { action: 'removed', group: group.name });
  }
}

const matchesName = (group: { name: string; label: string }, name: string): boolean => {
  const wanted = name.trim().toLowerCase();
  return group.name.toLowerCase() === wanted || group.label.toLowerCase() === wanted;
};

function memberList(value: unknown): string[] {
  return patchGroup(
    { schemas: [SCHEMAS.patch], Operations: [{ op: 'replace', path: 'members', value: value ?? [] }] },
    '',
  ).flatMap((change) => change.members);
}

const summary = (input: ScimUserInput): Record<string, unknown> => ({
  userName: input.userName,
  email: input.email,
  externalId: input.externalId,
  active: input.active,
});

const endedSummary = (ended: { tokens: string[]; feedTokens: number; grants: string[]; readerGrants: number }) => ({
  tokens: ended.tokens.length,
  feedTokens: ended.feedTokens,
  oauthGrants: ended.grants.length,
  readerGrants: ended.readerGrants,
});
