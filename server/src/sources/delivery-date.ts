/**
 * When a release hook's sender dated its delivery, read from the signed body only (headers
 * are not signed): GitHub's own dates of the release, package version or push, or `sent_at`,
 * which registries and scripts that send their own JSON put in. The newest date counts: a
 * release's `created_at` is its commit's date, and a tag pushed on an old commit has an old
 * `head_commit.timestamp`, while the push itself (`repository.pushed_at`) is new.
 */

/** Where each event carries its dates (a path of property names). */
const DATED: Record<string, string[][]> = {
  release: [
    ['release', 'published_at'],
    ['release', 'created_at'],
  ],
  push: [
    ['head_commit', 'timestamp'],
    ['repository', 'pushed_at'],
  ],
  package: [
    ['package', 'package_version', 'created_at'],
    ['package', 'package_version', 'updated_at'],
    ['package', 'updated_at'],
  ],
  registry_package: [
    ['registry_package', 'package_version', 'created_at'],
    ['registry_package', 'package_version', 'updated_at'],
    ['registry_package', 'updated_at'],
  ],
};

/** The field senders of their own JSON date it with. */
export const SENT_AT = 'sent_at';

/** A date as GitHub writes them: ISO 8601 text, or (push events' `pushed_at`) seconds since the epoch. */
function timeOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value * 1000;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

function at(payload: unknown, path: string[]): unknown {
  let value = payload;
  for (const key of path)
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return value;
}

export type DeliveryDate = { at: number; field: string } | { undated: true } | { error: string };

/** The newest date in the body for `event`, the field it is in, or why `sent_at` is not a date. */
export function deliveryDate(event: string, payload: object): DeliveryDate {
  const sent = (payload as Record<string, unknown>)[SENT_AT];
  if (sent !== undefined && (typeof sent !== 'string' || timeOf(sent) === null))
    return { error: `${SENT_AT} must be a date and time in ISO 8601, such as 2026-11-30T10:00:00Z` };
  const found = [[SENT_AT], ...(DATED[event] ?? [])]
    .map((path) => ({ field: path.join('.'), at: timeOf(at(payload, path)) }))
    .filter((date): date is { field: string; at: number } => date.at !== null)
    .sort((a, b) => b.at - a.at);
  return found[0] ?? { undated: true };
}

/** How far ahead of the gate's clock a sender's clock may run. */
export const CLOCK_SKEW_MS = 60_000;

/** Why a delivery is too old or too far ahead to be taken, or null when its date is fine (or it has none). */
export function ageRefusal(event: string, payload: object, now: number, maxAgeSeconds: number): string | null {
  const date = deliveryDate(event, payload);
  if ('error' in date) return date.error;
  if ('undated' in date) return null;
  const stamp = new Date(date.at).toISOString();
  if (date.at < now - maxAgeSeconds * 1000)
    return `The delivery is dated ${stamp} (${date.field}), more than ${maxAgeSeconds} seconds ago: a late or replayed delivery is refused; send a new one`;
  if (date.at > now + CLOCK_SKEW_MS)
    return `The delivery is dated ${stamp} (${date.field}), ahead of the portal's clock: check the sender's clock`;
  return null;
}
