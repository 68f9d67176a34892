import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { mayRead } from '@portal/access';
import { pageOfMarkdown } from '@portal/built-site';

import { clientOf } from '../auth/reader.js';
import { markdownTwinOf } from '../site.js';

/**
 * A page's Markdown twin (`/docs/x.md`, or the page with Accept: text/markdown: the router's
 * `twin` constraint, plugins/app/markdown-twins.ts): an agent surface, so it takes a personal
 * access token as well as the session, and a token's reads are metered like every agent's.
 */
const markdown: FastifyPluginAsyncTypebox = async (app) => {
  const { site, config, meter } = app;
  app.get(
    '/*',
    { constraints: { twin: 'markdown' }, config: { token: 'read' }, schema: { hide: true } },
    async (request, reply) => {
      const file = markdownTwinOf(site, request.url.split('?', 1)[0] ?? '/', request.headers.accept);
      // The build was replaced between the router's look-up and this one.
      if (!file) return reply.serveFile(site.notFound, 404);
      request.servedFile = file;
      if (file.access === 'public') return reply.serveFile(file);
      const byToken = request.headers.authorization !== undefined;
      if (byToken) {
        void reply.header('cache-control', 'no-store').header('vary', 'Accept, Authorization');
        // Only here, so a page read with a session never pays for a limiter.
        const stopped = await meter.admit(request, reply);
        if (stopped) return stopped;
      }
      const outcome = await request.reader;
      if (outcome.kind !== 'reader' || !mayRead(outcome.reader.units, file.units)) return reply.refuse(outcome);
      if (byToken && config.audit.pageViews) {
        const page = pageOfMarkdown(file.url) ?? file.url;
        app.recordView(request, outcome.reader, site.lookup(page)?.url ?? page, 'token', clientOf(outcome));
      }
      return reply.serveFile(file);
    },
  );
};
export default markdown;
