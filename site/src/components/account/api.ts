/**
 * The reader's own token API (`/api/tokens`, server/src/routes/account/tokens.ts) as the account
 * page calls it: same origin, the session cookie, JSON. Every failure becomes a
 * TokenApiError with words to show.
 */
import { jsonRequest, serverReason } from '@site/src/api/json-api';

import type { CreatedToken, TokenList } from '@portal/contract';

export type { CreatedToken, TokenList, TokenRecord } from '@portal/contract';

/** A failed call of the account page (the site's one API error). */
export { ApiError as TokenApiError } from '@site/src/api/json-api';

/** The words for a failed call: the server's reason, or what the status means. */
export function failureMessage(status: number, body: unknown): string {
  const reason = serverReason(body);
  if (status === 401) return 'Your session has ended. Sign in again to manage your tokens.';
  if (reason) return reason;
  if (status === 429) return 'Too many tokens made in a minute. Wait a moment, then try again.';
  if (status >= 500) return 'The portal could not do that right now. Nothing was changed; try again shortly.';
  return `The portal answered ${status}.`;
}

const call = <T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> =>
  jsonRequest<T>(method, path, body, failureMessage);

export const tokenApi = {
  list: () => call<TokenList>('GET', '/api/tokens'),
  create: (name: string, days: number, scope: 'read' | 'admin' = 'read') =>
    call<CreatedToken>('POST', '/api/tokens', { name, days, scope }),
  revoke: (id: string) => call<undefined>('DELETE', `/api/tokens/${encodeURIComponent(id)}`),
};
