/**
 * The readers panel's rules, apart from React: its filters and pages, a reader's status
 * and groups, the words above the table and the confirmations asked before an action.
 */
import type { ReaderAccount, ReaderPage } from './api';

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

export function readerStatus(reader: ReaderAccount): ReaderStatus {
  if (reader.disabled) return 'disabled';
  return reader.groups.length === 0 ? 'no access' : 'active';
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
