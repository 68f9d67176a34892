import { createReadStream } from 'node:fs';

import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';

import { indexSiteFiles, type SiteFile } from './site-files.js';

export interface AppOptions {
  /** The Docusaurus build directory to serve. */
  siteDir: string;
  logger?: FastifyServerOptions['logger'];
}

function send(reply: FastifyReply, file: SiteFile, status: number): FastifyReply {
  return reply
    .code(status)
    .header('content-type', file.contentType)
    .header('content-length', file.size)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    .send(createReadStream(file.path));
}

/**
 * Builds the portal's HTTP server without listening (server.ts listens). Pages are
 * looked up in an index made once from the build listing, so no request path is ever
 * joined to a file-system path.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const files = await indexSiteFiles(options.siteDir);
  const app = Fastify({ logger: options.logger ?? false, exposeHeadRoutes: true });
  app.log.info({ files: files.size }, 'site indexed');

  app.get('/*', async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const file = files.lookup(path);
    if (file) return send(reply, file, 200);
    return send(reply, files.notFound, 404);
  });

  return app;
}
