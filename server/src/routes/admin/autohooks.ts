import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The guards of the administration API, `/api/admin/…`: readers who may read `/admin` (the
 * policy's administration section), with the session or an administrator's token of the
 * `admin` scope; writes from this site or with a token; answers never kept; one budget per
 * administrator and route a minute (`ADMIN_RATE_LIMIT`); a failed change says nothing was changed.
 */
export default fp(async (admin: FastifyInstance) => {
  const { guards, config } = admin;
  admin.addHook('onRoute', (route) => {
    const writes = [route.method].flat().some((method) => method !== 'GET' && method !== 'HEAD');
    route.config = {
      ...route.config,
      token: 'admin',
      ...(writes ? { failure: 'The change could not be made; nothing was changed' } : {}),
    };
  });
  admin.addHook('onRequest', guards.noStore('no-store'));
  admin.addHook('onRequest', guards.writesFromThisSiteOrToken);
  admin.addHook('onRequest', guards.requireAdmin);
  admin.addHook(
    'preHandler',
    admin.rateLimit({
      max: config.adminRateLimitPerMinute,
      timeWindow: 60_000,
      // After the guards: one budget per administrator, wherever they call from.
      keyGenerator: async (request) => {
        const outcome = await request.reader;
        const who = outcome.kind === 'reader' ? outcome.reader.uid : request.ip;
        return `admin:${who} ${request.method} ${request.routeOptions.url ?? ''}`;
      },
    }),
  );
});
