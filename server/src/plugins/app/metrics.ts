import fp from 'fastify-plugin';

import { Metrics, surfaceOfFile, surfaceOfRoute } from '../../metrics.js';
import type { SiteFile } from '../../site.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The gate's Prometheus metrics, read at /metrics (metrics.ts). */
    metrics: Metrics;
  }
  interface FastifyRequest {
    /** The file of the site the gate served, if any (for the metrics' surface and access). */
    servedFile?: SiteFile;
  }
}

/** Counts every answered request by its surface (the file served, else the route), access and status. */
export default fp(
  async (app) => {
    const { store, shared } = app;
    const metrics = new Metrics({ store: () => store.stats, redisErrors: () => shared.errors });
    // Declared once, so every request object keeps one shape.
    app.decorateRequest('servedFile', undefined);
    app.addHook('onResponse', (request, reply, done) => {
      const file = request.servedFile;
      const seconds = reply.elapsedTime / 1000;
      if (file) metrics.observeRequest(surfaceOfFile(file), file.access, reply.statusCode, seconds);
      else metrics.observeRequest(surfaceOfRoute(request.routeOptions.url), 'none', reply.statusCode, seconds);
      done();
    });
    app.decorate('metrics', metrics);
  },
  { name: 'metrics', dependencies: ['store', 'shared'] },
);
