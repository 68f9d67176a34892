import { parse as parseForm } from 'node:querystring';

import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { loginUrlFor, policy } from '@portal/access';
import {
  AdminAppList,
  AdminAppQuery,
  ConnectedAppList,
  ConnectedAppParams,
  ErrorAnswer,
  NoContent,
} from '@portal/contract';

import type { Reader } from '../auth/identity.js';
import { DOCS_SCOPE, mcpResource } from '../auth/oauth.js';
import { connectedApps, pruneUnauthorisedClients, revokeConnectedApp } from '../db/oauth.js';
import { oauthConsentPage, oauthErrorPage } from '../pages.js';
import { settleOutcome } from '../plugins/reader.js';
import type { GateContext } from './context.js';

/** Requests to the authorization server one client address may make a minute (sign-ins, token calls). */
export const OAUTH_REQUESTS_PER_MINUTE = 60;
/** Client registrations one client address may make a minute: a client registers once. */
export const OAUTH_REGISTRATIONS_PER_MINUTE = 10;

/**
 * The limits of anonymous registration: per client address, and across every address
 * (OAUTH_REGISTRATION_RATE_LIMIT), both on the app's rate-limit store, so replicas count together
 * with Redis. Past either, a 429 with Retry-After and an OAuth error; the per-address limit is
 * asked first, so one address's flood does not spend the shared budget.
 */
