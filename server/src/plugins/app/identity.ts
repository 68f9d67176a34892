import fp from 'fastify-plugin';

import { Identity } from '../../auth/identity.js';
import { ReaderDirectory, ReaderIndex } from '../../auth/readers.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sessions, groups and the one cache of verified cookies (auth/identity.ts). */
    identity: Identity;
    /** The administrators' operations on readers' accounts (auth/readers.ts). */
    directory: ReaderDirectory;
    /** The readers' accounts in memory, for the admin page's list and counts. */
    readerIndex: ReaderIndex;
  }
}

/** The identity service: a supplied one (tests, to share one or set its clock), or one made from the settings. */
export default fp<{ identity?: Identity }>(
  async (app, options) => {
    const { config } = app;
    const identity =
      options.identity ??
      new Identity({
        config: config.identity,
        secret: config.session.secret,
        sessionMaxAgeSeconds: config.session.maxAgeSeconds,
        cacheTtlSeconds: config.session.cacheTtlSeconds,
        timeoutMs: config.session.identityTimeoutMs,
        shared: app.shared,
        access: app.licences,
      });
    if (!options.identity) app.addHook('onClose', () => identity.close());
    const directory = new ReaderDirectory(identity.auth);
    app.decorate('identity', identity);
    app.decorate('directory', directory);
    app.decorate('readerIndex', new ReaderIndex(directory));
  },
  { name: 'identity', dependencies: ['config', 'shared', 'licences'] },
);
