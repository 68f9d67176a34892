import { createHash, generateKeyPairSync, hkdfSync } from 'node:crypto';

import Provider, { errors, type Adapter, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

import { checkRegistration } from './client-registration.js';
import { classify } from './errors.js';
import type { Identity, Reader } from './identity.js';
import { SecretCache } from './secret-cache.js';

/*
 * The OAuth 2.1 authorization server for the MCP server at /mcp, as the MCP authorization
 * specification asks: oidc-provider (a certified, kept implementation) does discovery,
 * dynamic client registration, authorization code with PKCE (S256), refresh token rotation
 * and revocation; the portal does the sign-in (its own /login) and the consent page, and
 * checks every access token against the reader's account as it is now. No Fastify and no
 * SQL here: the store is an adapter the caller gives.
 */

/** The one scope: read the documentation the reader may read. */
export const DOCS_SCOPE = 'docs:read';

/** Where the routes live (discovery names them). */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
} as const;

/** The consent page of an interaction (served by the gate, not the provider). */
export const consentPath = (uid: string): string => `/oauth/consent/${uid}`;

/** The MCP server's resource identifier (RFC 8707 / RFC 9728) at an origin. */
export const mcpResource = (origin: string): string => `${origin}/mcp`;

/** The URL of the MCP server's protected-resource metadata (RFC 9728 §3.1: the resource's path after the well-known name). */
export const resourceMetadataUrl = (origin: string): string => `${origin}/.well-known/oauth-protected-resource/mcp`;

/** How long each artifact lives, in seconds. */
export const OAUTH_TTL = {
  AccessToken: 60 * 60,
  AuthorizationCode: 60,
  RefreshToken: 30 * 24 * 60 * 60,
  Grant: 90 * 24 * 60 * 60,
  Interaction: 10 * 60,
  Session: 10 * 60,
} as const;

export type AdapterFactory = (kind: string) => Adapter;

export interface OAuthOptions {
  identity: Identity;
  adapter: AdapterFactory;
  /** The secret the interaction cookies' keys are drawn from (the gate's SESSION_SECRET). */
  secret: string;
  /** The error page shown in the browser (bad or expired requests). */
  errorPage(title: string, message: string): string;
  /** Told of a new grant, a use, a refusal: for the audit trail. */
  log?: { warn(object: unknown, message: string): void };
}

/** What an access token stands for, once checked: the reader as they are now, and the client. */
export type OAuthCheck =
  | { ok: true; reader: Reader; client: { id: string; name: string }; grantId: string }
  | { ok: false; reason: 'unknown' | 'expired' | 'revoked' | 'unavailable' };

interface KnownToken {
  accountId: string;
  clientId: string;
  clientName: string;
  grantId: string;
  audience: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/** Origins one gate makes an authorization server for (without PUBLIC_URL, the Host decides). */
const MAX_ORIGINS = 8;

const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('base64url');

/**
 * The authorization server, one oidc-provider instance per origin the portal answers at
 * (one in production: PUBLIC_URL; in development the loopback names a browser may use),
 * and the check of an access token on /mcp.
 */
export class OAuthServer {
  private readonly providers = new Map<string, Provider>();
  private readonly jwks: { keys: object[] };
  private readonly cookieKeys: string[];
  /** Access tokens checked lately, by a hash of the token: at most the identity cache's TTL. */
  private readonly known: SecretCache<KnownToken>;
  /** Called when a grant's token is looked up in the store (at most once a TTL per token): marks its last use. */
  onUse: ((grantId: string) => void) | null = null;

  constructor(
    private readonly options: OAuthOptions,
    ttlSeconds: number,
  ) {
    // Signing keys for what the provider signs (nothing MCP uses: access tokens are opaque,
    // and no ID token is issued without the openid scope, which is not offered). Made at start.
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.jwks = { keys: [{ ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'ES256' }] };
    this.cookieKeys = [
      Buffer.from(hkdfSync('sha256', options.secret, 'portal-oauth', 'interaction cookies', 32)).toString('base64url'),
    ];
    this.known = new SecretCache(ttlSeconds);
    // A grant revoked on any replica is forgotten on every one.
    options.identity.shared.onBroadcast(({ grant }) => {
      if (grant) this.known.forget((token) => token.grantId === grant);
    });
  }

  /** The provider for an origin (`http://127.0.0.1:3000`), made at its first use. */
  provider(origin: string): Provider {
    let provider = this.providers.get(origin);
    if (!provider) {
      // Without PUBLIC_URL the origin is the Host a request names: a few are expected (localhost, 127.0.0.1).
      if (this.providers.size >= MAX_ORIGINS) throw new Error('This portal answers at too many addresses already');
      provider = new Provider(origin, this.configuration(origin));
      // The gate pins the forwarded headers to the origin it worked out (routes/oauth.ts), so Koa may read them.
      provider.proxy = true;
      // A token or grant revoked here (revocation endpoint, a rotated refresh token used again) is forgotten at once.
      provider.on('grant.revoked', (_ctx: unknown, grantId: string) => void this.forgetGrant(grantId));
      provider.on('access_token.destroyed', (token: { grantId?: string }) => {
        if (token.grantId) void this.forgetGrant(token.grantId);
      });
      this.providers.set(origin, provider);
    }
    return provider;
  }

