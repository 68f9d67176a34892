/**
 * The reader's own token API (`/api/tokens`, server/src/routes/agents.ts) as the account
 * page calls it: same origin, the session cookie, JSON. Every failure becomes a
 * TokenApiError with words to show.
 */

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

export class TokenApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'TokenApiError';
  }
}

/** The words for a failed call: the server's reason, or what the status means. */
export function failureMessage(status: number, body: unknown): string {
  const reason =
    typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string' ? body.error : null;
  if (status === 401) return 'Your session has ended. Sign in again to manage your tokens.';
  if (reason) return reason;
  if (status === 429) return 'Too many tokens made in a minute. Wait a moment, then try again.';
  if (status >= 500) return 'The portal could not do that right now. Nothing was changed; try again shortly.';
  return `The portal answered ${status}.`;
}

async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new TokenApiError('Could not reach the portal. Check your connection and try again.', 0);
  }
  if (response.status === 204) return undefined as T;
  const parsed: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new TokenApiError(failureMessage(response.status, parsed), response.status);
  return parsed as T;
}

export const tokenApi = {
  list: () => call<TokenList>('GET', '/api/tokens'),
  create: (name: string, days: number) => call<CreatedToken>('POST', '/api/tokens', { name, days }),
  revoke: (id: string) => call<undefined>('DELETE', `/api/tokens/${encodeURIComponent(id)}`),
};
