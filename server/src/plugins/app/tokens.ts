import fp from 'fastify-plugin';

import { TokenService } from '../../auth/tokens.js';
import { sqlTokenStore } from '../../db/tokens.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Personal access tokens for coding assistants: made, checked and revoked (auth/tokens.ts). */
    tokens: TokenService;
  }
}

/** Personal access tokens, kept in the store (db/tokens.ts) once its schema is ready. */
export default fp(
  async (app) => {
    const { store } = app;
    const tokenStore = sqlTokenStore(() => store.db);
    app.decorate(
      'tokens',
      new TokenService(() => (store.readyNow ? tokenStore : null), app.identity, app.config.session.cacheTtlSeconds),
    );
  },
  { name: 'tokens', dependencies: ['config', 'store', 'identity'] },
);
