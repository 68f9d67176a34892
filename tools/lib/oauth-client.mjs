// An OAuth client of the portal's authorization server (/mcp) without a browser, for the
// benchmark and the security suite: it registers, follows the authorize request with a
// reader's session cookie, allows on the consent page, and exchanges the code with PKCE.
import { createHash, randomBytes } from 'node:crypto';

/** Where the code is sent back: never fetched, only read from the redirect. */
const REDIRECT = 'http://127.0.0.1:9/callback';

const cookieHeader = (jar) => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

function keep(jar, response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    if (at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1));
  }
}

/** The query of an authorization request for /mcp's `resource`: the code flow with PKCE (S256). */
export const authorizationQuery = ({ clientId, redirectUri, challenge, resource }) =>
  new URLSearchParams({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'docs:read',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    resource,
  });

/**
 * An access and a refresh token for /mcp at `baseURL`, as the reader of `sessionCookie`
 * (`__session=…`) allows a newly registered client named `clientName`.
 */
export async function oauthTokens(baseURL, sessionCookie, clientName = 'Portal client') {
  const registered = await fetch(`${baseURL}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: clientName,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  if (registered.status !== 201) throw new Error(`registration answered ${registered.status}`);
  const { client_id: clientId } = await registered.json();
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const jar = new Map();
  const at = sessionCookie.indexOf('=');
  jar.set(sessionCookie.slice(0, at), sessionCookie.slice(at + 1));
  const resource = `${baseURL}/mcp`;
  let url = `${baseURL}/oauth/authorize?${authorizationQuery({ clientId, redirectUri: REDIRECT, challenge, resource })}`;
  let code = null;
  for (let step = 0; step < 12 && code === null; step++) {
    let response = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader(jar) } });
    keep(jar, response);
    // The consent page: allow.
    if (response.status === 200) {
      response = await fetch(url, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: cookieHeader(jar),
          origin: baseURL,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'decision=allow',
      });
      keep(jar, response);
    }
    const location = response.headers.get('location');
    if (location === null) throw new Error(`${url} answered ${response.status} without a redirect`);
    const next = new URL(location, baseURL);
    if (next.href.startsWith(REDIRECT)) code = next.searchParams.get('code');
    else url = next.href;
  }
  if (code === null) throw new Error('the authorization never came back with a code');
  const tokens = await fetch(`${baseURL}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      resource,
    }),
  });
  if (tokens.status !== 200) throw new Error(`the token endpoint answered ${tokens.status}`);
  const body = await tokens.json();
  return { clientId, accessToken: body.access_token, refreshToken: body.refresh_token };
}
