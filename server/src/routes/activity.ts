import type { FastifyInstance } from 'fastify';

import { canRead } from '@portal/access';
import { Accepted, ErrorAnswer, FeedbackAnswer, FeedbackBody, FeedbackQuery, SearchEvent } from '@portal/contract';

import { feedbackOf, saveFeedback } from '../db/activity.js';
import type { GateContext } from './context.js';

/**
 * What readers tell the portal as they read: "Was this page helpful?" (one answer per
 * reader and page, which they can change) and the searches they finished with their
 * result counts, for the insights. Signed-in readers only, about pages they may read.
 */
export async function activityRoutes(app: FastifyInstance, ctx: GateContext): Promise<void> {
  const { store } = ctx;

  app.addHook('onRequest', ctx.guards.noStore('private, no-store'));
  app.addHook('onRequest', ctx.guards.writesFromThisSite);
  app.addHook('onRequest', ctx.guards.requireReader('Sign in to do this'));

  const limited = { rateLimit: { max: 60, timeWindow: 60_000, hook: 'preHandler' as const } };

  app.get(
    '/feedback',
    {
      schema: { querystring: FeedbackQuery, response: { 200: FeedbackAnswer, 404: ErrorAnswer, 503: ErrorAnswer } },
    },
    async (request, reply) => {
      const reader = request.signedIn;
      const { path } = request.query as { path: string };
      if (!reader || !canRead(reader.units, path)) return reply.code(404).send({ error: 'No such page' });
      if (!store.readyNow) return reply.code(503).send({ error: 'Feedback is not available right now' });
      return { feedback: await feedbackOf(store.db, reader.uid, path) };
    },
  );

  app.put(
    '/feedback',
    {
      config: limited,
      schema: { body: FeedbackBody, response: { 200: FeedbackAnswer, 404: ErrorAnswer, 503: ErrorAnswer } },
    },
    async (request, reply) => {
      const reader = request.signedIn;
      const body = request.body as FeedbackBody;
      // A page the reader may not read is answered as one that does not exist.
      if (!reader || !canRead(reader.units, body.path) || !ctx.site.lookup(body.path))
        return reply.code(404).send({ error: 'No such page' });
      if (!store.readyNow) return reply.code(503).send({ error: 'Feedback is not available right now' });
      const comment = body.comment?.trim() || null;
      const saved = await saveFeedback(store.db, {
        uid: reader.uid,
        path: ctx.site.lookup(body.path)?.url ?? body.path,
        groups: reader.groups,
        helpful: body.helpful,
        comment,
      });
      return { feedback: saved };
    },
  );

  app.post(
    '/search-events',
    {
      config: limited,
      schema: { body: SearchEvent, response: { 202: Accepted } },
    },
    async (request, reply) => {
      const reader = request.signedIn;
      const body = request.body as SearchEvent;
      if (reader)
        store.searches.record({
          uid: reader.uid,
          groups: reader.groups,
          query: body.query.trim(),
          results: body.results,
        });
      return reply.code(202).send();
    },
  );
}
