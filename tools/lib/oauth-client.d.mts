/** An access and a refresh token for /mcp, as the reader of `sessionCookie` allows a newly registered client. */
export function oauthTokens(
  baseURL: string,
  sessionCookie: string,
  clientName?: string,
): Promise<{ clientId: string; accessToken: string; refreshToken: string }>;
