import type { Auth, UserRecord } from 'firebase-admin/auth';

import { claimedGroups, groupsOfAccount, policy } from '@portal/access';

/** An account as an administrator sees it: who, in which groups, and why. */
export interface ReaderAccount {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  disabled: boolean;
  /** What an administrator set (the `groups` custom claim). */
  claimedGroups: string[];
  /** What the account reads with: the claim plus the e-mail-domain rules. Empty: no access. */
  groups: string[];
  createdAt: string | null;
  lastSignInAt: string | null;
  /** `password`, `github.com`, … */
  providers: string[];
}

export type ReaderErrorCode = 'unknown-reader' | 'unknown-group' | 'exists' | 'domain-group' | 'bad-email';

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

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function toReaderAccount(user: UserRecord): ReaderAccount {
  const claims = user.customClaims ?? null;
  return {
    uid: user.uid,
    email: user.email ?? null,
    emailVerified: user.emailVerified,
    disabled: user.disabled,
    claimedGroups: claimedGroups(claims),
    groups: groupsOfAccount({ email: user.email ?? null, emailVerified: user.emailVerified, claims }),
    createdAt: user.metadata.creationTime ?? null,
    lastSignInAt: user.metadata.lastSignInTime ?? null,
    providers: user.providerData.map((provider) => provider.providerId),
  };
}

/**
 * The administrator's operations on readers, in Firebase Authentication: find, list,
 * invite, change groups, disable and enable. Used by the readers command (and by the
 * admin page). No web-framework code.
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

  private async user(email: string): Promise<UserRecord> {
    try {
      return await this.auth.getUserByEmail(email);
    } catch (error) {
      if ((error as { code?: string }).code === 'auth/user-not-found')
        throw new ReaderError('unknown-reader', `no reader has the e-mail address ${email}`);
      throw error;
    }
  }

  async find(email: string): Promise<ReaderAccount> {
    return toReaderAccount(await this.user(email));
  }

  /** Every account, in pages of 1,000, optionally only those in `group`. */
  async list(group?: string): Promise<ReaderAccount[]> {
    if (group !== undefined) ReaderDirectory.checkGroups([group]);
    const accounts: ReaderAccount[] = [];
    let pageToken: string | undefined;
    do {
      const page = await this.auth.listUsers(1000, pageToken);
      accounts.push(...page.users.map(toReaderAccount));
      pageToken = page.pageToken;
    } while (pageToken);
    return accounts
      .filter((account) => group === undefined || account.groups.includes(group))
      .sort((a, b) => (a.email ?? '').localeCompare(b.email ?? ''));
  }

  /**
   * Creates an account in `groups` and returns a link to set its password. If anything
   * after the account's creation fails, the account is removed again: nothing half-done.
   */
  async invite(email: string, groups: readonly string[]): Promise<{ account: ReaderAccount; passwordLink: string }> {
    if (!EMAIL.test(email)) throw new ReaderError('bad-email', `"${email}" is not an e-mail address`);
    ReaderDirectory.checkGroups(groups);
    if (groups.length === 0) throw new ReaderError('unknown-group', 'name at least one group');
    try {
      await this.auth.getUserByEmail(email);
      throw new ReaderError('exists', `${email} already has an account; change its groups with grant or revoke`);
    } catch (error) {
      if (error instanceof ReaderError) throw error;
      if ((error as { code?: string }).code !== 'auth/user-not-found') throw error;
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

  /** Sets the groups an administrator gives the reader (the claim); returns the account after. */
  async setGroups(email: string, groups: readonly string[]): Promise<ReaderAccount> {
    ReaderDirectory.checkGroups(groups);
    const user = await this.user(email);
    const claims = { ...(user.customClaims ?? {}), [policy.claim]: [...groups] };
    await this.auth.setCustomUserClaims(user.uid, claims);
    return toReaderAccount(await this.auth.getUser(user.uid));
  }

  async grant(email: string, group: string): Promise<{ before: ReaderAccount; after: ReaderAccount }> {
    ReaderDirectory.checkGroups([group]);
    const before = await this.find(email);
    const after = before.claimedGroups.includes(group)
      ? before
      : await this.setGroups(email, [...before.claimedGroups, group]);
    return { before, after };
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
    const after = before.claimedGroups.includes(group)
      ? await this.setGroups(
          email,
          before.claimedGroups.filter((name) => name !== group),
        )
      : before;
    return { before, after };
  }

  /**
   * Disables or enables an account. Disabling also revokes its refresh tokens, so every
   * session ends at its next check, whichever server holds it.
   */
  async setDisabled(email: string, disabled: boolean): Promise<ReaderAccount> {
    const user = await this.user(email);
    await this.auth.updateUser(user.uid, { disabled });
    if (disabled) await this.auth.revokeRefreshTokens(user.uid);
    return toReaderAccount(await this.auth.getUser(user.uid));
  }
}
