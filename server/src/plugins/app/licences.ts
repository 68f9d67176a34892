import fp from 'fastify-plugin';

import { Licences } from '../../auth/licences.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Who reads which unit: organisations, licences, groups and memberships as data (auth/licences.ts). */
    licences: Licences;
  }
}

/** The access data, read from the store once its schema is ready and again at every change on any replica (the change feed). */
export default fp<{ licences?: Licences }>(
  async (app, options) => {
    const { store } = app;
    const licences =
      options.licences ??
      new Licences({ db: () => (store.readyNow ? store.db : null), shared: app.shared, log: app.log });
    app.addHook('onClose', async () => licences.close());
    // After the change feed starts: a change made between the two is then read again, never missed.
    void app.changes.feed.then(() => licences.reload());
    app.decorate('licences', licences);
  },
  { name: 'licences', dependencies: ['shared', 'store', 'changes'] },
);
