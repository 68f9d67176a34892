import fp from 'fastify-plugin';

import { ChangeFeed } from '../../changes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The change feed every replica reads (changes.ts), once it reads; null if it could not start. */
    changes: { feed: Promise<ChangeFeed | null> };
  }
}

/** Reads the change feed from the store once its schema is ready, and keeps the broadcasts in it. */
export default fp(
  async (app) => {
    const { store, shared } = app;
    const feed = store.whenReady().then(async () => {
      const changes = new ChangeFeed({ db: store.db, shared, log: app.log });
      try {
        await changes.start();
        return changes;
      } catch (error) {
        // Then broadcasts go by Redis alone, as before the feed.
        app.log.error({ err: error }, 'could not start the change feed');
        return null;
      }
    });
    // Closed before the store (hooks run in reverse order of adding).
    app.addHook('onClose', async () => {
      if (store.readyNow) await (await feed)?.close();
    });
    app.decorate('changes', { feed });
  },
  { name: 'changes', dependencies: ['shared', 'store'] },
);
