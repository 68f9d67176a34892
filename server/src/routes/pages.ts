import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { mayRead } from '@portal/access';
import { SESSION_COOKIE } from '@portal/contract/names';

/**
 * Every GET of the site's build (pages and their files; a Markdown twin has its own route,
 * markdown.ts), answered from the manifest: public files to anyone, private ones to a
 * session that may read them; everyone else the refusal of their outcome: a page's
 * sign-in, no-access or try-again page, an empty 401, 403 or 503 for any other file.
 */
const pages: FastifyPluginAsyncTypebox = async (app) => {
  const { site, config } = app;
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const file = site.lookup(request.url.split('?', 1)[0] ?? '/');
    if (!file) return reply.serveFile(site.notFound, 404);
    request.servedFile = file;
    if (file.access === 'public') {
      // A signed-in reader's view of an open page counts too ("what's new" knows what they
      // read), recorded once the answer is on its way.
      if (file.kind === 'page' && config.audit.pageViews && request.cookies[SESSION_COOKIE] !== undefined)
        void request.reader.then(
          (outcome) => outcome.kind === 'reader' && app.recordView(request, outcome.reader, file.url),
          () => undefined,
        );
      return reply.serveFile(file);
    }
    const outcome = await request.reader;
    if (outcome.kind === 'reader' && mayRead(outcome.reader.units, file.units)) {
      if (file.kind === 'page' && config.audit.pageViews) app.recordView(request, outcome.reader, file.url);
      return reply.serveFile(file);
    }
    return reply.refuse(outcome, file.kind === 'page' ? 'page' : 'file');
  });
};
export default pages;
