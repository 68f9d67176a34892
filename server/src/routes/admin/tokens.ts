import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { AdminTokenList, AdminTokenQuery, ErrorAnswer, NoContent, TokenIdParams } from '@portal/contract';

import { queryTokens, tokenCursorOf } from '../../db/tokens.js';
import { signedIn } from '../../plugins/app/guards.js';

/** Most tokens on a page of the administrators' list. */
const ADMIN_TOKEN_PAGE = 200;

/** For administrators: every reader's tokens, a page at a time, and revoking any of them; both kept in the database. */
const tokens: FastifyPluginAsyncTypebox = async (app) => {
  const { store } = app;
  app.addHook('preHandler', app.guards.requireDatabase);
  app.get(
    '/tokens',
    { schema: { querystring: AdminTokenQuery, response: { 200: AdminTokenList, 503: ErrorAnswer } } },
    async (request) => {
      const { query } = request;
      const limit = Math.min(Number(query.limit ?? ADMIN_TOKEN_PAGE), ADMIN_TOKEN_PAGE);
      const tokens = await queryTokens(store.db, { reader: query.reader, before: query.before, limit });
      const last = tokens.at(-1);
      return { tokens, next: tokens.length === limit && last ? tokenCursorOf(last) : null };
    },
  );
  app.delete(
    '/tokens/:id',
    { schema: { params: TokenIdParams, response: { 204: NoContent, 404: ErrorAnswer, 503: ErrorAnswer } } },
    async (request, reply) => {
      const { id } = request.params;
      const revoked = await app.tokens.revoke(id, null);
      if (!revoked) return reply.code(404).send({ error: 'No such token, or it was already revoked' });
      const admin = await signedIn(request);
      app.audit(request, {
        kind: 'token.revoked',
        actorUid: admin.uid,
        actorEmail: admin.email,
        subjectUid: revoked.uid,
        subjectEmail: revoked.email,
        detail: { token: id, name: revoked.name, byAdministrator: true },
      });
      return reply.code(204).send(null);
    },
  );
};
export default tokens;
