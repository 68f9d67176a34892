import { parse as parseForm } from 'node:querystring';

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { policy } from '@portal/access';

import type { Reader } from '../../auth/identity.js';
import { DOCS_SCOPE, mcpResource } from '../../auth/oauth.js';
import { oauthConsentPage, oauthErrorPage } from '../../pages.js';
import { OAUTH_REQUESTS_PER_MINUTE } from '../../plugins/app/oauth.js';

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

/** The consent form's answer: `allow`, `deny`, or whatever else was sent (refused with a reason). */
const decisionOf = (body: unknown): unknown =>
  typeof body === 'object' && body !== null && 'decision' in body ? body.decision : undefined;

/**
 * The consent page of an assistant's sign-in: the provider's interaction, answered with the
 * portal's own sign-in (a reader who is not signed in goes to /login and back) and the
 * reader's choice.
 */
const consent: FastifyPluginAsyncTypebox = async (app) => {
  const { guards } = app;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => done(null, parseForm(body as string)),
  );
  const noStore = guards.noStore('no-store');
  const perAddress = { rateLimit: { max: OAUTH_REQUESTS_PER_MINUTE, timeWindow: 60_000 } };
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('content-type', 'text/html; charset=utf-8').send(body);

  /** The interaction of this browser, or an answer saying it is gone (null). */
  const interactionOf = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const provider = app.providerFor(request);
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

  /** The portal's reader of this browser's session; without one, the page's refusal (null): sign in and come back. */
  const readerOf = async (request: FastifyRequest, reply: FastifyReply): Promise<Reader | null> => {
    const outcome = await request.reader;
    if (outcome.kind === 'reader') return outcome.reader;
    await reply.refuse(outcome, 'page');
    return null;
  };

  app.get(
    '/oauth/consent/:uid',
    { schema: { hide: true }, onRequest: noStore, config: perAddress },
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

  app.post(
    '/oauth/consent/:uid',
    {
      schema: { hide: true },
      onRequest: [noStore, guards.requireSameOrigin],
      config: perAddress,
    },
    async (request, reply) => {
      const decision = decisionOf(request.body);
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
      grant.addResourceScope(mcpResource(app.originOf(request)), DOCS_SCOPE);
      const grantId = await grant.save();
      const client = await provider.Client.find(clientId);
      app.audit(request, {
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
};
export default consent;
