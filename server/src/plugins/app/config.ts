import fp from 'fastify-plugin';

import type { Config } from '../../config.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The settings, checked at start (config.ts). */
    config: Config;
    /** The time now in ms: `Date.now`, or the clock a test gives the app. */
    clock: () => number;
  }
}

export interface ConfigOptions {
  config: Config;
  /** The clock of the readiness caches, the release hooks' dates and rate, and the OAuth clients' expiry (tests); otherwise `Date.now`. */
  clock?: () => number;
}

/** The settings and the clock, for every other plugin and route. */
export default fp<ConfigOptions>(
  async (app, { config, clock }) => {
    app.decorate('config', config);
    app.decorate('clock', clock ?? Date.now);
  },
  { name: 'config' },
);
