import type { Auth, UserRecord } from 'firebase-admin/auth';

import { claimedGroups, groupsOfAccount, policy } from '@portal/access';
import type { ReaderAccount } from '@portal/contract';

/** An account as an administrator sees it: the contract's (who, in which groups, and why). */
export type { ReaderAccount };

export type ReaderErrorCode =
  | 'unknown-reader'
  | 'unknown-group'
  | 'exists'
  | 'domain-group'
  | 'bad-email'
  /** The change would lock the portal out: one's own account, or the last administrator. */
  | 'guarded';

/** A request an administrator can fix: the reader or group named does not fit. */
export class ReaderError extends Error {
  constructor(
    readonly code: ReaderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ReaderError';
  }
}

export const EMAIL_PATTERN = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

const iso = (utc: string | undefined): string | null => (utc ? new Date(utc).toISOString() : null);

export function toReaderAccount(user: UserRecord): ReaderAccount {
  const claims = user.customClaims ?? null;
  return {
    uid: user.uid,
    email: user.email ?? null,
    emailVerified: user.emailVerified,
    disabled: user.disabled,
    claimedGroups: claimedGroups(claims),
    groups: groupsOfAccount({ email: user.email ?? null, emailVerified: user.emailVerified, claims }),
    createdAt: iso(user.metadata.creationTime),
    lastSignInAt: iso(user.metadata.lastSignInTime),
    providers: user.providerData.map((provider) => provider.providerId),
  };
}

const notFound = (error: unknown): boolean => (error as { code?: string }).code === 'auth/user-not-found';

/**
 * The administrator's operations on readers, in Firebase Authentication: find, list,
 * invite, change groups, disable, enable and remove. Used by the readers command and the
 * admin API. No web-framework code.
 */
export class ReaderDirectory {
  constructor(private readonly auth: Auth) {}

  /** Checks group names against the access policy; throws naming the first unknown one. */
  static checkGroups(groups: readonly string[]): void {
    const unknown = groups.find((group) => !policy.groupNames.includes(group));
    if (unknown !== undefined)
      throw new ReaderError(
        'unknown-group',
        `"${unknown}" is not a group of the access policy (groups: ${policy.groupNames.join(', ')})`,
      );
  }

  private async userByEmail(email: string): Promise<UserRecord> {
    try {
      return await this.auth.getUserByEmail(email);
    } catch (error) {
      if (notFound(error)) throw new ReaderError('unknown-reader', `no reader has the e-mail address ${email}`);
      throw error;
    }
  }

  private async user(uid: string): Promise<UserRecord> {
    try {
      return await this.auth.getUser(uid);
    } catch (error) {
      if (notFound(error)) throw new ReaderError('unknown-reader', `no reader has the id ${uid}`);
      throw error;
    }
  }

  async find(email: string): Promise<ReaderAccount> {
    return toReaderAccount(await this.userByEmail(email));
  }

  async get(uid: string): Promise<ReaderAccount> {
    return toReaderAccount(await this.user(uid));
  }

  /** Every account, read in pages of 1,000. */
  async all(): Promise<ReaderAccount[]> {
    const accounts: ReaderAccount[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.auth.listUsers(1000, pageToken);
      accounts.push(...page.users.map(toReaderAccount));
      pageToken = page.pageToken;
    } while (pageToken);
    return accounts;
  }

  /** Every account, or those in `group`, sorted by e-mail. */
  async list(group?: string): Promise<ReaderAccount[]> {
    if (group !== undefined) ReaderDirectory.checkGroups([group]);
    return (await this.all())
      .filter((account) => group === undefined || account.groups.includes(group))
      .sort((a, b) => (a.email ?? '').localeCompare(b.email ?? ''));
  }

