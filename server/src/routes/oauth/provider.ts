import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { pruneUnauthorisedClients } from '../../db/oauth.js';
import { OAUTH_REQUESTS_PER_MINUTE } from '../../plugins/app/oauth.js';

/** Client registrations one client address may make a minute: a client registers once. */
export const OAUTH_REGISTRATIONS_PER_MINUTE = 10;

/**
 * The OAuth 2.1 authorization server of /mcp (auth/oauth.ts: oidc-provider), where the MCP
 * authorization specification looks: authorization-server metadata (RFC 8414, and OpenID
 * discovery), registration (RFC 7591), and authorize, token and revocation under /oauth/.
 * The provider reads its own bodies, with its own limits.
 */
const provider: FastifyPluginAsyncTypebox = async (app) => {
  const { store, clock } = app;
  const hidden = { hide: true };
  const perAddress = { rateLimit: { max: OAUTH_REQUESTS_PER_MINUTE, timeWindow: 60_000 } };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  /** Hands the request to the provider (a Koa app): Fastify leaves the body unread for it. */
  const toProvider = async (request: FastifyRequest, reply: FastifyReply, url?: string): Promise<void> => {
    let handler;
    try {
      handler = app.providerFor(request).callback();
    } catch (error) {
      await reply.code(400).send({ error: (error as Error).message });
      return;
    }
    reply.hijack();
    if (url !== undefined) request.raw.url = url;
    await handler(request.raw, reply.raw);
  };

  // RFC 8414 names the same document as OpenID discovery: one answer at both places.
  app.get('/.well-known/oauth-authorization-server', { schema: hidden, config: perAddress }, (request, reply) =>
    toProvider(request, reply, '/.well-known/openid-configuration'),
  );
  app.get('/.well-known/openid-configuration', { schema: hidden, config: perAddress }, (request, reply) =>
    toProvider(request, reply),
  );

  /**
   * The limits of anonymous registration: per client address, and across every address
   * (OAUTH_REGISTRATION_RATE_LIMIT), both on the app's rate-limit store, so replicas count
   * together with Redis. Past either, a 429 with Retry-After and an OAuth error; the
   * per-address limit is asked first, so one address's flood does not spend the shared budget.
   */
  const minute = 60_000;
  const registrationLimits = [
    {
      limit: app.createRateLimit({
        max: OAUTH_REGISTRATIONS_PER_MINUTE,
        timeWindow: minute,
        keyGenerator: (request) => `oauth-register:${request.ip ? normalizeIP(request.ip) : 'no-address'}`,
      }),
      from: 'from this address',
    },
    {
      limit: app.createRateLimit({
        max: app.config.oauthRegistrationsPerMinute,
        timeWindow: minute,
        keyGenerator: () => 'oauth-register:all',
      }),
      from: 'on this portal',
    },
  ];
  const limitRegistrations = async (request: FastifyRequest, reply: FastifyReply) => {
    for (const { limit, from } of registrationLimits) {
      const state = await limit(request);
      if (state.isAllowed || !state.isExceeded) continue;
      const wait = state.ttlInSeconds > 0 ? state.ttlInSeconds : minute / 1000;
      return reply
        .code(429)
        .header('retry-after', String(wait))
        .header('cache-control', 'no-store')
        .send({
          error: 'temporarily_unavailable',
          error_description: `Too many client registrations ${from} this minute; try again in ${wait} s`,
        });
    }
    return undefined;
  };
  app.post('/oauth/register', { schema: hidden, onRequest: limitRegistrations }, async (request, reply) => {
    // Clients no reader authorised within a day go as new ones come (and daily: db/store.ts).
    if (store.readyNow)
      await pruneUnauthorisedClients(store.db, new Date(clock())).catch((error: unknown) =>
        request.log.warn({ err: error }, 'could not prune the OAuth clients no reader authorised'),
      );
    await toProvider(request, reply);
  });
  app.route({
    method: ['GET', 'POST', 'OPTIONS'],
    url: '/oauth/*',
    schema: hidden,
    config: perAddress,
    handler: (request, reply) => toProvider(request, reply),
  });
};
export default provider;