  private configuration(origin: string): Configuration {
    const resource = mcpResource(origin);
    const { identity, errorPage } = this.options;
    return {
      adapter: this.options.adapter as unknown as Configuration['adapter'],
      clients: [],
      jwks: this.jwks as Configuration['jwks'],
      cookies: { keys: this.cookieKeys },
      routes: OAUTH_ROUTES,
      // The MCP server's scope is also a scope a client may register for (the MCP SDK registers with it).
      scopes: ['offline_access', DOCS_SCOPE],
      responseTypes: ['code'],
      clientDefaults: {
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        id_token_signed_response_alg: 'ES256',
      },
      // Public clients only: no client secret is ever issued (discovery says so too).
      clientAuthMethods: ['none'],
      // A standard field named here so the provider hands each registration to the validator
      // (ctx is set for registrations only), which checks it and trims what is stored.
      extraClientMetadata: {
        properties: ['client_name'],
        validator: (ctx, _key, _value, metadata) => {
          if (ctx !== undefined) checkRegistration(metadata as Record<string, unknown>);
        },
      },
      // Every public client uses PKCE (S256, the only method oidc-provider 9 knows).
      pkce: { required: () => true },
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
        revocation: { enabled: true },
        userinfo: { enabled: false },
        introspection: { enabled: false },
        rpInitiatedLogout: { enabled: false },
        resourceIndicators: {
          enabled: true,
          defaultResource: async () => resource,
          useGrantedResource: async () => true,
          getResourceServerInfo: async (_ctx: KoaContextWithOIDC, indicator: string) => {
            if (indicator !== resource)
              throw new errors.InvalidTarget(`this server only issues tokens for ${resource}`);
            return { scope: DOCS_SCOPE, accessTokenFormat: 'opaque', accessTokenTTL: OAUTH_TTL.AccessToken };
          },
        },
      },
      // The reader as they are now: a disabled reader, or one without a group, gets no token.
      findAccount: async (_ctx, id) => {
        try {
          await identity.readerByUid(id);
        } catch {
          return undefined;
        }
        return { accountId: id, claims: async () => ({ sub: id }) };
      },
      // A refresh token for every client allowed the grant (MCP clients keep going without a person at hand).
      issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
      rotateRefreshToken: true,
      // Tokens outlive the browser sign-in that granted them; the grant and the reader's account decide.
      expiresWithSession: async () => false,
      ttl: OAUTH_TTL,
      interactions: { url: async (_ctx, interaction) => consentPath(interaction.uid) },
      renderError: async (ctx, out) => {
        ctx.type = 'html';
        ctx.body = errorPage(
          'The sign-in for your assistant did not work',
          `${out.error}${out.error_description ? `: ${out.error_description}` : ''}`,
        );
      },
      discovery: { service_documentation: `${origin}/docs/` },
    } satisfies Configuration;
  }

  /** The RFC 9728 metadata of the MCP server at an origin. */
  resourceMetadata(origin: string): Record<string, unknown> {
    return {
      resource: mcpResource(origin),
      authorization_servers: [origin],
      scopes_supported: [DOCS_SCOPE],
      bearer_methods_supported: ['header'],
      resource_name: 'Norigin Developer Docs',
    };
  }

  /**
   * Checks an access token from `Authorization: Bearer` on /mcp at `origin`: issued by this
   * server for this resource, not expired, its grant not revoked, and its reader's account
   * as it is now (disabled? which groups?). The token never carries groups.
   */
  async check(secret: string, origin: string): Promise<OAuthCheck> {
    if (secret.length < 20 || secret.length > 200) return { ok: false, reason: 'unknown' };
    const hash = hashOf(secret);
    const found = await this.known.find(hash, () => this.lookUp(secret, origin));
    if (typeof found === 'string') return { ok: false, reason: found };
    const token = found.record;
    if (found.loaded) this.onUse?.(token.grantId);
    if (token.audience !== mcpResource(origin)) return { ok: false, reason: 'unknown' };
    if (token.expiresAt * 1000 <= Date.now()) return { ok: false, reason: 'expired' };
    let reader: Reader;
    try {
      reader = await this.options.identity.readerByUid(token.accountId);
    } catch (error) {
      return { ok: false, reason: classify(error).code === 'unavailable' ? 'unavailable' : 'revoked' };
    }
    return { ok: true, reader, client: { id: token.clientId, name: token.clientName }, grantId: token.grantId };
  }

  private async lookUp(secret: string, origin: string): Promise<KnownToken | undefined> {
    const provider = this.provider(origin);
    const token = await provider.AccessToken.find(secret);
    const { grantId, accountId, clientId } = token ?? {};
    if (!token || !grantId || !accountId || !clientId || token.isExpired) return undefined;
    // The grant must still stand: revoking an app deletes it and every token of it.
    const grant = await provider.Grant.find(grantId);
    if (!grant || grant.accountId !== accountId || grant.clientId !== clientId) return undefined;
    const client = await provider.Client.find(clientId);
    if (!client) return undefined;
    return {
      accountId,
      clientId,
      clientName: client.clientName ?? clientId,
      grantId,
      audience: typeof token.aud === 'string' ? token.aud : '',
      expiresAt: token.exp ?? 0,
    };
  }

  /** Whether a token was checked good lately: no refusal limit stands in its way. */
  isKnown(secret: string): boolean {
    const token = this.known.get(hashOf(secret));
    return token !== undefined && token.expiresAt * 1000 > Date.now();
  }

  /** Forgets a revoked grant's tokens on every replica. */
  async forgetGrant(grantId: string): Promise<void> {
    await this.options.identity.shared.broadcast({ grant: grantId });
  }
}
