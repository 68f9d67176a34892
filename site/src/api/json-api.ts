/**
 * The site's calls to its own JSON APIs (the admin pages, the account page): same origin,
 * the session cookie, never cached. Every failure becomes an ApiError whose message is
 * words a reader can act on, chosen by the caller's `failureMessage`.
 */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The server's own reason in a JSON error answer (`{ "error": "…" }`), or null. */
export function serverReason(body: unknown): string | null {
  return typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'string'
    ? body.error
    : null;
}

/** The words to show for a failed call: an ApiError's own, or `fallback` for anything else. */
export function messageOf(caught: unknown, fallback: string): string {
  return caught instanceof ApiError ? caught.message : fallback;
}

export async function jsonRequest<T>(
  method: string,
  url: string,
  body: unknown,
  failureMessage: (status: number, body: unknown) => string,
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError('Could not reach the portal. Check your connection and try again.', 0);
  }
  if (response.status === 204) return undefined as T;
  const parsed: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new ApiError(failureMessage(response.status, parsed), response.status);
  return parsed as T;
}
