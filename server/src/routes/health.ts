import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { Readiness } from '../readiness.js';

/** Direct requests from this machine may read /metrics without a token. */
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * For the platform: /healthz says the process is alive; /readyz that it can serve (manifest
 * loaded, identity service, database and Redis reachable); /metrics for Prometheus.
 */
const health: FastifyPluginAsyncTypebox = async (app) => {
  const { site, identity, store, licences, shared, metrics, config } = app;
  const hidden = { schema: { hide: true } };
  // Liveness only: anyone may ask, so it tells nothing of the store's counters (when the
  // trail is written is when private pages are read); those are on /metrics.
  app.get('/healthz', hidden, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  const readiness = new Readiness(
    {
      manifest: () => site.files > 0,
      // Any answer, "no such user" included, means the identity service is up.
      identity: () =>
        identity.auth.getUser('portal-readiness-probe').then(
          () => true,
          (error: unknown) => (error as { code?: string }).code === 'auth/user-not-found',
        ),
      // Ready once the schema is, and the organisations and licences have been read from it.
      database: async () =>
        store.readyNow && (licences.ready || (await licences.reload()))
          ? store.db.query('select 1').then(() => true)
          : false,
      redis: () => shared.ping(),
    },
    { clock: app.clock },
  );
  app.get('/readyz', hidden, async (_request, reply) => {
    const { ready, checks } = await readiness.report();
    // Only what this replica alone lacks takes it out of the load balancer (503): its site.
    // Firebase, the database and Redis are shared by every replica, so taking replicas out
    // for them would turn a degraded portal (public pages, pages from the session cache,
    // events queued, state per replica) into no portal at all. They are reported instead.
    // While the server shuts down, Fastify itself answers 503.
    return reply
      .code(checks.manifest ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ready' : checks.manifest ? 'degraded' : 'not ready', checks, redis: shared.kind });
  });

  app.get('/metrics', hidden, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const token = config.metricsToken;
    const allowed = token
      ? request.headers.authorization === `Bearer ${token}`
      : // Without a token, only a direct request from this machine: never one through a proxy.
        loopbackHosts.has(request.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '') &&
        request.headers['x-forwarded-for'] === undefined;
    if (!allowed) return reply.code(404).send({ error: 'No such API endpoint' });
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
};
export default health;
