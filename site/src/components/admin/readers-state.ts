/**
 * The readers panel's rules, apart from React: its filters and pages, a reader's status
 * and groups, the words above the table and the confirmations asked before an action.
 */
import { possessive } from '@portal/contract/names';
import type { AccessSource, MyAccessAnswer } from '@portal/contract';
import { accessBySource } from '@site/src/access/sources';

import type { AccessOverview, ReaderAccount, ReaderPage } from './api';

export interface ReaderFilters {
  q: string;
  group: string;
  status: string;
  sort: string;
  page: number;
}

export const PAGE_SIZE = 50;

export const initialFilters: ReaderFilters = { q: '', group: '', status: '', sort: 'email', page: 1 };

/** New filters start again at the first page: the old page number may be past the new end. */
export function changeFilters(current: ReaderFilters, change: Partial<Omit<ReaderFilters, 'page'>>): ReaderFilters {
  return { ...current, page: 1, ...change };
}

export function turnPage(current: ReaderFilters, by: 1 | -1): ReaderFilters {
  return { ...current, page: Math.max(1, current.page + by) };
}

/** How long to wait before asking: a search by e-mail waits for the typing to pause. */
export function loadDelay(filters: ReaderFilters): number {
  return filters.q ? 250 : 0;
}

export type ReaderStatus = 'active' | 'no access' | 'disabled';

/**
 * A reader's status: disabled, or active when they read anything (`access`: what the server
 * says they read, by groups, licences and grants; by their groups alone without it).
 */
export function readerStatus(reader: ReaderAccount, access?: MyAccessAnswer): ReaderStatus {
  if (reader.disabled) return 'disabled';
  const reads = access ? access.units.length > 0 : reader.groups.length > 0;
  return reads ? 'active' : 'no access';
}

const day = (iso: string | null): string =>
  iso === null
    ? 'no end'
    : `until ${new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })}`;

/** Where one package of a reader comes from: "Northwind Media’s licence, until 31 Jan 2027", "granted to them, no end", "group staff". */
export function sourceInWords(source: AccessSource): string {
  if (source.kind === 'licence') return `${possessive(source.organisation)} licence, ${day(source.endsAt)}`;
  if (source.kind === 'grant') return `granted to them, ${day(source.endsAt)}`;
  return `group ${source.group}`;
}

/**
 * What a reader reads, a line per source, for the readers table: "Every page (group staff)",
 * "3 packages (group partner)", "Layout Engine, Whitelabel: Northwind Media’s licence, until
 * 31 Jan 2027", "Player adapter: granted to them, no end".
 */
export function readsLines(access: MyAccessAnswer | undefined): string[] {
  if (!access) return [];
  return accessBySource(access).map(({ source, labels, everything }) => {
    if (source.kind !== 'group') return `${labels.join(', ')}: ${sourceInWords(source)}`;
    if (everything) return `Every page (group ${source.group})`;
    return `${labels.length} ${labels.length === 1 ? 'package or section' : 'packages and sections'} (group ${source.group})`;
  });
}

/** A reader's own grants (approved access requests), each with the packages it gives, for revoking one. */
export function grantsOf(access: MyAccessAnswer | undefined): { id: string; labels: string[] }[] {
  const grants = new Map<string, string[]>();
  for (const unit of access?.units ?? [])
    for (const source of unit.sources)
      if (source.kind === 'grant' && source.id)
        grants.set(source.id, [...(grants.get(source.id) ?? []), unit.unitLabel]);
  return [...grants].map(([id, labels]) => ({ id, labels }));
}

/** How a reader is named in buttons and notices: the e-mail, or the id of an account without one. */
export function readerName(reader: ReaderAccount): string {
  return reader.email ?? reader.uid;
}

/** The groups a reader has from the e-mail-domain rule, not from an administrator. */
export function domainGroups(reader: ReaderAccount): string[] {
  return reader.groups.filter((group) => !reader.claimedGroups.includes(group));
}

/** A group ticked or unticked, in the order they were ticked. */
export function toggleGroup(chosen: readonly string[], group: string, on: boolean): string[] {
  const others = chosen.filter((name) => name !== group);
  return on ? [...others, group] : others;
}

/** "3 readers · page 1 of 2" above the table. */
export function countText(page: Pick<ReaderPage, 'total' | 'page' | 'pages'>): string {
  const count = `${page.total} reader${page.total === 1 ? '' : 's'}`;
  return page.pages > 1 ? `${count} · page ${page.page} of ${page.pages}` : count;
}

