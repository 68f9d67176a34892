import fp from 'fastify-plugin';

import { SESSION_COOKIE } from '@portal/contract/names';

import { createFastPath, helmetHeaders, type FastPathServer } from '../../fast-path.js';

export interface FastPathOptions {
  /** The server the hot path is asked first in (app.ts gives it to Fastify as its `serverFactory`). */
  server: FastPathServer;
  /** The ids of requests that come without one, the same Fastify gives (request-id.ts). */
  newRequestId: () => string;
}

/**
 * The hot path (fast-path.ts): the same answers as the files' route for a public file or a
 * private one with a cached session that may read it, without Fastify's request cycle. With
 * client addresses stored, private pages keep to Fastify, which knows the address behind the
 * proxies (TRUST_PROXY). Registered last: it stands in for routes that are ready.
 */
export default fp<FastPathOptions>(
  async (app, { server, newRequestId }) => {
    // GATE_FAST_PATH=off: every request through Fastify, the benchmark's peer for the fast path.
    if (process.env.GATE_FAST_PATH === 'off') return;
    const { config, store, identity } = app;
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });
    const requestLog = ['trace', 'debug', 'info'].includes(app.log.level);
    server.use(
      createFastPath({
        site: app.site,
        metrics: app.metrics,
        securityHeaders: helmetHeaders(app.securityHeaders),
        sessionCookie: SESSION_COOKIE,
        newRequestId,
        cachedReader: (raw) => identity.cachedReader(raw),
        privatePages: !(config.audit.pageViews && config.audit.storeClientIp),
        // Only without client addresses (privatePages above): the page view log keeps none.
        recordView: config.audit.pageViews ? (reader, path) => store.views.record(reader, path) : null,
        // Fastify's two lines per request, with the same serializers, when the level shows them.
        logRequest: requestLog
          ? (id, request, status, ms) => {
              const log = app.log.child({ reqId: id });
              log.info(
                {
                  req: {
                    method: request.method,
                    url: request.url,
                    host: request.headers.host,
                    ip: request.socket.remoteAddress,
                    socket: request.socket,
                  },
                },
                'incoming request',
              );
              log.info({ res: { statusCode: status }, responseTime: ms }, 'request completed');
            }
          : null,
        closing: () => closing,
      }),
    );
  },
  { name: 'fast-path', dependencies: ['config', 'site', 'metrics', 'helmet', 'identity', 'store'] },
);
