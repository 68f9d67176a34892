import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { canRead, policy } from '@portal/access';
import { CreatedToken, ErrorAnswer, NoContent, TokenCreate, TokenIdParams, TokenList } from '@portal/contract';

import { MAX_LIVE_TOKENS, MAX_TOKEN_DAYS, TooManyTokensError } from '../../auth/tokens.js';
import { listTokens } from '../../db/tokens.js';
import { ADMIN_PATH, signedIn } from '../../plugins/app/guards.js';

/** A reader's personal access tokens (the /account page): made and revoked with the session, never with a token. */
const tokens: FastifyPluginAsyncTypebox = async (app) => {
  const { store, guards } = app;

  app.get(
    '/tokens',
    { preHandler: guards.requireDatabase, schema: { response: { 200: TokenList } } },
    async (request) => {
      const reader = await signedIn(request);
      return {
        email: reader.email,
        groups: [...reader.groups],
        groupLabels: [...policy.groups],
        tokens: await listTokens(store.db, reader.uid),
        maxDays: MAX_TOKEN_DAYS,
        maxLive: MAX_LIVE_TOKENS,
      };
    },
  );

  app.post(
    '/tokens',
    {
      preHandler: guards.requireDatabase,
      config: { rateLimit: { max: 20, timeWindow: 60_000, hook: 'preHandler' as const } },
      schema: { body: TokenCreate, response: { 201: CreatedToken, 403: ErrorAnswer, 409: ErrorAnswer } },
    },
    async (request, reply) => {
      const reader = await signedIn(request);
      const { name, days, scope = 'read' } = request.body;
      // Whoever may read the administration page may automate it: the policy decides, as for the API.
      if (scope === 'admin' && !canRead(reader.units, ADMIN_PATH))
        return reply.code(403).send({ error: 'Only administrators may make a token for the administration API' });
      let created;
      try {
        created = await app.tokens.create(reader, name.trim(), days, scope);
      } catch (error) {
        if (error instanceof TooManyTokensError) return reply.code(409).send({ error: error.message });
        throw error;
      }
      const { token, record } = created;
      app.audit(request, {
        kind: 'token.created',
        actorUid: reader.uid,
        actorEmail: reader.email,
        groups: reader.groups,
        detail: { token: record.id, name: record.name, expiresAt: record.expiresAt, scope: record.scope },
      });
      return reply.code(201).send({ token, record });
    },
  );

  app.delete(
    '/tokens/:id',
    {
      preHandler: guards.requireDatabase,
      schema: { params: TokenIdParams, response: { 204: NoContent, 404: ErrorAnswer } },
    },
    async (request, reply) => {
      const reader = await signedIn(request);
      const { id } = request.params;
      const revoked = await app.tokens.revoke(id, reader.uid);
      if (!revoked) return reply.code(404).send({ error: 'No such token of yours, or it was already revoked' });
      app.audit(request, {
        kind: 'token.revoked',
        actorUid: reader.uid,
        actorEmail: reader.email,
        detail: { token: id, name: revoked.name },
      });
      return reply.code(204).send(null);
    },
  );
};
export default tokens;
