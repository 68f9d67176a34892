import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The guards of a reader's own API under /api (tokens, connected apps, feedback, access
 * requests): signed in with the session, writes from this site only, never kept by a cache.
 */
export default fp(async (account: FastifyInstance) => {
  const { guards } = account;
  account.addHook('onRequest', guards.noStore('private, no-store'));
  account.addHook('onRequest', guards.writesFromThisSite);
  account.addHook('onRequest', guards.requireReader);
});
