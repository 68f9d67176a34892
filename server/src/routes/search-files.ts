import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { mayRead } from '@portal/access';
import { ErrorAnswer, SearchFilesQuery } from '@portal/contract';
import { BUNDLE_PATH, MOST_SEARCH_BUNDLES, SEARCH_FILES_PATH } from '@portal/search';
import Type from 'typebox';

import { searchFilesBody } from '../search/search-files.js';

/**
 * GET SEARCH_FILES_PATH: what the search box opens its bundles with, in one answer instead
 * of several per bundle. Each file is in it only when the reader may
 * read it as a file (a bundle they may not read is left out, as each of its files would be
 * refused), so it says no more than the files do; signed out, the public ones.
 */
const searchFiles: FastifyPluginAsyncTypebox = async (app) => {
  const { site } = app;
  app.get(
    SEARCH_FILES_PATH,
    {
      schema: {
        querystring: SearchFilesQuery,
        response: {
          200: {
            description: "The bundles' first files the reader may read, in one body (packages/search/files.js)",
            content: {
              'application/octet-stream': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) },
            },
          },
          400: ErrorAnswer,
          503: ErrorAnswer,
        },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store').header('vary', 'Cookie');
      const bundles = request.query.bundles.split(',');
      const bad = bundles.find((bundle) => !BUNDLE_PATH.test(bundle));
      if (bad !== undefined)
        return reply.code(400).send({ error: `Not a search bundle: ${JSON.stringify(bad.slice(0, 80))}` });
      if (bundles.length > MOST_SEARCH_BUNDLES)
        return reply.code(400).send({ error: `At most ${MOST_SEARCH_BUNDLES} bundles in one request` });
      const outcome = await request.reader;
      if (outcome.kind === 'unavailable') return reply.refuse(outcome);
      const units = outcome.kind === 'reader' ? outcome.reader.units : null;
      const body = searchFilesBody(
        site,
        [...new Set(bundles)],
        (file) => file.access === 'public' || (units !== null && mayRead(units, file.units)),
      );
      return reply.type('application/octet-stream').send(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
    },
  );
};
export default searchFiles;
