import { createHash, randomBytes } from 'node:crypto';

import type { FastifyInstance } from 'fastify';

import { authorizationQuery } from '../../../tools/lib/oauth-client.mjs';
import { ORIGIN } from './harness.js';

/*
 * An MCP client's side of the portal's OAuth flow, for the server tests: registration, the
 * reader's browser through authorize, sign-in and consent, and the token exchange.
 */

/** The loopback redirect URI the test clients register. */
export const REDIRECT = 'http://127.0.0.1:53682/callback';
/** The portal's origin as URLs write it (the harness's Host names port 80). */
export const SITE = new URL(ORIGIN).origin;
/** The MCP server's resource identifier at that origin. */
export const RESOURCE = `${SITE}/mcp`;

/** A PKCE pair (RFC 7636, S256), as a client makes it. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The cookies a response set, merged into a browser's jar (name → value). */
function keep(jar: Map<string, string>, setCookie: string | string[] | undefined): void {
  for (const line of [setCookie ?? []].flat()) {
    const [pair] = line.split(';');
    const at = pair?.indexOf('=') ?? -1;
    if (!pair || at < 0) continue;
    const name = pair.slice(0, at).trim();
    const value = pair.slice(at + 1);
    if (/expires=Thu, 01 Jan 1970/i.test(line) || value === '') jar.delete(name);
    else jar.set(name, value);
  }
}
const cookieHeader = (jar: Map<string, string>): string =>
  [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

/** A registration as the MCP SDK's client sends it, from `remoteAddress` (registrations are limited per address). */
export const registration = (app: FastifyInstance, remoteAddress: string, metadata: Record<string, unknown> = {}) =>
  app.inject({
    method: 'POST',
    url: '/oauth/register',
    remoteAddress,
    payload: {
      client_name: 'Test assistant',
      redirect_uris: [REDIRECT],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      // As the MCP SDK's client registers: with the scope the resource's metadata names.
      scope: 'docs:read',
      ...metadata,
    },
  });

/**
 * A browser with `cookie` (a session) going through authorize, sign-in and consent; the URL it
 * is sent back to (with the code, or the refusal).
 */
export async function authorize(
  app: FastifyInstance,
  clientId: string,
  cookie: string,
  challenge: string,
  decision = 'allow',
): Promise<URL> {
  const jar = new Map<string, string>();
  const [name, value] = cookie.split('=', 2) as [string, string];
  jar.set(name, cookie.slice(name.length + 1) || value);
  const query = authorizationQuery({ clientId, redirectUri: REDIRECT, challenge, resource: RESOURCE });
  let url = `/oauth/authorize?${query}`;
  let method: 'GET' | 'POST' = 'GET';
  for (let step = 0; step < 12; step++) {
    const response = await app.inject({
      method,
      url,
      headers: {
        cookie: cookieHeader(jar),
        ...(method === 'POST' ? { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(method === 'POST' ? { payload: `decision=${decision}` } : {}),
    });
    keep(jar, response.headers['set-cookie']);
    method = 'GET';
    if (response.statusCode === 200) {
      // The consent page: it names the client, and the reader answers.
      if (!response.body.includes('Allow')) throw new Error(`not the consent page: ${response.body.slice(0, 200)}`);
      method = 'POST';
      continue;
    }
    if (response.statusCode !== 302 && response.statusCode !== 303)
      throw new Error(`${url}: ${response.statusCode} ${response.body.slice(0, 300)}`);
    const location = new URL(String(response.headers.location), ORIGIN);
    if (location.href.startsWith(REDIRECT)) return location;
    url = location.pathname + location.search;
  }
  throw new Error('the authorization never came back to the client');
}

/** The client's exchange of a code for tokens at /oauth/token. */
export const exchange = (app: FastifyInstance, clientId: string, code: string, verifier: string) =>
  app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      resource: RESOURCE,
    }).toString(),
  });

/** The client's use of a refresh token at /oauth/token. */
export const refresh = (app: FastifyInstance, clientId: string, refreshToken: string) =>
  app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
    }).toString(),
  });
