/**
 * The reader's own token API (`/api/tokens`, server/src/routes/agents.ts) as the account
 * page calls it: same origin, the session cookie, JSON. Every failure becomes a
 * TokenApiError with words to show.
 */
import { jsonRequest, serverReason } from '@site/src/api/json-api';

/** A token as the server lists it: never its secret, only its first characters. */
export interface TokenRecord {
  id: string;
  name: string;
  /** The prefix and four characters, e.g. `norigin_pat_Ab3x…`, to tell tokens apart. */
  hint: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface TokenList {
  tokens: TokenRecord[];
  /** The longest life the server gives a token, in days. */
  maxDays: number;
}

export interface CreatedToken {
  /** The secret itself: in this answer only, never again. */
  token: string;
  record: TokenRecord;
}

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
  create: (name: string, days: number) => call<CreatedToken>('POST', '/api/tokens', { name, days }),
  revoke: (id: string) => call<undefined>('DELETE', `/api/tokens/${encodeURIComponent(id)}`),
};
