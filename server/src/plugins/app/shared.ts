import fp from 'fastify-plugin';

import type { Identity } from '../../auth/identity.js';
import { sharedState, type SharedState } from '../../shared.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** What replicas share: Redis with `REDIS_URL`, else this process's memory (shared.ts). */
    shared: SharedState;
  }
}

/** The replicas' shared state; a supplied Identity's own (tests), which its owner closes. */
export default fp<{ identity?: Identity }>(
  async (app, { identity }) => {
    const shared = identity?.shared ?? sharedState(app.config.redisUrl, app.log);
    if (!identity) app.addHook('onClose', () => shared.close());
    app.decorate('shared', shared);
  },
  { name: 'shared', dependencies: ['config'] },
);
