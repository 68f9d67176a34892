import fp from 'fastify-plugin';

import { chooseEncoding, fileHeaders, LiveSite, type SiteFile } from '../../site.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The build the gate serves, in memory, replaced whole by a rebuild (site.ts). */
    site: LiveSite;
  }
  interface FastifyReply {
    /** Answers with a file of the site: its headers, 304 for a matching If-None-Match, the encoding the client takes. */
    serveFile(file: SiteFile, status?: number): FastifyReply;
  }
}

/**
 * The site build, read at start; a release hook's rebuild is served here first, then on every
 * other replica through the broadcast (each reads the new build from the same folder).
 */
export default fp(
  async (app) => {
    const site = await LiveSite.open(app.config.siteDir);
    app.log.info({ files: site.files, bytes: site.bytes }, 'site loaded');
    site.onReplace((next) => app.log.info({ build: next.id, files: next.files, bytes: next.bytes }, 'site replaced'));
    app.shared.onBroadcast(({ site: id }) => {
      if (id && id !== site.id)
        site.reload().catch((error: unknown) => app.log.error({ err: error }, 'could not serve the new site build'));
    });
    app.decorate('site', site);

    app.decorateReply('serveFile', function (file: SiteFile, status = 200) {
      void this.headers(fileHeaders(file));
      const ifNoneMatch = this.request.headers['if-none-match'];
      if (status === 200 && ifNoneMatch?.split(',').some((tag) => [file.etag, '*'].includes(tag.trim())))
        return this.code(304).send();
      const encoding = chooseEncoding(this.request.headers['accept-encoding'], file);
      if (encoding !== 'identity') void this.header('content-encoding', encoding);
      return this.code(status)
        .header('content-type', file.contentType)
        .send(file.bodies[encoding] ?? file.bodies.identity);
    });
  },
  { name: 'site', dependencies: ['config', 'shared'] },
);
