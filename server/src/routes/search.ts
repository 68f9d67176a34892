import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { SearchAnswer, SearchQuery } from '@portal/contract';

import { clientOf } from '../auth/reader.js';

/** `GET /api/search`: the one search (packages/search) over what the reader behind the request may read. */
const search: FastifyPluginAsyncTypebox = async (app) => {
  const { meter, store } = app;
  app.get(
    '/api/search',
    {
      config: { token: 'read' },
      preHandler: (request, reply) => meter.admit(request, reply),
      schema: { querystring: SearchQuery, response: { 200: SearchAnswer } },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store').header('vary', 'Cookie, Authorization');
      const outcome = await request.reader;
      const { q, limit, version } = request.query;
      const units = outcome.kind === 'reader' ? outcome.reader.units : [];
      const results = await app.siteSearch.search(units, q, limit ? Number(limit) : 10, version);
      // An assistant's search (a token or OAuth); a session's is the reader's own browser, counted by the site.
      const client = clientOf(outcome);
      if (client !== null && outcome.kind === 'reader')
        store.searches.record({
          uid: outcome.reader.uid,
          groups: outcome.reader.groups,
          query: q.trim(),
          results: results.length,
          via: 'api',
          client,
        });
      return { query: q, ...(version === undefined ? {} : { version }), results };
    },
  );
};
export default search;
