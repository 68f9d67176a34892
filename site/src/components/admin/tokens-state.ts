/** The administrators' token panel's rules, apart from React. */
import type { AdminToken } from './api';

/** The reader to list tokens of: what was typed, or everyone's when it is blank. */
export function readerFilter(typed: string): string | undefined {
  return typed.trim() || undefined;
}

/** Said in place of the table when there is no token to show. */
export function noTokensText(typed: string): string {
  return readerFilter(typed) ? 'This reader has no tokens.' : 'No reader has made a token yet.';
}

export function revokedNotice(token: Pick<AdminToken, 'name' | 'email'>): string {
  return `“${token.name}” of ${token.email} is revoked.`;
}
