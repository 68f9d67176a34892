import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type Provider from 'oidc-provider';

import { OAuthServer } from '../../auth/oauth.js';
import { markGrantUsed, OAuthRecords } from '../../db/oauth.js';
import { oauthErrorPage } from '../../pages.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The OAuth authorization server of /mcp, and the check of its access tokens (auth/oauth.ts). */
    oauth: OAuthServer;
    /**
     * The provider (oidc-provider, a Koa app) at the request's origin, told that origin as the
     * gate worked it out with TRUST_PROXY: a client's own X-Forwarded-* headers never reach it.
     */
    providerFor(request: FastifyRequest): Provider;
  }
}

/** Requests to the authorization server one client address may make a minute (sign-ins, token calls, consent). */
export const OAUTH_REQUESTS_PER_MINUTE = 60;

/** The authorization server of /mcp, its records in the portal's database. */
export default fp(
  async (app) => {
    const { config, store } = app;
    const oauth = new OAuthServer(
      {
        identity: app.identity,
        adapter: (kind) => new OAuthRecords(kind, () => store.db),
        secret: config.session.secret,
        errorPage: oauthErrorPage,
      },
      config.session.cacheTtlSeconds,
    );
    oauth.onUse = (grantId) => {
      if (store.readyNow)
        markGrantUsed(store.db, grantId).catch((error: unknown) =>
          app.log.warn({ err: error }, 'could not mark a connected app used'),
        );
    };
    app.decorate('oauth', oauth);
    app.decorate('providerFor', (request: FastifyRequest) => {
      const origin = app.originOf(request);
      const provider = oauth.provider(origin);
      const url = new URL(origin);
      const headers = request.raw.headers;
      delete headers['x-forwarded-host'];
      headers.host = url.host;
      headers['x-forwarded-proto'] = url.protocol.replace(':', '');
      return provider;
    });
  },
  { name: 'oauth', dependencies: ['config', 'store', 'identity', 'origin'] },
);