/** What an administrator is asked before an action that is hard or impossible to undo. */
export interface Confirmation {
  title: string;
  body: string;
  confirm: string;
  danger: boolean;
  /** Said in the status line once it is done. */
  done: string;
}

export function confirmDisable(reader: ReaderAccount): Confirmation {
  return {
    title: `Disable ${reader.email}?`,
    body: 'They are signed out within a minute and cannot sign in until enabled again.',
    confirm: 'Disable',
    danger: false,
    done: `${reader.email} is disabled.`,
  };
}

export function confirmRemove(reader: ReaderAccount): Confirmation {
  return {
    title: `Remove ${reader.email}?`,
    body: 'The account is deleted for good: its groups, password and GitHub link. This cannot be undone; the audit trail keeps what happened.',
    confirm: 'Remove for good',
    danger: true,
    done: `${reader.email} was removed.`,
  };
}

/** Why an invitation cannot be sent as it is, or null when it can. */
export function invitationProblem(groups: readonly string[]): string | null {
  return groups.length === 0 ? 'Choose at least one group.' : null;
}

/** The group that administers the portal. */
export const ADMIN_GROUP = 'admin';

/**
 * Why the server would refuse to disable, remove or demote this reader, before anyone
 * clicks (server/src/readers-service.ts says the same): one's own account, or the last
 * administrator who can sign in. Null: nothing is refused.
 */
export function guardOf(
  reader: Pick<ReaderAccount, 'uid' | 'disabled' | 'groups'>,
  page: Pick<ReaderPage, 'self' | 'administrators'>,
): string | null {
  if (reader.uid === page.self) return 'Your own account: another administrator can disable, remove or demote it.';
  if (!reader.disabled && reader.groups.includes(ADMIN_GROUP) && page.administrators <= 1)
    return 'The only administrator: make another reader an administrator before disabling, removing or demoting this one.';
  return null;
}

/** A reader's account after a change, in the page's list (the row's status follows at once). */
export function withChanged(page: ReaderPage, after: ReaderAccount): ReaderPage {
  const was = page.readers.find((reader) => reader.uid === after.uid);
  const administers = (account: ReaderAccount | undefined): boolean =>
    account !== undefined && !account.disabled && account.groups.includes(ADMIN_GROUP);
  return {
    ...page,
    readers: page.readers.map((reader) => (reader.uid === after.uid ? after : reader)),
    administrators: page.administrators + Number(administers(after)) - Number(administers(was)),
  };
}

/** The page without a removed reader. */
export function withRemoved(page: ReaderPage, uid: string): ReaderPage {
  const was = page.readers.find((reader) => reader.uid === uid);
  if (!was) return page;
  return {
    ...withChanged(page, { ...was, disabled: true }),
    readers: page.readers.filter((reader) => reader.uid !== uid),
    total: page.total - 1,
  };
}

/** A reader's organisation: placed there by an administrator, or by their verified e-mail's domain. */
export interface ReaderOrganisation {
  id: string;
  name: string;
  how: 'placed' | 'domain';
}

export function organisationOf(
  reader: Pick<ReaderAccount, 'email' | 'emailVerified'>,
  access: Pick<AccessOverview, 'organisations'>,
): ReaderOrganisation | null {
  const email = reader.email?.toLowerCase();
  if (!email) return null;
  const placed = access.organisations.find((organisation) => organisation.members.includes(email));
  if (placed) return { id: placed.id, name: placed.name, how: 'placed' };
  if (!reader.emailVerified) return null;
  const domain = email.slice(email.lastIndexOf('@') + 1);
  const byDomain = access.organisations.find((organisation) => organisation.domains.includes(domain));
  return byDomain ? { id: byDomain.id, name: byDomain.name, how: 'domain' } : null;
}

/** The groups administrators made that a reader is a member of. */
export function accessGroupsOf(reader: Pick<ReaderAccount, 'email'>, access: Pick<AccessOverview, 'groups'>): string[] {
  const email = reader.email?.toLowerCase();
  if (!email) return [];
  return access.groups.filter((group) => group.members.includes(email)).map((group) => group.name);
}

/** What the membership dialog starts with: the organisation an administrator placed the reader in, and their groups. */
export function membershipOf(
  reader: Pick<ReaderAccount, 'email' | 'emailVerified'>,
  access: Pick<AccessOverview, 'organisations' | 'groups'>,
): { organisation: string | null; groups: string[] } {
  const organisation = organisationOf(reader, access);
  return {
    organisation: organisation?.how === 'placed' ? organisation.id : null,
    groups: accessGroupsOf(reader, access),
  };
}