function registrationLimits(app: FastifyInstance, perMinuteInAll: number) {
  const minute = 60_000;
  const limits = [
    {
      limit: app.createRateLimit({
        max: OAUTH_REGISTRATIONS_PER_MINUTE,
        timeWindow: minute,
        keyGenerator: (request) => `oauth-register:${request.ip ? normalizeIP(request.ip) : 'no-address'}`,
      }),
      from: 'from this address',
    },
    {
      limit: app.createRateLimit({ max: perMinuteInAll, timeWindow: minute, keyGenerator: () => 'oauth-register:all' }),
      from: 'on this portal',
    },
  ];
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    for (const { limit, from } of limits) {
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
}

/** The origin the portal answers at for this request: PUBLIC_URL, else the Host it was asked by. */
export const originOf = (ctx: Pick<GateContext, 'config'>, request: FastifyRequest): string =>
  ctx.config.publicOrigin ?? canonicalOrigin(`${request.protocol}://${request.host}`);

/** An origin as URLs write it (no default port), remembered: the Host of each request is one of a few. */
const canonical = new Map<string, string>();
function canonicalOrigin(origin: string): string {
  let known = canonical.get(origin);
  if (known === undefined) {
    try {
      known = new URL(origin).origin;
    } catch {
      known = origin;
    }
    if (canonical.size < 64) canonical.set(origin, known);
  }
  return known;
}

/** The URL of the MCP server's protected-resource metadata (RFC 9728 §3.1: the resource's path after the well-known name). */
export const resourceMetadataUrl = (origin: string): string => `${origin}/.well-known/oauth-protected-resource/mcp`;

/** The challenge /mcp answers a missing or refused credential with: where to learn how to get a token. */
export const mcpChallenge = (origin: string): string =>
  `Bearer realm="norigin-developer-docs", resource_metadata="${resourceMetadataUrl(origin)}", scope="${DOCS_SCOPE}"`;

/**
 * Tells the provider (Koa, trusting forwarded headers) the origin the gate worked out, as
 * Fastify did with TRUST_PROXY: a client's own X-Forwarded-* headers never reach it.
 */
function pinOrigin(request: FastifyRequest, origin: string): void {
  const url = new URL(origin);
  const headers = request.raw.headers;
  delete headers['x-forwarded-host'];
  headers.host = url.host;
  headers['x-forwarded-proto'] = url.protocol.replace(':', '');
}

/** Sections that are the portal's own pages, not documentation an assistant reads. */
const APP_SECTIONS = new Set(['administration', 'account']);

/** The labels of the documentation units a reader holds (the open pages first), for the consent page. */
function sectionsOf(units: readonly string[]): string[] {
  return [
    'the open pages',
    ...policy.units
      .filter((unit) => !APP_SECTIONS.has(unit.name) && units.includes(unit.name))
      .map((unit) => unit.label),
  ];
}

/**
 * The OAuth 2.1 authorization server of /mcp (auth/oauth.ts: oidc-provider), at the places
 * the MCP authorization specification looks: protected-resource metadata (RFC 9728),
 * authorization-server metadata (RFC 8414, and OpenID discovery), registration (RFC 7591),
 * authorize, token and revocation under /oauth/, and the portal's consent page. The sign-in is
 * the portal's own /login; the consent page answers the provider's interaction.
 */
export async function oauthRoutes(app: FastifyInstance, ctx: GateContext): Promise<void> {
  const { oauth } = ctx;
  const hidden = { hide: true };
  const perAddress = (max: number) => ({ rateLimit: { max, timeWindow: 60_000 } });

  // RFC 9728: at the resource's own path, and at the root for clients that look there first.
  for (const url of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])
    app.get(url, { schema: hidden, config: perAddress(OAUTH_REQUESTS_PER_MINUTE) }, async (request, reply) =>
      reply
        .header('cache-control', 'public, max-age=300')
        .header('access-control-allow-origin', '*')
        .send(oauth.resourceMetadata(originOf(ctx, request))),
    );

  /** Hands the request to the provider (a Koa app): Fastify leaves the body unread for it. */
  const toProvider = async (request: FastifyRequest, reply: FastifyReply, url?: string): Promise<void> => {
    let provider;
    try {
      const origin = originOf(ctx, request);
      provider = oauth.provider(origin);
      pinOrigin(request, origin);
    } catch (error) {
      await reply.code(400).send({ error: (error as Error).message });
      return;
    }
    reply.hijack();
    if (url !== undefined) request.raw.url = url;
    await provider.callback()(request.raw, reply.raw);
  };

  await app.register(async (scope) => {
    // The provider reads its own bodies (forms and JSON), with its own limits.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    // RFC 8414 names the same document as OpenID discovery: one answer at both places.
    scope.get(
      '/.well-known/oauth-authorization-server',
      { schema: hidden, config: perAddress(OAUTH_REQUESTS_PER_MINUTE) },
      (request, reply) => toProvider(request, reply, '/.well-known/openid-configuration'),
    );
    scope.get(
      '/.well-known/openid-configuration',
      { schema: hidden, config: perAddress(OAUTH_REQUESTS_PER_MINUTE) },
      (request, reply) => toProvider(request, reply),
    );
    // Clients no reader authorised within a day go as new ones come (and daily: db/store.ts).
    const pruneClients = async (request: FastifyRequest): Promise<void> => {
      if (!ctx.store.readyNow) return;
      await pruneUnauthorisedClients(ctx.store.db, new Date(ctx.clock())).catch((error: unknown) =>
        request.log.warn({ err: error }, 'could not prune the OAuth clients no reader authorised'),
      );
    };
    scope.post(
      '/oauth/register',
      { schema: hidden, onRequest: registrationLimits(app, ctx.config.oauthRegistrationsPerMinute) },
      async (request, reply) => {
        await pruneClients(request);
        await toProvider(request, reply);
      },
    );
    scope.route({
      method: ['GET', 'POST', 'OPTIONS'],
      url: '/oauth/*',
      schema: hidden,
      config: perAddress(OAUTH_REQUESTS_PER_MINUTE),
      handler: (request, reply) => toProvider(request, reply),
    });
  });

  // The consent page: the provider's interaction, answered with the portal's sign-in and the reader's choice.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_request, body, done) => done(null, parseForm(body as string)),
    );
    const noStore = ctx.guards.noStore('no-store');
    const html = (reply: FastifyReply, status: number, body: string) =>
      reply.code(status).header('content-type', 'text/html; charset=utf-8').send(body);

    /** The interaction of this browser, or an answer saying it is gone (null). */
    const interactionOf = async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const origin = originOf(ctx, request);
        const provider = oauth.provider(origin);
        pinOrigin(request, origin);
        const details = await provider.interactionDetails(request.raw, reply.raw);
        return { provider, details };
      } catch {
        await html(
          reply,
          400,
          oauthErrorPage(
            'This sign-in request has expired',
            'The request your assistant started is no longer open in this browser (it lasts ten minutes, and works once).',
          ),
        );
        return null;
      }
    };

    /** The portal's reader of this browser's session; without one, sent to sign in and back (null). */
    const readerOf = async (request: FastifyRequest, reply: FastifyReply): Promise<Reader | null> => {
      const outcome = await request.reader;
      settleOutcome(outcome, request, reply, ctx);
      if (outcome.kind === 'reader') return outcome.reader;
      if (outcome.kind === 'unavailable') {
        await html(
          reply,
          503,
          oauthErrorPage('We cannot check your sign-in right now', 'Please try again in a moment.'),
        );
        return null;
      }
      await reply.redirect(loginUrlFor(request.url), 302);
      return null;
    };

    scope.get(
      '/oauth/consent/:uid',
      { schema: hidden, onRequest: noStore, config: perAddress(OAUTH_REQUESTS_PER_MINUTE) },
      async (request, reply) => {
        const interaction = await interactionOf(request, reply);
        if (interaction === null) return reply;
        const reader = await readerOf(request, reply);
        if (reader === null) return reply;
        const { provider, details } = interaction;
        // The provider's own sign-in step is the portal's session: the reader signed in at /login.
        // A different reader than the one the request started with starts over as this one.
        if (details.prompt.name === 'login' || details.session?.accountId !== reader.uid) {
          reply.hijack();
          await provider.interactionFinished(
            request.raw,
            reply.raw,
            { login: { accountId: reader.uid } },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        const client = await provider.Client.find(String(details.params.client_id));
        if (!client)
          return html(reply, 400, oauthErrorPage('Unknown application', 'This application is not registered.'));
        const redirect = String(details.params.redirect_uri ?? '');
        let redirectTo = redirect;
        let formTarget = "'self'";
        try {
          const url = new URL(redirect);
          redirectTo =
            url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : `${url.protocol}//${url.host}`;
          formTarget = url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
        } catch {
          // The provider checked the redirect already; an odd one is shown as it is.
        }
        // The answer's redirects lead on to the client's redirect URI: a form may go there.
        const csp = String(reply.raw.getHeader('content-security-policy') ?? '').replace(
          /form-action [^;]*/,
          `form-action 'self' ${formTarget}`,
        );
        if (csp) void reply.header('content-security-policy', csp);
        return html(
          reply,
          200,
          oauthConsentPage({
            action: `/oauth/consent/${details.uid}`,
            clientName: client.clientName ?? client.clientId,
            clientId: client.clientId,
            redirectTo,
            email: reader.email,
            sections: sectionsOf(reader.units),
          }),
        );
      },
    );

    scope.post(
      '/oauth/consent/:uid',
      {
        schema: hidden,
        onRequest: [noStore, ctx.guards.requireSameOrigin],
        config: perAddress(OAUTH_REQUESTS_PER_MINUTE),
      },
      async (request, reply) => {
        const decision = (request.body as Record<string, unknown> | undefined)?.decision;
        if (decision !== 'allow' && decision !== 'deny')
          return reply.code(400).send({ error: 'decision must be allow or deny' });
        const interaction = await interactionOf(request, reply);
        if (interaction === null) return reply;
        const reader = await readerOf(request, reply);
        if (reader === null) return reply;
        const { provider, details } = interaction;
        if (details.prompt.name !== 'consent' || details.session?.accountId !== reader.uid)
          return html(
            reply,
            400,
            oauthErrorPage('This sign-in request has changed', 'Open the page your assistant sent you to again.'),
          );
        const clientId = String(details.params.client_id);
        if (decision === 'deny') {
          reply.hijack();
          await provider.interactionFinished(
            request.raw,
            reply.raw,
            { error: 'access_denied', error_description: 'The reader did not allow it' },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        const grant = details.grantId
          ? ((await provider.Grant.find(details.grantId)) ?? new provider.Grant({ accountId: reader.uid, clientId }))
          : new provider.Grant({ accountId: reader.uid, clientId });
        const missing = details.prompt.details as {
          missingOIDCScope?: string[];
          missingResourceScopes?: Record<string, string[]>;
        };
        if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
        for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
          grant.addResourceScope(indicator, scopes.join(' '));
        // The MCP server's scope, whatever the client asked: it is the only thing it may read.
        grant.addResourceScope(mcpResource(originOf(ctx, request)), DOCS_SCOPE);
        const grantId = await grant.save();
        const client = await provider.Client.find(clientId);
        ctx.audit(request, {
          kind: 'oauth.authorised',
          actorUid: reader.uid,
          actorEmail: reader.email,
          groups: reader.groups,
          detail: { app: grantId, client: clientId, name: client?.clientName ?? clientId },
        });
        reply.hijack();
        await provider.interactionFinished(
          request.raw,
          reply.raw,
          { consent: { grantId } },
          { mergeWithLastSubmission: true },
        );
      },
    );
  });

  // Connected apps: the reader's own, with the session (the /account page).
  const sessionOnly = [
    ctx.guards.noStore('private, no-store'),
    ctx.guards.writesFromThisSite,
    ctx.guards.requireReader('Sign in to see your connected apps'),
    async (_request: FastifyRequest, reply: FastifyReply) => {
      if (!reply.sent && !ctx.store.readyNow)
        return reply.code(503).send({ error: 'Connected apps are not available right now' });
    },
  ];
  app.get(
    '/api/apps',
    { onRequest: sessionOnly, schema: { response: { 200: ConnectedAppList } } },
    async (request) => ({
      apps: await connectedApps(ctx.store.db, (request.signedIn as Reader).uid),
    }),
  );
  app.delete(
    '/api/apps/:id',
    {
      onRequest: sessionOnly,
      config: perAddress(OAUTH_REQUESTS_PER_MINUTE),
      schema: { params: ConnectedAppParams, response: { 204: NoContent, 404: ErrorAnswer } },
    },
    async (request, reply) => {
      const reader = request.signedIn as Reader;
      const { id } = request.params as { id: string };
      const revoked = await revokeConnectedApp(ctx.store.db, id, reader.uid);
      if (!revoked) return reply.code(404).send({ error: 'No such app of yours, or it was already revoked' });
      await oauth.forgetGrant(id);
      ctx.audit(request, {
        kind: 'oauth.revoked',
        actorUid: reader.uid,
        actorEmail: reader.email,
        detail: { app: id, client: revoked.clientId, name: revoked.clientName },
      });
      return reply.code(204).send();
    },
  );
}

/** For administrators: a reader's connected apps, and revoking any of them (under /api/admin). */
export async function adminAppRoutes(app: FastifyInstance, ctx: GateContext): Promise<void> {
  app.get(
    '/apps',
    { schema: { querystring: AdminAppQuery, response: { 200: AdminAppList, 404: ErrorAnswer, 503: ErrorAnswer } } },
    async (request, reply) => {
      if (!ctx.store.readyNow)
        return reply.code(503).send({ error: 'The database is not reachable; try again shortly' });
      const wanted = (request.query as AdminAppQuery).reader.trim();
      const account = wanted.includes('@')
        ? await ctx.identity.auth.getUserByEmail(wanted.toLowerCase()).catch(() => null)
        : await ctx.identity.auth.getUser(wanted).catch(() => null);
      if (!account) return reply.code(404).send({ error: 'No such reader' });
      return { uid: account.uid, email: account.email ?? null, apps: await connectedApps(ctx.store.db, account.uid) };
    },
  );
  app.delete(
    '/apps/:id',
    { schema: { params: ConnectedAppParams, response: { 204: NoContent, 404: ErrorAnswer } } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const revoked = await revokeConnectedApp(ctx.store.db, id, null);
      if (!revoked) return reply.code(404).send({ error: 'No such app, or it was already revoked' });
      await ctx.oauth.forgetGrant(id);
      ctx.audit(request, {
        kind: 'oauth.revoked',
        actorUid: request.signedIn?.uid,
        actorEmail: request.signedIn?.email,
        subjectUid: revoked.uid,
        detail: { app: id, client: revoked.clientId, name: revoked.clientName, byAdministrator: true },
      });
      return reply.code(204).send();
    },
  );
}
