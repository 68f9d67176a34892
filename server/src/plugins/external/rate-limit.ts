import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import fp from 'fastify-plugin';

import { sharedRateLimitStore } from '../../rate-limit-store.js';

/** Limits a route asks for in its settings (`config.rateLimit`), and the limiters plugins make (`createRateLimit`). */
export default fp(
  async (app) => {
    const redis = app.shared.rateLimitClient;
    await app.register(rateLimit, {
      global: false,
      // A request whose connection already closed (a malformed body) has no address; it is
      // answered 400 anyway, so it shares one bucket instead of crashing the limiter.
      keyGenerator: (request) => (request.ip ? normalizeIP(request.ip) : 'no-address'),
      // With Redis every replica counts together; without it (or while it is down) each alone.
      ...(redis ? { store: sharedRateLimitStore(redis) } : {}),
    });
  },
  { name: 'rate-limit', dependencies: ['shared'] },
);
