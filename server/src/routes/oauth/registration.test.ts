import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  MAX_CLIENT_METADATA_BYTES,
  MAX_CLIENT_NAME,
  MAX_REDIRECT_URI_LENGTH,
  MAX_REDIRECT_URIS,
} from '../../auth/client-registration.js';
import { UNAUTHORISED_CLIENT_LIFETIME_MS } from '../../db/oauth.js';
import { readyTestApp, sharedStore, signInCookie } from '../../test/harness.js';
import { authorize, exchange, pkce, REDIRECT, registration } from '../../test/oauth-flow.js';
import type { EmulatorReaders } from '../../test/readers.js';
import { makeTestSite } from '../../test/test-site.js';

interface OAuthError {
  error: string;
  error_description: string;
}

/**
 * Anonymous client registration at /oauth/register (RFC 7591), as an attacker would use it:
 * what a client may register, what it stores, how many may register, and how long a client
 * no reader authorised is kept. The real emulator and the test run's PGlite.
 */
describe('registering an OAuth client', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let now = Date.now();
  let addresses = 0;
  // Each registration from an address of its own: the per-address limit is not what these test.
  const register = (metadata: Record<string, unknown> = {}) => registration(app, `203.0.113.${++addresses}`, metadata);
  const refused = async (metadata: Record<string, unknown>): Promise<OAuthError> => {
    const response = await register(metadata);
    expect(response.statusCode, response.body).toBe(400);
    return response.json<OAuthError>();
  };
  const storedClient = async (id: string) => {
    const [row] = await (
      await sharedStore()
    ).db.query<{ bytes: number; payload: Record<string, unknown> }>(
      `select octet_length(payload::text) as bytes, payload from oauth_records where kind = 'Client' and id = $1`,
      [id],
    );
    return row;
  };

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(
      await makeTestSite(),
      { OAUTH_REGISTRATION_RATE_LIMIT: '1000', SESSION_CACHE_TTL_SECONDS: '0' },
      undefined,
      () => now,
    ));
  });
  afterAll(() => app.close());

  it('refuses a long name, too many or too long redirect URIs and too much metadata, each with the OAuth error and a reason', async () => {
    expect(await refused({ client_name: 'n'.repeat(MAX_CLIENT_NAME + 1) })).toEqual({
      error: 'invalid_client_metadata',
      error_description: 'client_name must be at most 100 characters',
    });
    const many = Array.from({ length: MAX_REDIRECT_URIS + 1 }, (_, i) => `http://127.0.0.1:${5000 + i}/callback`);
    expect(await refused({ redirect_uris: many })).toEqual({
      error: 'invalid_redirect_uri',
      error_description: 'redirect_uris must be at most 5',
    });
    const long = `https://app.example/${'p'.repeat(MAX_REDIRECT_URI_LENGTH)}`;
    expect(await refused({ redirect_uris: [long] })).toEqual({
      error: 'invalid_redirect_uri',
      error_description: 'redirect_uris must each be at most 2,000 characters',
    });
    // Each URI within its own bound, together past the bound of the whole record.
    const wide = [1, 2, 3].map((i) => `https://app.example/${i}/${'p'.repeat(MAX_REDIRECT_URI_LENGTH - 30)}`);
    const tooMuch = await refused({ redirect_uris: wide });
    expect(tooMuch.error).toBe('invalid_client_metadata');
    expect(tooMuch.error_description).toMatch(/^the client's metadata is [\d,]+ bytes; at most 4,096 are kept$/);
    // And what fits is registered.
    expect((await register({ client_name: 'n'.repeat(MAX_CLIENT_NAME) })).statusCode).toBe(201);
  });

  it('keeps only the metadata it uses: a registration of 50 KB of logos, links, contacts and keys stores a small record', async () => {
    const padding = 'x'.repeat(9000);
    const body = {
      client_name: 'Padded assistant',
      logo_uri: `https://app.example/logo/${padding}`,
      client_uri: `https://app.example/${padding}`,
      policy_uri: `https://app.example/policy/${padding}`,
      tos_uri: `https://app.example/tos/${padding}`,
      contacts: Array.from({ length: 200 }, (_, i) => `someone${i}@app.example`),
      jwks: { keys: [] },
      software_id: padding,
    };
    expect(JSON.stringify(body).length).toBeGreaterThan(40_000);
    const response = await register(body);
    expect(response.statusCode, response.body).toBe(201);
    const answer = response.json<Record<string, unknown>>();
    expect(answer).toMatchObject({ client_name: 'Padded assistant', redirect_uris: [REDIRECT] });
    for (const dropped of ['logo_uri', 'client_uri', 'policy_uri', 'tos_uri', 'contacts', 'jwks', 'software_id'])
      expect(answer).not.toHaveProperty(dropped);
    const stored = await storedClient(answer.client_id as string);
    expect(stored?.payload).not.toHaveProperty('logo_uri');
    expect(stored?.bytes).toBeLessThan(1000);
    expect(stored?.bytes).toBeLessThan(MAX_CLIENT_METADATA_BYTES);
  });

  it.each([
    ['http on 127.0.0.1', 'http://127.0.0.1:33418/callback'],
    ['http on [::1]', 'http://[::1]:33418/callback'],
    ['http on localhost', 'http://localhost:6274/oauth/callback'],
    ['https anywhere', 'https://claude.ai/api/mcp/auth_callback'],
  ])('takes a redirect URI of %s', async (_name, uri) => {
    const response = await register({ redirect_uris: [uri] });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ redirect_uris: [uri], application_type: 'web' });
  });

  it("takes a native app's private-use scheme named by a reverse domain name, as a native client", async () => {
    const response = await register({ redirect_uris: ['com.example.assistant:/oauth/callback', REDIRECT] });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ application_type: 'native' });
  });

  it.each([
    ['http off loopback', 'http://assistant.example/callback', /http only on a loopback address/],
    ['http on a name that only starts like loopback', 'http://127.0.0.1.evil.example/cb', /loopback/],
    ['http with loopback as the user name', 'http://localhost@evil.example/cb', /user name or password/],
    ['https with a password', 'https://user:secret@app.example/cb', /user name or password/],
    ['a one-word custom scheme', 'myapp:/callback', /reverse domain name.*\(not myapp:\)/],
    ['javascript:', 'javascript:alert(1)', /reverse domain name/],
    ['data:', 'data:text/html,hi', /reverse domain name/],
    ['a fragment', 'https://app.example/cb#x', /fragments/],
  ])('refuses a redirect URI of %s', async (_name, uri, reason) => {
    const answer = await refused({ redirect_uris: [uri] });
    expect(answer.error).toBe('invalid_redirect_uri');
    expect(answer.error_description).toMatch(reason);
  });

  it.each(['client_secret_basic', 'client_secret_post', 'client_secret_jwt', 'private_key_jwt'])(
    'registers public clients only: %s is refused, and no secret is given',
    async (method) => {
      const response = await register({ token_endpoint_auth_method: method, jwks: { keys: [] } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        error: 'invalid_client_metadata',
        error_description:
          'token_endpoint_auth_method must be none: this server registers public clients only (PKCE, no secret)',
      });
      expect(response.body).not.toContain('client_secret"');
    },
  );

  it('gives a client that names no method a public one, and says so in its metadata', async () => {
    const response = await register({ token_endpoint_auth_method: undefined });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ token_endpoint_auth_method: 'none' });
    expect(response.json()).not.toHaveProperty('client_secret');
    const metadata = (await app.inject({ url: '/.well-known/oauth-authorization-server' })).json<
      Record<string, unknown>
    >();
    expect(metadata.token_endpoint_auth_methods_supported).toEqual(['none']);
  });

  it('removes a client no reader authorised once the clock passes a day, and keeps one a reader allowed', async () => {
    const idOf = async (name: string) => {
      const response = await register({ client_name: name });
      expect(response.statusCode, response.body).toBe(201);
      return response.json<{ client_id: string }>().client_id;
    };
    const unauthorised = await idOf('Never allowed');
    const authorised = await idOf('Allowed');
    const account = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(app, await readers.signIn(account.email, account.password));
    const { verifier, challenge } = pkce();
    const code = (await authorize(app, authorised, cookie, challenge)).searchParams.get('code') ?? '';
    const tokens = await exchange(app, authorised, code, verifier);
    expect(tokens.statusCode, tokens.body).toBe(200);

    // A registration a minute short of a day later prunes nothing.
    now += UNAUTHORISED_CLIENT_LIFETIME_MS - 60_000;
    await idOf('Later');
    expect(await storedClient(unauthorised)).toBeDefined();
    // One two minutes later does.
    now += 120_000;
    await idOf('Even later');
    expect(await storedClient(unauthorised)).toBeUndefined();
    expect(await storedClient(authorised)).toMatchObject({ payload: { client_name: 'Allowed' } });
    // The pruned client is unknown to the authorization endpoint; the allowed one still refreshes.
    const unknown = await app.inject({
      url: `/oauth/authorize?client_id=${unauthorised}&response_type=code&redirect_uri=${encodeURIComponent(REDIRECT)}`,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('invalid_client');
  });
});