  /**
   * Creates an account in `groups` and returns a link to set its password. If anything
   * after the account's creation fails, the account is removed again: nothing half-done.
   */
  async invite(email: string, groups: readonly string[]): Promise<{ account: ReaderAccount; passwordLink: string }> {
    if (!EMAIL_PATTERN.test(email)) throw new ReaderError('bad-email', `"${email}" is not an e-mail address`);
    ReaderDirectory.checkGroups(groups);
    if (groups.length === 0) throw new ReaderError('unknown-group', 'name at least one group');
    try {
      const existing = await this.auth.getUserByEmail(email);
      throw new ReaderError(
        'exists',
        existing.disabled
          ? `${email} has an account, which is disabled: enable it from its row instead of inviting it again`
          : `${email} already has an account; change its groups instead`,
      );
    } catch (error) {
      if (error instanceof ReaderError) throw error;
      if (!notFound(error)) throw error;
    }
    const created = await this.auth.createUser({ email, emailVerified: false });
    try {
      await this.auth.setCustomUserClaims(created.uid, { [policy.claim]: [...groups] });
      const passwordLink = await this.auth.generatePasswordResetLink(email);
      return { account: toReaderAccount(await this.auth.getUser(created.uid)), passwordLink };
    } catch (error) {
      await this.auth.deleteUser(created.uid).catch(() => undefined);
      throw error;
    }
  }

  /** Sets the groups an administrator gives the reader (the claim); returns the account before and after. */
  async setGroups(uid: string, groups: readonly string[]): Promise<{ before: ReaderAccount; after: ReaderAccount }> {
    ReaderDirectory.checkGroups(groups);
    const user = await this.user(uid);
    const before = toReaderAccount(user);
    const claims = { ...(user.customClaims ?? {}), [policy.claim]: [...new Set(groups)] };
    await this.auth.setCustomUserClaims(uid, claims);
    return { before, after: await this.get(uid) };
  }

  async grant(email: string, group: string): Promise<{ before: ReaderAccount; after: ReaderAccount }> {
    ReaderDirectory.checkGroups([group]);
    const before = await this.find(email);
    if (before.claimedGroups.includes(group)) return { before, after: before };
    return this.setGroups(before.uid, [...before.claimedGroups, group]);
  }

  async revoke(email: string, group: string): Promise<{ before: ReaderAccount; after: ReaderAccount }> {
    ReaderDirectory.checkGroups([group]);
    const before = await this.find(email);
    if (!before.claimedGroups.includes(group) && before.groups.includes(group)) {
      const domain = (before.email ?? '').split('@')[1];
      throw new ReaderError(
        'domain-group',
        `${email} is in ${group} by the e-mail domain rule for ${domain}, not by an administrator; disable the account, or change the rule in packages/access/policy.js`,
      );
    }
    if (!before.claimedGroups.includes(group)) return { before, after: before };
    return this.setGroups(
      before.uid,
      before.claimedGroups.filter((name) => name !== group),
    );
  }

  /**
   * Disables or enables an account. Disabling also revokes its refresh tokens, so every
   * session ends at its next check, whichever server holds it.
   */
  async setDisabled(uid: string, disabled: boolean): Promise<{ before: ReaderAccount; after: ReaderAccount }> {
    const before = await this.get(uid);
    await this.auth.updateUser(uid, { disabled });
    if (disabled) await this.auth.revokeRefreshTokens(uid);
    return { before, after: await this.get(uid) };
  }

  async setDisabledByEmail(email: string, disabled: boolean): Promise<ReaderAccount> {
    return (await this.setDisabled((await this.find(email)).uid, disabled)).after;
  }

  /** Deletes the account. Its sessions end at their next check. */
  async remove(uid: string): Promise<ReaderAccount> {
    const before = await this.get(uid);
    await this.auth.deleteUser(uid);
    return before;
  }

  /**
   * Gives an account the groups of its invitation at its first sign-in, when its e-mail is
   * one the identity service vouches for: verified, or the one its GitHub identity carries.
   * Returns the account after, or null when the e-mail is not vouched for.
   */
  async applyInvitation(uid: string, groups: readonly string[]): Promise<ReaderAccount | null> {
    const user = await this.user(uid);
    const email = user.email?.toLowerCase();
    const vouched =
      user.emailVerified ||
      user.providerData.some(
        (provider) => provider.providerId === 'github.com' && provider.email?.toLowerCase() === email,
      );
    if (!email || !vouched) return null;
    return (await this.setGroups(uid, [...claimedGroups(user.customClaims ?? null), ...groups])).after;
  }
}

export interface ReaderQuery {
  /** Part of an e-mail address, case ignored. */
  q?: string;
  group?: string;
  status?: 'active' | 'disabled' | 'no-access';
  /**
   * Whether an account reads anything (its groups, its organisation's licences, its own
   * grants), for `status`; by its groups alone when not given.
   */
  reads?: (reader: ReaderAccount) => boolean;
  sort?: 'email' | 'created' | 'last-sign-in';
  page?: number;
  limit?: number;
}

