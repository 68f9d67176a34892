import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { clientOf } from '../auth/reader.js';
import { absoluteLinks, llmsFragments, SITE_NAME, SITE_SUMMARY } from '../llms.js';

/**
 * `llms.txt` and `llms-full.txt`: the pages the reader behind the request may read (a token's
 * or the session's; the open pages for nobody), an index or the full text, links absolute.
 */
const llms: FastifyPluginAsyncTypebox = async (app) => {
  const { site, config, meter } = app;
  const schema = {
    response: {
      200: {
        description: 'The pages the reader may read, as llms.txt',
        content: { 'text/plain': { schema: { type: 'string' } } },
      },
    },
  };
  for (const [path, which] of [
    ['/llms.txt', 'index'],
    ['/llms-full.txt', 'full'],
  ] as const) {
    app.get(
      path,
      { config: { token: 'read' }, preHandler: (request, reply) => meter.admit(request, reply), schema },
      async (request, reply) => {
        void reply.header('cache-control', 'private, no-store').header('vary', 'Cookie, Authorization');
        const outcome = await request.reader;
        const units = outcome.kind === 'reader' ? outcome.reader.units : null;
        // An assistant reading the llms file (with a token): counted as a view of the file itself.
        const client = clientOf(outcome);
        if (client !== null && outcome.kind === 'reader' && config.audit.pageViews)
          app.recordView(request, outcome.reader, path, 'llms', client);
        const header =
          which === 'index'
            ? `# ${SITE_NAME}\n\n> ${SITE_SUMMARY}\n\n${units === null ? 'These are the open pages; sign in, or send a personal access token, for the rest.\n\n' : ''}`
            : `# ${SITE_NAME}: the full text\n\n> ${SITE_SUMMARY}\n\n`;
        const body = header + llmsFragments(site, units, which).join(which === 'index' ? '\n' : '\n---\n\n');
        return reply.type('text/plain; charset=utf-8').send(absoluteLinks(body, app.originOf(request)));
      },
    );
  }
};
export default llms;
