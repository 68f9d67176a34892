/**
 * Asking for access (`/api/access/refusal`, `/api/access-requests` and the administrators'
 * `/api/admin/access-requests`, server/src/routes/access-requests.ts) as the refusal page,
 * the account page and the admin queue call them.
 */
import { possessive } from '@portal/contract/names';
import { jsonRequest, serverReason } from '@site/src/api/json-api';
import { dayOf } from '@site/src/dates';

import type {
  AccessRequestApproval,
  AccessRequestInfo,
  AccessRequestList,
  AccessRequestQueue,
  QueuedAccessRequest,
  RefusalAnswer,
} from '@portal/contract';

export type { AccessRequestInfo, QueuedAccessRequest, RefusalAnswer } from '@portal/contract';

/** The words for a failed call: the server's reason, or what the status means. */
export function failureMessage(status: number, body: unknown): string {
  if (status === 401) return 'Your session has ended. Sign in again, then ask once more.';
  const reason = serverReason(body);
  if (reason) return reason;
  if (status === 429) return 'Too many requests in a minute. Wait a moment, then try again.';
  if (status >= 500) return 'The portal could not do that right now. Nothing was changed; try again shortly.';
  return `The portal answered ${status}.`;
}

const call = <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> =>
  jsonRequest<T>(method, path, body, failureMessage);

export const accessRequestApi = {
  refusal: (path: string) => call<RefusalAnswer>('GET', `/api/access/refusal?path=${encodeURIComponent(path)}`),
  ask: (path: string, reason: string) => call<AccessRequestInfo>('POST', '/api/access-requests', { path, reason }),
  mine: () => call<AccessRequestList>('GET', '/api/access-requests'),
  queue: () => call<AccessRequestQueue>('GET', '/api/admin/access-requests'),
  approve: (id: string, approval: AccessRequestApproval) =>
    call<undefined>('POST', `/api/admin/access-requests/${encodeURIComponent(id)}/approve`, approval),
  decline: (id: string, reason: string) =>
    call<undefined>('POST', `/api/admin/access-requests/${encodeURIComponent(id)}/decline`, { reason }),
};

export { dayOf };

/** One line for a request's state, as its reader reads it. */
export function requestState(request: AccessRequestInfo): string {
  const until = request.endsAt ? ` until ${dayOf(request.endsAt)}` : '';
  if (request.status === 'pending') return `Asked on ${dayOf(request.createdAt)}; awaiting an administrator's answer.`;
  if (request.status === 'approved')
    return `Approved${request.grantedTo === 'organisation' ? ' for your organisation' : ' for you'}${until}.`;
  return `Declined: ${request.answer ?? 'no reason given'}.`;
}

/** A day typed as YYYY-MM-DD, in the site's words ("31 January 2027"), or null when it is none. */
export function dayInWords(day: string): string | null {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && !Number.isNaN(Date.parse(`${day}T00:00:00Z`))
    ? dayOf(`${day}T00:00:00Z`)
    : null;
}

/** What approving `request` for `scope` until `endsOn` changes, in a sentence for the confirmation. */
export function approvalChange(request: QueuedAccessRequest, scope: 'reader' | 'organisation', endsOn: string): string {
  const until = dayInWords(endsOn);
  const when = until ? `until ${until}` : 'with no end date';
  if (scope === 'reader')
    return `${request.email} alone will read ${request.unitLabel}, ${when}. Nobody else’s access changes${request.organisation ? `, and ${possessive(request.organisation.name)} licence stays as it is` : ''}.`;
  const organisation = request.organisation?.name ?? 'the organisation';
  return `Every reader of ${organisation}, now and later, will read ${request.unitLabel}, ${when}: ${possessive(organisation)} licence grows by this package.`;
}
