import Fastify, { type FastifyInstance, type FastifyPluginCallback, type FastifyServerOptions } from 'fastify';

import type { Identity } from './auth/identity.js';
import type { Licences } from './auth/licences.js';
import type { Config } from './config.js';
import type { Store } from './db/store.js';
import { fastPathServer } from './fast-path.js';
import type { Mailer } from './mail.js';
import * as app from './plugins/app/index.js';
import * as external from './plugins/external/index.js';
import { requestIds } from './request-id.js';
import routes from './routes.js';

export interface AppOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** Supply to share one Identity or set its clock (tests); otherwise one is made from config. */
  identity?: Identity;
  /** Supply to share one store (tests); otherwise one is opened from config. */
  store?: Store;
  /** Supply with `identity` (tests), the object its `access` is; otherwise one is made on the store for the Identity made here. */
  licences?: Licences;
  /** Supply to send through a transport of the test's; otherwise one is made from `config.mail` (null: no mail). */
  mailer?: Mailer | null;
  /** The clock of the readiness caches, the release hooks' dates and rate, and the OAuth clients' expiry, in milliseconds (tests); otherwise `Date.now`. */
  clock?: () => number;
}

/**
 * The gate server, built and never listening (server.ts listens): what the instance holds
 * (plugins/app), the libraries it wraps (plugins/external), the one error handler, the routes
 * (routes/, a folder's guards in its autohooks.ts), and the hot path ahead of Fastify.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const server = fastPathServer();
  const newRequestId = requestIds();
  const gate = Fastify({
    serverFactory: server.serverFactory,
    logger: options.logger ?? false,
    // No limit on a plugin's start: opening the store (PGlite's folder) waits as long as it takes.
    pluginTimeout: 0,
    exposeHeadRoutes: true,
    bodyLimit: 16 * 1024,
    // Whose X-Forwarded-For counts for the client address (TRUST_PROXY): none by default;
    // a hop count trusts that many proxies nearest to this server.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // Bodies are taken exactly as sent: no type coercion, no silently dropped fields.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
    // Every log line of a request carries its id: the proxy's X-Request-Id when it sends a
    // sane one, else a new one; the answer names it too.
    requestIdHeader: 'x-request-id',
    genReqId: newRequestId,
  });

  // What the gate holds (plugins/app) and the libraries it wraps (plugins/external), each after what it needs.
  const plugins: FastifyPluginCallback<AppOptions>[] = [
    ...[app.config, app.shared, app.site, app.store, app.changes, app.releases, app.licences, app.identity],
    ...[
      app.mailer,
      app.licenceNotices,
      app.whatsNew,
      app.metrics,
      app.search,
      app.rebuilds,
      app.origin,
      external.cookie,
      external.rateLimit,
      external.swagger,
      external.helmet,
    ],
    ...[app.sessionCookies, app.tokens, app.oauth, app.reader, app.refusals, app.guards, app.agentMeter],
    ...[app.markdownTwins, app.errors],
  ];
  for (const plugin of plugins) await gate.register(plugin, options);
  // The routes (routes.ts): a folder's autohooks.ts holds the guards of every route in it.
  await gate.register(routes);

  await gate.register(app.fastPath, { server, newRequestId });
  return gate;
}
