import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { canRead } from '@portal/access';
import { Accepted, ErrorAnswer, FeedbackAnswer, FeedbackBody, FeedbackQuery, SearchEvent } from '@portal/contract';

import { feedbackOf, saveFeedback } from '../../db/activity.js';
import { signedIn } from '../../plugins/app/guards.js';

/**
 * What readers tell the portal as they read: "Was this page helpful?" (one answer per
 * reader and page, which they can change) and the searches they finished with their
 * result counts, for the insights. Signed-in readers only, about pages they may read.
 */
const activity: FastifyPluginAsyncTypebox = async (app) => {
  const { store, site, guards } = app;
  const limited = { rateLimit: { max: 60, timeWindow: 60_000, hook: 'preHandler' as const } };
  const noSuchPage = { error: 'No such page' };

  app.get(
    '/feedback',
    { schema: { querystring: FeedbackQuery, response: { 200: FeedbackAnswer, 404: ErrorAnswer, 503: ErrorAnswer } } },
    async (request, reply) => {
      const reader = await signedIn(request);
      const { path } = request.query;
      if (!canRead(reader.units, path)) return reply.code(404).send(noSuchPage);
      const closed = await guards.requireDatabase(request, reply);
      if (closed) return closed;
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
      const reader = await signedIn(request);
      const { body } = request;
      const page = site.lookup(body.path);
      // A page the reader may not read is answered as one that does not exist.
      if (!canRead(reader.units, body.path) || !page) return reply.code(404).send(noSuchPage);
      const closed = await guards.requireDatabase(request, reply);
      if (closed) return closed;
      const saved = await saveFeedback(store.db, {
        uid: reader.uid,
        path: page.url,
        groups: reader.groups,
        helpful: body.helpful,
        comment: body.comment?.trim() || null,
      });
      return { feedback: saved };
    },
  );

  app.post(
    '/search-events',
    { config: limited, schema: { body: SearchEvent, response: { 202: Accepted } } },
    async (request, reply) => {
      const reader = await signedIn(request);
      const { body } = request;
      store.searches.record({
        uid: reader.uid,
        groups: reader.groups,
        query: body.query.trim(),
        results: body.results,
      });
      return reply.code(202).send(null);
    },
  );
};
export default activity;