/**
 * The readers as a list an administrator can search, filter and page through quickly:
 * kept in memory, loaded from the identity service at first use and again when older than
 * `maxAgeMs`, and updated at once by the administrator's own changes. Readers who appear
 * elsewhere (a new sign-up, the readers command) show up within `maxAgeMs`.
 */
export class ReaderIndex {
  private readers = new Map<string, ReaderAccount>();
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  /** Changes made while a load was under way, applied over what it brings (null: removed). */
  private changedDuringLoad = new Map<string, ReaderAccount | null>();

  constructor(
    private readonly directory: ReaderDirectory,
    private readonly maxAgeMs = 60_000,
  ) {}

  private load(): Promise<void> {
    this.loading ??= this.directory
      .all()
      .then((accounts) => {
        const readers = new Map(accounts.map((account) => [account.uid, account]));
        for (const [uid, account] of this.changedDuringLoad)
          if (account === null) readers.delete(uid);
          else readers.set(uid, account);
        this.readers = readers;
        this.loadedAt = Date.now();
      })
      .finally(() => {
        this.loading = null;
        this.changedDuringLoad.clear();
      });
    return this.loading;
  }

  /** Loads if never loaded; refreshes in the background when stale. */
  private async fresh(): Promise<void> {
    if (this.loadedAt === 0) await this.load();
    else if (Date.now() - this.loadedAt > this.maxAgeMs) void this.load().catch(() => undefined);
  }

  /** How many readers match `test`, from the list as it stands (loaded first if it never was). */
  async count(test: (reader: ReaderAccount) => boolean): Promise<number> {
    await this.fresh();
    let found = 0;
    for (const reader of this.readers.values()) if (test(reader)) found += 1;
    return found;
  }

  /** The readers that match `test`, from the list as it stands (loaded first if it never was). */
  async select(test: (reader: ReaderAccount) => boolean): Promise<ReaderAccount[]> {
    await this.fresh();
    return [...this.readers.values()].filter(test);
  }

  update(account: ReaderAccount): void {
    this.readers.set(account.uid, account);
    if (this.loading) this.changedDuringLoad.set(account.uid, account);
  }

  delete(uid: string): void {
    this.readers.delete(uid);
    if (this.loading) this.changedDuringLoad.set(uid, null);
  }

  async query(query: ReaderQuery): Promise<{ readers: ReaderAccount[]; total: number; page: number; pages: number }> {
    await this.fresh();
    const q = query.q?.trim().toLowerCase() ?? '';
    // A whole address the list does not know yet (an account made since the last load: a
    // sign-up, the readers command) is asked of the identity service, so an administrator
    // who searches for a reader by e-mail finds them at once.
    if (
      /^[^\s@]+@[^\s@]+$/.test(q) &&
      ![...this.readers.values()].some((reader) => reader.email?.toLowerCase() === q)
    ) {
      const account = await this.directory.find(q).catch(() => null);
      if (account) this.update(account);
    }
    const reads = query.reads ?? ((reader: ReaderAccount) => reader.groups.length > 0);
    const matching = [...this.readers.values()].filter(
      (reader) =>
        (q === '' || (reader.email ?? '').toLowerCase().includes(q)) &&
        (query.group === undefined || reader.groups.includes(query.group)) &&
        (query.status === undefined ||
          (query.status === 'disabled'
            ? reader.disabled
            : query.status === 'no-access'
              ? !reader.disabled && !reads(reader)
              : !reader.disabled && reads(reader))),
    );
    const by = query.sort ?? 'email';
    const time = (value: string | null): number => (value ? Date.parse(value) : 0);
    matching.sort((a, b) =>
      by === 'created'
        ? time(b.createdAt) - time(a.createdAt)
        : by === 'last-sign-in'
          ? time(b.lastSignInAt) - time(a.lastSignInAt)
          : (a.email ?? '').localeCompare(b.email ?? ''),
    );
    const limit = Math.min(Math.max(query.limit ?? 50, 1), 200);
    const pages = Math.max(1, Math.ceil(matching.length / limit));
    const page = Math.min(Math.max(query.page ?? 1, 1), pages);
    return { readers: matching.slice((page - 1) * limit, page * limit), total: matching.length, page, pages };
  }
}