describe('the registration limits', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    ({ app } = await readyTestApp(await makeTestSite(), { OAUTH_REGISTRATION_RATE_LIMIT: '3' }));
  });
  afterAll(() => app.close());

  it('count registrations from every address together, and answer 429 with Retry-After and an OAuth error past them', async () => {
    const statuses = [];
    for (const address of ['192.0.2.1', '192.0.2.2', '192.0.2.3'])
      statuses.push((await registration(app, address)).statusCode);
    expect(statuses).toEqual([201, 201, 201]);
    const fourth = await registration(app, '192.0.2.4');
    expect(fourth.statusCode).toBe(429);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(fourth.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(fourth.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: `Too many client registrations on this portal this minute; try again in ${fourth.headers['retry-after']} s`,
    });
  });

  it('limit one address to 10 a minute first, so its flood does not spend the shared budget', async () => {
    const { app: roomy } = await readyTestApp(await makeTestSite(), { OAUTH_REGISTRATION_RATE_LIMIT: '12' });
    try {
      const statuses = [];
      for (let i = 0; i < 14; i++) statuses.push((await registration(roomy, '192.0.2.9')).statusCode);
      expect(statuses).toEqual([...Array<number>(10).fill(201), 429, 429, 429, 429]);
      const flood = await registration(roomy, '192.0.2.9');
      expect(flood.json<OAuthError>().error_description).toMatch(/^Too many client registrations from this address/);
      // Ten of the twelve were spent; another address still registers.
      expect((await registration(roomy, '192.0.2.10')).statusCode).toBe(201);
    } finally {
      await roomy.close();
    }
  });
});
