import type { FastifyInstance } from 'fastify';

import { canRead } from '@portal/access';
import { ErrorAnswer, FeedbackAnswer, FeedbackBody, FeedbackQuery, SearchEvent } from '@portal/contract';

import { feedbackOf, saveFeedback } from '../db/activity.js';
import type { GateContext } from './context.js';

/**
 * What readers tell the portal as they read: "Was this page helpful?" (one answer per
 * reader and page, which they can change) and the searches they finished with their
 * result counts, for the insights. Signed-in readers only, about pages they may read.
 */
export async function activityRoutes(app: FastifyInstance, ctx: GateContext): Promise<void> {
  const { store } = ctx;

  app.addHook('onRequest', async (request, reply) => {
    void reply.header('cache-control', 'private, no-store').header('vary', 'Cookie');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      await ctx.requireSameOrigin(request, reply);
      if (reply.sent) return;
    }
    const reader = await ctx.readerOf(request, reply);
    if (reader === 'unavailable') return reply.code(503).send({ error: 'The sign-in service is not answering' });
    if (reader === 'anonymous') return reply.code(401).send({ error: 'Sign in to do this' });
    request.portalReaderResolved = reader;
  });

  const limited = { rateLimit: { max: 60, timeWindow: 60_000, hook: 'preHandler' as const } };

  app.get(
    '/feedback',
    {
      schema: { querystring: FeedbackQuery, response: { 200: FeedbackAnswer, 404: ErrorAnswer, 503: ErrorAnswer } },
    },
    async (request, reply) => {
      const reader = request.portalReaderResolved;
      const { path } = request.query as { path: string };
      if (!reader || !canRead(reader.groups, path)) return reply.code(404).send({ error: 'No such page' });
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
      const reader = request.portalReaderResolved;
      const body = request.body as FeedbackBody;
      // A page the reader may not read is answered as one that does not exist.
      if (!reader || !canRead(reader.groups, body.path) || !ctx.site.lookup(body.path))
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
      schema: { body: SearchEvent },
    },
    async (request, reply) => {
      const reader = request.portalReaderResolved;
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

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in reader of an activity call, set by its guard. */
    portalReaderResolved?: import('../auth/identity.js').Reader;
  }
}
