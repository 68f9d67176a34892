import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';

import { REQUEST_ACCESS } from '@portal/access';
import {
  AuthConfig,
  ErrorAnswer,
  NoContent,
  SessionAnswer,
  SessionRefusal,
  SessionStart,
  SignInOptions,
  SignInOptionsQuery,
} from '@portal/contract';
import { SESSION_COOKIE } from '@portal/contract/names';

import { AuthError, SIGN_IN_STATUS } from '../auth/errors.js';
import type { Identity } from '../auth/identity.js';
import { acceptInvitation, invitationFor } from '../db/activity.js';
import { endingSoon } from '../licence-notices.js';

/**
 * The session API the site and the tests rely on (docs/architecture.md, "Sessions"): the
 * login page's configuration, who is signed in, signing in with a fresh ID token and out.
 */
const session: FastifyPluginAsyncTypebox = async (app) => {
  const { config, identity, store, directory, readerIndex, sessionCookies, guards, licences } = app;

  app.get('/api/auth-config', { schema: { response: { 200: AuthConfig } } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send({
      apiKey: config.identity.apiKey,
      authDomain: config.identity.authDomain,
      projectId: config.identity.projectId,
      emulatorUrl: config.identity.emulatorHost ? `http://${config.identity.emulatorHost}` : null,
    }),
  );

  /**
   * How a reader at an address signs in, for the login page's e-mail step: the organisation's
   * own provider when its domain has one, and whether a password may be used. It says nothing
   * of the account (whether there is one): only what the domain's organisation chose.
   */
  app.get(
    '/api/sign-in-options',
    { schema: { querystring: SignInOptionsQuery, response: { 200: SignInOptions, 400: ErrorAnswer } } },
    async (request, reply) => {
      const { email } = request.query;
      const at = email.lastIndexOf('@');
      if (at < 1 || at === email.length - 1)
        return reply.code(400).send({ error: 'Enter an e-mail address (name@company.example)' });
      const rule = licences.signInOf(email);
      return reply
        .header('cache-control', 'no-store')
        .send({ provider: rule ? { id: rule.provider, name: rule.name } : null, password: !rule?.required });
    },
  );

  app.get(
    '/api/session',
    { schema: { response: { 200: SessionAnswer, 401: ErrorAnswer, 503: ErrorAnswer } } },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store').header('vary', 'Cookie');
      const outcome = await request.reader;
      if (outcome.kind !== 'reader') return reply.refuse(outcome);
      sessionCookies.hint(request, reply, outcome.reader);
      const { email, groups, units, organisation } = outcome.reader;
      // A reader has an organisation only by placement or by a verified e-mail's domain.
      const licenceEnding = organisation
        ? endingSoon(licences, { email, emailVerified: true, groups }, app.clock(), config.licenceNoticeDays)
        : null;
      return reply.send({ email, groups: [...groups], units: [...units], ...(licenceEnding ? { licenceEnding } : {}) });
    },
  );

  /**
   * Starts a session; an account without a group that has an open invitation for its
   * e-mail (one the identity service vouches for) gets the invitation's groups first.
   */
  const startSession = async (request: FastifyRequest, idToken: string): ReturnType<Identity['startSession']> => {
    try {
      return await identity.startSession(idToken);
    } catch (error) {
      if (!(error instanceof AuthError) || error.code !== 'no-access' || !error.uid || !error.email) throw error;
      if (!store.readyNow) throw error;
      const groups = await invitationFor(store.db, error.email);
      if (groups === null) throw error;
      const after = await directory.applyInvitation(error.uid, groups);
      if (after === null) throw error;
      await acceptInvitation(store.db, error.email);
      readerIndex.update(after);
      app.audit(request, {
        kind: 'invitation.accepted',
        actorUid: after.uid,
        actorEmail: after.email,
        groups: after.groups,
        detail: { groups },
      });
      return identity.startSession(idToken);
    }
  };

  app.post(
    '/api/session',
    {
      onRequest: guards.requireSameOrigin,
      config: { rateLimit: { max: config.session.rateLimitPerMinute, timeWindow: 60_000 } },
      schema: {
        body: SessionStart,
        response: { 200: SessionAnswer, 401: SessionRefusal, 403: SessionRefusal, 503: SessionRefusal },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      let started;
      try {
        started = await startSession(request, request.body.idToken);
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        if (error.code === 'unavailable')
          request.log.warn({ err: error.cause }, 'identity service unavailable at sign-in');
        else request.log.info({ code: error.code }, 'sign-in refused');
        if (error.code !== 'unavailable' && error.uid)
          app.audit(request, {
            kind: 'session.refused',
            actorUid: error.uid,
            actorEmail: error.email,
            detail: { code: error.code },
          });
        const status = SIGN_IN_STATUS[error.code];
        // Who is signed in and how to ask for access, for the login page to say so.
        const refusal = status === 403 ? { email: error.email, requestAccess: REQUEST_ACCESS.email } : {};
        return reply.code(status).send({ error: error.message, code: error.code, ...refusal });
      }
      const { cookie: value, reader } = started;
      sessionCookies.set(request, reply, value, reader);
      request.log.info({ uid: reader.uid, groups: reader.groups }, 'session started');
      app.audit(request, {
        kind: 'session.started',
        actorUid: reader.uid,
        actorEmail: reader.email,
        groups: reader.groups,
      });
      // The readers list follows what a sign-in may have changed (a first password verifies
      // the address, and with it the organisation by domain), off the answer's path.
      void directory.get(reader.uid).then(
        (account) => readerIndex.update(account),
        (error: unknown) => request.log.warn({ err: error }, 'could not refresh the reader in the readers list'),
      );
      return reply.send({ email: reader.email, groups: [...reader.groups], units: [...reader.units] });
    },
  );

  app.post(
    '/api/logout',
    { onRequest: guards.requireSameOrigin, schema: { response: { 204: NoContent } } },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const raw = request.cookies[SESSION_COOKIE];
      sessionCookies.clear(request, reply);
      if (raw) {
        try {
          const reader = await identity.endSession(raw);
          if (reader) {
            request.log.info({ uid: reader.uid }, 'session ended; refresh tokens revoked');
            app.audit(request, { kind: 'session.logout', actorUid: reader.uid, actorEmail: reader.email });
          }
        } catch (error) {
          // The cookie is gone from this browser either way; revocation is retried at the next logout.
          request.log.warn({ err: error }, 'could not revoke refresh tokens at logout');
        }
      }
      return reply.code(204).send(null);
    },
  );
};
export default session;
