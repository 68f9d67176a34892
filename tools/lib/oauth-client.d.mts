/** The query of an authorization request for /mcp's `resource`: the code flow with PKCE (S256). */
export function authorizationQuery(request: {
  clientId: string;
  redirectUri: string;
  challenge: string;
  resource: string;
}): URLSearchParams;

/** An access and a refresh token for /mcp, as the reader of `sessionCookie` allows a newly registered client. */
export function oauthTokens(
  baseURL: string,
  sessionCookie: string,
  clientName?: string,
): Promise<{ clientId: string; accessToken: string; refreshToken: string }>;
