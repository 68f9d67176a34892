import type { ReaderAccount, ReaderDirectory } from './auth/readers.js';
import { saveInvitation, withdrawInvitation } from './db/activity.js';
import type { AuditEvent } from './db/audit.js';
import type { Database } from './db/database.js';

/** Who makes a change, as the audit trail names them, and where their events go. */
export interface Actor {
  /** The administrator's account; null for the command line, which acts as no account. */
  uid: string | null;
  /** The administrator's e-mail, or `cli:<operating-system user>` for the command line. */
  email: string;
  /** The administrator's groups when they acted. */
  groups?: readonly string[];
  /** Added to every event's detail (the command line's command, user and host). */
  detail?: Record<string, unknown>;
  /** Writes one event to the audit trail; awaited, so a command can wait until it is kept. */
  record(event: AuditEvent): void | Promise<void>;
}

export interface ReaderServiceOptions {
  directory: ReaderDirectory;
  /** A reader's account was made: it joins the caller's lists (it has no sessions to drop). */
  added?(account: ReaderAccount): void;
  /** A reader's account changed: what is cached of it (lists, sessions) is dropped. */
  changed?(account: ReaderAccount): void;
  /** A reader's account was removed. */
  removed?(uid: string): void;
  /** The database, for invitations by provider; null while it cannot be reached. */
  database?(): Database | null;
}

/** Before and after of a change to a reader. */
export interface ReaderChange {
  before: ReaderAccount;
  after: ReaderAccount;
}

/** What the trail keeps of an account before or after a change. */
const summary = (account: ReaderAccount): Record<string, unknown> => ({
  groups: account.groups,
  claimedGroups: account.claimedGroups,
  disabled: account.disabled,
});

/**
 * The administrator's changes to readers, each written to the audit trail with who made
 * it: the one way both `/api/admin` and `npm run readers` change an account, so neither
 * can change one without a record. The identity service does the change (ReaderDirectory);
 * this adds the record and tells the caller's caches. No web-framework code.
 */
export class ReaderService {
  constructor(private readonly options: ReaderServiceOptions) {}

  get directory(): ReaderDirectory {
    return this.options.directory;
  }

  private async record(
    by: Actor,
    kind: AuditEvent['kind'],
    subject: { uid?: string | null; email?: string | null },
    detail: Record<string, unknown>,
  ): Promise<void> {
    await by.record({
      kind,
      actorUid: by.uid,
      actorEmail: by.email,
      ...(by.groups ? { groups: by.groups } : {}),
      subjectUid: subject.uid ?? null,
      subjectEmail: subject.email ?? null,
      detail: { ...by.detail, ...detail },
    });
  }

  /** Creates an account in `groups`; returns it and the link that sets its password. */
  async invite(
    by: Actor,
    email: string,
    groups: readonly string[],
  ): Promise<{ account: ReaderAccount; passwordLink: string }> {
    const address = email.trim().toLowerCase();
    const { account, passwordLink } = await this.options.directory.invite(address, groups);
    this.options.added?.(account);
    await this.record(
      by,
      'admin.invite',
      { uid: account.uid, email: address },
      { method: 'password', after: summary(account) },
    );
    return { account, passwordLink };
  }

  /** Invites an e-mail that will sign in with a provider (GitHub): it gets `groups` at its first sign-in. */
  async inviteByProvider(by: Actor, email: string, groups: readonly string[], db: Database): Promise<void> {
    const address = email.trim().toLowerCase();
    await saveInvitation(db, { email: address, groups, invitedBy: by.email });
    await this.record(by, 'admin.invite', { email: address }, { method: 'provider', after: { groups } });
  }

  /** Withdraws an open invitation; false when there was none. */
  async withdrawInvitation(by: Actor, email: string, db: Database): Promise<boolean> {
    if (!(await withdrawInvitation(db, email))) return false;
    await this.record(by, 'admin.withdraw-invitation', { email: email.toLowerCase() }, {});
    return true;
  }

  /** Sets the groups an administrator gives the reader. */
  async setGroups(by: Actor, uid: string, groups: readonly string[]): Promise<ReaderChange> {
    const change = await this.options.directory.setGroups(uid, groups);
    await this.changedGroups(by, change);
    return change;
  }

  /** Adds a group to the reader with this e-mail; nothing is changed or recorded when they had it. */
  async grant(by: Actor, email: string, group: string): Promise<ReaderChange & { changed: boolean }> {
    const change = await this.options.directory.grant(email, group);
    return { ...change, changed: await this.changedGroups(by, change) };
  }

  /** Takes a group from the reader with this e-mail; nothing is changed or recorded when they did not have it. */
  async revoke(by: Actor, email: string, group: string): Promise<ReaderChange & { changed: boolean }> {
    const change = await this.options.directory.revoke(email, group);
    return { ...change, changed: await this.changedGroups(by, change) };
  }

  /** Records a change of groups, if there was one (a grant of a group the reader had is none). */
  private async changedGroups(by: Actor, { before, after }: ReaderChange): Promise<boolean> {
    if (before !== after) this.options.changed?.(after);
    if (before === after) return false;
    await this.record(
      by,
      'admin.groups',
      { uid: after.uid, email: after.email },
      { before: summary(before), after: summary(after) },
    );
    return true;
  }

  /** Disables (and ends every session of) or enables an account. */
  async setDisabled(by: Actor, uid: string, disabled: boolean): Promise<ReaderChange> {
    const { before, after } = await this.options.directory.setDisabled(uid, disabled);
    this.options.changed?.(after);
    await this.record(
      by,
      disabled ? 'admin.disable' : 'admin.enable',
      { uid, email: after.email },
      { before: summary(before), after: summary(after) },
    );
    return { before, after };
  }

  /** Deletes an account, and its open invitation when the database is reachable. */
  async remove(by: Actor, uid: string): Promise<ReaderAccount> {
    const before = await this.options.directory.remove(uid);
    this.options.removed?.(uid);
    const db = this.options.database?.() ?? null;
    if (before.email && db) await withdrawInvitation(db, before.email);
    await this.record(by, 'admin.remove', { uid, email: before.email }, { before: summary(before) });
    return before;
  }
}
