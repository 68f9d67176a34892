import type { ReaderChange } from '@portal/contract';

import { EMAIL_PATTERN, ReaderDirectory, ReaderError, type ReaderAccount } from './auth/readers.js';
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

/** The group that administers the portal (the policy's administration section). */
export const ADMIN_GROUP = 'admin';

/** An account that can administer now: in the admin group and not disabled. */
export const administers = (account: Pick<ReaderAccount, 'disabled' | 'groups'>): boolean =>
  !account.disabled && account.groups.includes(ADMIN_GROUP);

/** What a guarded change does to an account, in the words of a refusal. */
type GuardedChange = 'disable' | 'remove' | 'demote';
const VERBS: Record<GuardedChange, string> = {
  disable: 'disable',
  remove: 'remove',
  demote: 'take the admin group from',
};

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
  /** Guarded changes one after another: two administrators demoting each other at once cannot both pass the count. */
  private guarded: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ReaderServiceOptions) {}

  /**
   * Refuses a change that would lock the portal out, before anything is changed: nobody
   * disables, removes or demotes their own account (another administrator can), and the
   * last administrator who can sign in stays one. Throws a ReaderError `guarded`.
   */
  private async guard(by: Actor, target: ReaderAccount, change: GuardedChange): Promise<void> {
    const verb = VERBS[change];
    if (by.uid !== null && by.uid === target.uid)
      throw new ReaderError('guarded', `You cannot ${verb} your own account; another administrator can`);
    if (!administers(target)) return;
    const others = (await this.options.directory.all()).filter(
      (account) => account.uid !== target.uid && administers(account),
    );
    if (others.length === 0)
      throw new ReaderError(
        'guarded',
        `${target.email ?? target.uid} is the last administrator; make another reader an administrator first`,
      );
  }

  /** Runs a guarded change after the ones before it have finished (this process's part of the guard). */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.guarded.then(work, work);
    this.guarded = run.catch(() => undefined);
    return run;
  }

  /** The admin group would go from the account if an administrator set `groups` (a domain rule's stays). */
  private static demotes(account: ReaderAccount, groups: readonly string[]): boolean {
    if (!account.groups.includes(ADMIN_GROUP)) return false;
    const byDomain = !account.claimedGroups.includes(ADMIN_GROUP);
    return !byDomain && !groups.includes(ADMIN_GROUP);
  }

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
    // The same checks as an invitation by password: a group the policy has, an address.
    ReaderDirectory.checkGroups(groups);
    if (groups.length === 0) throw new ReaderError('unknown-group', 'name at least one group');
    const address = email.trim().toLowerCase();
    if (!EMAIL_PATTERN.test(address)) throw new ReaderError('bad-email', `"${email}" is not an e-mail address`);
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
    return this.exclusive(async () => {
      const current = await this.options.directory.get(uid);
      if (ReaderService.demotes(current, groups)) await this.guard(by, current, 'demote');
      const change = await this.options.directory.setGroups(uid, groups);
      await this.changedGroups(by, change);
      return change;
    });
  }

  /** Adds a group to the reader with this e-mail; nothing is changed or recorded when they had it. */
  async grant(by: Actor, email: string, group: string): Promise<ReaderChange & { changed: boolean }> {
    const change = await this.options.directory.grant(email, group);
    return { ...change, changed: await this.changedGroups(by, change) };
  }

  /** Takes a group from the reader with this e-mail; nothing is changed or recorded when they did not have it. */
  async revoke(by: Actor, email: string, group: string): Promise<ReaderChange & { changed: boolean }> {
    return this.exclusive(async () => {
      if (group === ADMIN_GROUP) {
        const current = await this.options.directory.find(email);
        if (
          ReaderService.demotes(
            current,
            current.claimedGroups.filter((name) => name !== group),
          )
        )
          await this.guard(by, current, 'demote');
      }
      const change = await this.options.directory.revoke(email, group);
      return { ...change, changed: await this.changedGroups(by, change) };
    });
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
    if (disabled) return this.exclusive(() => this.disable(by, uid));
    return this.changeDisabled(by, uid, false);
  }

  private async disable(by: Actor, uid: string): Promise<ReaderChange> {
    await this.guard(by, await this.options.directory.get(uid), 'disable');
    return this.changeDisabled(by, uid, true);
  }

  private async changeDisabled(by: Actor, uid: string, disabled: boolean): Promise<ReaderChange> {
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
    return this.exclusive(async () => {
      await this.guard(by, await this.options.directory.get(uid), 'remove');
      return this.removeNow(by, uid);
    });
  }

  private async removeNow(by: Actor, uid: string): Promise<ReaderAccount> {
    const before = await this.options.directory.remove(uid);
    this.options.removed?.(uid);
    const db = this.options.database?.() ?? null;
    if (before.email && db) await withdrawInvitation(db, before.email);
    await this.record(by, 'admin.remove', { uid, email: before.email }, { before: summary(before) });
    return before;
  }
}
