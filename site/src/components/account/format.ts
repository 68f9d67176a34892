/** The lives a new token can be given, in days; the longest is the server's limit. */
export function expiryChoices(maxDays: number): number[] {
  const choices = [7, 30, 90].filter((days) => days <= maxDays);
  return choices.includes(maxDays) ? choices : [...choices, maxDays];
}

/** "22 Nov 2026" in the reader's own time zone; null for no date. */
export function formatDay(iso: string | null): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });
}

export type TokenStatus = 'active' | 'expired' | 'revoked';

export function statusOf(token: { expiresAt: string; revokedAt: string | null }, now: number): TokenStatus {
  if (token.revokedAt !== null) return 'revoked';
  return Date.parse(token.expiresAt) <= now ? 'expired' : 'active';
}

/** When a token ends, as a reader plans by it: "in 7 days", "in 5 hours", or the day it ended. */
export function describeExpiry(token: { expiresAt: string; revokedAt: string | null }, now: number): string {
  const day = formatDay(token.expiresAt) ?? 'unknown';
  const status = statusOf(token, now);
  if (status === 'revoked') return `would have ended ${day}`;
  if (status === 'expired') return `ended ${day}`;
  const hours = (Date.parse(token.expiresAt) - now) / 3_600_000;
  if (hours < 1) return `${day} (within the hour)`;
  if (hours < 36) return `${day} (in ${Math.ceil(hours)} hours)`;
  return `${day} (in ${Math.round(hours / 24)} days)`;
}
