import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { ConnectedAppList, ConnectedAppParams, ErrorAnswer, NoContent } from '@portal/contract';

import { connectedApps, revokeConnectedApp } from '../../db/oauth.js';
import { signedIn } from '../../plugins/app/guards.js';
import { OAUTH_REQUESTS_PER_MINUTE } from '../../plugins/app/oauth.js';

/** A reader's connected apps (assistants they authorised through OAuth), with the session (the /account page). */
const apps: FastifyPluginAsyncTypebox = async (app) => {
  const { store, guards } = app;
  app.get(
    '/apps',
    { preHandler: guards.requireDatabase, schema: { response: { 200: ConnectedAppList } } },
    async (request) => ({ apps: await connectedApps(store.db, (await signedIn(request)).uid) }),
  );
  app.delete(
    '/apps/:id',
    {
      preHandler: guards.requireDatabase,
      config: { rateLimit: { max: OAUTH_REQUESTS_PER_MINUTE, timeWindow: 60_000 } },
      schema: { params: ConnectedAppParams, response: { 204: NoContent, 404: ErrorAnswer } },
    },
    async (request, reply) => {
      const reader = await signedIn(request);
      const { id } = request.params;
      const revoked = await revokeConnectedApp(store.db, id, reader.uid);
      if (!revoked) return reply.code(404).send({ error: 'No such app of yours, or it was already revoked' });
      await app.oauth.forgetGrant(id);
      app.audit(request, {
        kind: 'oauth.revoked',
        actorUid: reader.uid,
        actorEmail: reader.email,
        detail: { app: id, client: revoked.clientId, name: revoked.clientName },
      });
      return reply.code(204).send(null);
    },
  );
};
export default apps;
