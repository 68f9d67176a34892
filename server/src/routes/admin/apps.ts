import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { AdminAppList, AdminAppQuery, ConnectedAppParams, ErrorAnswer, NoContent } from '@portal/contract';

import { connectedApps, revokeConnectedApp } from '../../db/oauth.js';
import { signedIn } from '../../plugins/app/guards.js';

/** For administrators: a reader's connected apps, and revoking any of them; both kept in the database. */
const apps: FastifyPluginAsyncTypebox = async (app) => {
  const { store, identity } = app;
  app.addHook('preHandler', app.guards.requireDatabase);
  app.get(
    '/apps',
    { schema: { querystring: AdminAppQuery, response: { 200: AdminAppList, 404: ErrorAnswer, 503: ErrorAnswer } } },
    async (request, reply) => {
      const wanted = request.query.reader.trim();
      const account = wanted.includes('@')
        ? await identity.auth.getUserByEmail(wanted.toLowerCase()).catch(() => null)
        : await identity.auth.getUser(wanted).catch(() => null);
      if (!account) return reply.code(404).send({ error: 'No such reader' });
      return { uid: account.uid, email: account.email ?? null, apps: await connectedApps(store.db, account.uid) };
    },
  );
  app.delete(
    '/apps/:id',
    { schema: { params: ConnectedAppParams, response: { 204: NoContent, 404: ErrorAnswer, 503: ErrorAnswer } } },
    async (request, reply) => {
      const { id } = request.params;
      const revoked = await revokeConnectedApp(store.db, id, null);
      if (!revoked) return reply.code(404).send({ error: 'No such app, or it was already revoked' });
      await app.oauth.forgetGrant(id);
      const admin = await signedIn(request);
      app.audit(request, {
        kind: 'oauth.revoked',
        actorUid: admin.uid,
        actorEmail: admin.email,
        subjectUid: revoked.uid,
        detail: { app: id, client: revoked.clientId, name: revoked.clientName, byAdministrator: true },
      });
      return reply.code(204).send(null);
    },
  );
};
export default apps;
