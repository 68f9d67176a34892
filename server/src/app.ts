import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { negotiate } from '@fastify/accept-negotiator';
import cookie from '@fastify/cookie';
import helmet from 'helmet';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';

import { loginUrlFor, mayRead, REQUEST_ACCESS } from '@portal/access';
import {
  AuthConfig,
  ErrorAnswer,
  NoContent,
  SessionAnswer,
  SessionRefusal,
  SessionStart,
  GROUPS_HINT_COOKIE,
  SESSION_COOKIE,
  TOKEN_PREFIX,
} from '@portal/contract';

import { AuthError, SIGN_IN_STATUS } from './auth/errors.js';
import { Identity, type Reader } from './auth/identity.js';
import { clientOf, ReaderResolver } from './auth/reader.js';
import { createFastPath, fileHeaders, helmetHeaders } from './fast-path.js';
import { Metrics, surfaceOfFile, surfaceOfRoute } from './metrics.js';
import { Readiness } from './readiness.js';
import { sharedRateLimitStore } from './rate-limit-store.js';
import { requestIds } from './request-id.js';
import { sharedState } from './shared.js';
import { ReaderDirectory, ReaderIndex } from './auth/readers.js';
import { TokenService } from './auth/tokens.js';
import { OAuthServer } from './auth/oauth.js';
import { markGrantUsed, OAuthRecords } from './db/oauth.js';
import { adminAppRoutes, oauthRoutes, originOf } from './routes/oauth.js';
import { markdownUrl, pageOfMarkdown } from '@portal/built-site';
import { SiteSearch } from './search/site-search.js';
import type { Config } from './config.js';
import { acceptInvitation, invitationFor } from './db/activity.js';
import { insertAuditEvents, type AuditEvent } from './db/audit.js';
import { AuditInbox, auditInboxDir } from './db/audit-inbox.js';
import type { ViewChannel, ViewClient } from './db/page-views.js';
import { seedDemoActivity } from './db/demo.js';
import { Store } from './db/store.js';
import { Licences } from './auth/licences.js';
import { seedDemoOrganisations } from './db/demo-organisations.js';
import { sqlTokenStore } from './db/tokens.js';
import { noAccessPage, oauthErrorPage, unavailablePage } from './pages.js';
import { activityRoutes } from './routes/activity.js';
import { agentMeter, agentReader } from './plugins/agent-meter.js';
import { guards } from './plugins/guards.js';
import { decorateReader, sessionCookies, settleOutcome } from './plugins/reader.js';
import { adminRoutes } from './routes/admin.js';
import { insightsPageRoutes } from './routes/insights-pages.js';
import { licenceRoutes } from './routes/licences.js';
import { accessRequestAdminRoutes, accessRequestRoutes } from './routes/access-requests.js';
import { mailerFor, type Mailer } from './mail.js';
import { adminTokenRoutes, agentRoutes } from './routes/agents.js';
import { searchFilesRoutes } from './routes/search-files.js';
import type { GateContext } from './routes/context.js';
import { chooseEncoding, LiveSite, type Site, type SiteFile } from './site.js';
import { Rebuilds } from './sources/rebuilds.js';
import { hookRoutes, sourceAdminRoutes } from './routes/hooks.js';

export { GROUPS_HINT_COOKIE, SESSION_COOKIE };

export interface AppOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** Supply to share one Identity or set its clock (tests); otherwise one is made from config. */
  identity?: Identity;
  /** Supply to share one store (tests); otherwise one is opened from config. */
  store?: Store;
  /**
   * Supply with `identity` (tests), made with the same object as its `access`; otherwise
   * one is made on the store and given to the Identity made here.
   */
  licences?: Licences;
  /** Supply to send through a transport of the test's; otherwise one is made from `config.mail` (null: no mail). */
  mailer?: Mailer | null;
  /** The clock of the readiness caches, the release hooks' dates and rate, and the OAuth clients' expiry, in milliseconds (tests); otherwise `Date.now`. */
  clock?: () => number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The file of the site the gate served, if any (for the metrics' surface and access). */
    servedFile?: SiteFile;
  }
}

/** The site's page for a signed-in reader refused a page (site/src/pages/account/refused.tsx). */
const REFUSAL_PAGE = '/account/refused';

/** Direct requests from this machine may read /metrics without a token. */
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Whether an Accept header asks for Markdown before HTML (`text/markdown`, at a q no lower than HTML's). */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (accept?.includes('markdown') !== true) return false;
  // The negotiator counts a media range with parameters other than q (`;charset=utf-8`) as
  // not matching; only q decides here.
  const ranges = accept.replace(/;\s*(?!q=)[^;,]*/gi, '');
  return negotiate(ranges, ['text/markdown', 'text/html']) === 'text/markdown';
}

function contentSecurityPolicy(config: Config, site: Site): Record<string, string[]> {
  const emulator = config.identity.emulatorHost ? [`http://${config.identity.emulatorHost}`] : [];
  return {
    defaultSrc: ["'self'"],
    // Inline scripts are Docusaurus' colour-mode and announcement-bar scripts, allowed by
    // hash; apis.google.com serves the iframe helper Firebase's popup sign-in uses.
    // 'wasm-unsafe-eval' lets the search engine (Pagefind) compile its WebAssembly; it
    // does not allow eval() of JavaScript.
    scriptSrc: [
      "'self'",
      ...site.inlineScriptHashes.map((hash) => `'${hash}'`),
      "'wasm-unsafe-eval'",
      'https://apis.google.com',
    ],
    workerSrc: ["'self'", 'blob:'],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'", 'https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com', ...emulator],
    frameSrc: [`https://${config.identity.authDomain}`, ...emulator],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    ...(config.production ? { upgradeInsecureRequests: [] } : {}),
  };
}

/**
 * The gate server. Every GET is answered from the build manifest: public files to
 * anyone; private files only with a valid session cookie, otherwise the login page (for
 * pages) or an empty 401 (for everything else). The session API starts and ends sessions.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const site = await LiveSite.open(config.siteDir);
  /** The hot path ahead of Fastify (fast-path.ts), set once the routes it stands in for are ready. */
  let fastPath: ((request: IncomingMessage, response: ServerResponse) => boolean) | null = null;
  const newRequestId = requestIds();
  const app = Fastify({
    // Fastify's own HTTP server, with the fast path asked first (see fast-path.ts).
    serverFactory: (handler, options) => {
      const server = createServer((request, response) => {
        if (fastPath === null || !fastPath(request, response)) handler(request, response);
      });
      // What Fastify sets on the servers it makes itself.
      const { keepAliveTimeout, requestTimeout, connectionTimeout, maxRequestsPerSocket } = options as {
        keepAliveTimeout?: number;
        requestTimeout?: number;
        connectionTimeout?: number;
        maxRequestsPerSocket?: number;
      };
      if (keepAliveTimeout !== undefined) server.keepAliveTimeout = keepAliveTimeout;
      if (requestTimeout !== undefined) server.requestTimeout = requestTimeout;
      if (connectionTimeout !== undefined) server.setTimeout(connectionTimeout);
      if (maxRequestsPerSocket !== undefined && maxRequestsPerSocket > 0)
        server.maxRequestsPerSocket = maxRequestsPerSocket;
      return server;
    },
    logger: options.logger ?? false,
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
  const shared = options.identity?.shared ?? sharedState(config.redisUrl, app.log);
  // Who reads which unit, from the store once its schema is ready (`store` is opened below).
  let opened: Store | null = options.store ?? null;
  const licences =
    options.licences ?? new Licences({ db: () => (opened?.readyNow ? opened.db : null), shared, log: app.log });
  app.addHook('onClose', async () => licences.close());
  const mailer = options.mailer === undefined ? mailerFor(config, app.log) : options.mailer;
  if (mailer && options.mailer === undefined) app.addHook('onClose', async () => mailer.close());
  const identity =
    options.identity ??
    new Identity({
      config: config.identity,
      secret: config.session.secret,
      sessionMaxAgeSeconds: config.session.maxAgeSeconds,
      cacheTtlSeconds: config.session.cacheTtlSeconds,
      timeoutMs: config.session.identityTimeoutMs,
      shared,
      access: licences,
    });
  if (!options.identity) {
    app.addHook('onClose', () => identity.close());
    app.addHook('onClose', () => shared.close());
  }
  app.log.info({ files: site.files, bytes: site.bytes }, 'site loaded');

  const store =
    options.store ??
    (await Store.open({
      database: config.database,
      retentionDays: config.audit.retentionDays,
      queueLimit: config.audit.queueLimit,
      log: app.log,
      seed: config.demoData
        ? async (db) => {
            await seedDemoOrganisations(db, app.log);
            await seedDemoActivity(db, site, app.log);
          }
        : undefined,
    }));
  opened = store;
  if (!options.store) app.addHook('onClose', () => store.close());
  void store.whenReady().then(() => licences.reload());
  // The readers command's audit events, when it cannot open the PGlite folder this server holds (db/audit-inbox.ts).
  const inboxDir = options.store ? null : auditInboxDir(config.database);
  if (inboxDir !== null) {
    const inbox = new AuditInbox({
      dir: inboxDir,
      write: (events) => insertAuditEvents(store.db, events),
      ready: () => store.readyNow,
      log: app.log,
    });
    inbox.start();
    app.addHook('onClose', () => inbox.close());
  }
  const metrics = new Metrics({ store: () => store.stats, redisErrors: () => shared.errors });
  // Declared once, so every request object keeps one shape (V8 keeps the hot path fast).
  app.decorateRequest('servedFile', undefined);
  app.addHook('onResponse', (request, reply, done) => {
    const file = request.servedFile;
    const seconds = reply.elapsedTime / 1000;
    if (file) metrics.observeRequest(surfaceOfFile(file), file.access, reply.statusCode, seconds);
    else metrics.observeRequest(surfaceOfRoute(request.routeOptions.url), 'none', reply.statusCode, seconds);
    done();
  });
  const directory = new ReaderDirectory(identity.auth);
  const readerIndex = new ReaderIndex(directory);
  const tokenStore = sqlTokenStore(() => store.db);
  const tokens = new TokenService(() => (store.readyNow ? tokenStore : null), identity, config.session.cacheTtlSeconds);
  // The authorization server of /mcp: its records in the portal's database.
  const oauth = new OAuthServer(
    {
      identity,
      adapter: (kind) => new OAuthRecords(kind, () => store.db),
      secret: config.session.secret,
      errorPage: oauthErrorPage,
    },
    config.session.cacheTtlSeconds,
  );
  oauth.onUse = (grantId) => {
    if (store.readyNow)
      markGrantUsed(store.db, grantId).catch((error: unknown) =>
        app.log.warn({ err: error }, 'could not mark a connected app used'),
      );
  };
  const search = new SiteSearch(site);
  // A release hook's rebuild is served here first, then on every other replica through the
  // broadcast (each reads the new build from the same folder); the search forgets the old indexes.
  site.onReplace((next) => {
    search.reset();
    app.log.info({ build: next.id, files: next.files, bytes: next.bytes }, 'site replaced');
  });
  shared.onBroadcast(({ site: id }) => {
    if (id && id !== site.id)
      site.reload().catch((error: unknown) => app.log.error({ err: error }, 'could not serve the new site build'));
  });
  const rebuilds =
    config.sources.hookSecret === null
      ? null
      : new Rebuilds({
          command: config.sources.rebuildCommand,
          archiveCommand: config.sources.archiveCommand,
          cwd: process.cwd(),
          env: config.sources.buildEnv,
          // Only root can switch users; an unprivileged gate's builds run as the gate, unprivileged too.
          user: process.getuid?.() === 0 ? config.sources.buildUser : null,
          timeoutMs: config.sources.rebuildTimeoutMs,
          log: app.log,
          serve: async () => {
            const outcome = await site.reload();
            if (outcome === 'replaced') await shared.broadcast({ site: site.id });
            return outcome;
          },
        });
  if (rebuilds) app.addHook('onClose', () => rebuilds.close());
  if (rebuilds && process.getuid?.() === 0 && config.sources.buildUser === null)
    app.log.warn('rebuilds run as root: name an unprivileged user for them in SOURCES_BUILD_USER (docs/security.md)');
  decorateReader(
    app,
    new ReaderResolver(identity, tokens, oauth, {
      sessionLookup: (hit) => metrics.sessionChecks.inc({ result: hit ? 'hit' : 'miss' }),
      identityAnswer: (outcome) => metrics.identityCalls.inc({ outcome }),
    }),
    (request) => originOf({ config }, request),
  );
  /** An event for the audit trail, written off the request path; the client address only when the settings say so. */
  const audit = (request: FastifyRequest, event: AuditEvent): void =>
    store.audit.record({ at: new Date(), ...event, clientIp: config.audit.storeClientIp ? request.ip : null });
  /**
   * A page view, by a session or an agent: counted once per reader, page, way of reading and
   * hour (page-views.ts), with the client address when the settings keep them.
   */
  const recordView = (
    request: FastifyRequest,
    reader: Reader,
    path: string,
    via: ViewChannel = 'page',
    client: ViewClient | null = null,
  ): void => store.views.record(reader, path, via, config.audit.storeClientIp ? request.ip : null, client);

  // Cookies are parsed here and signed by the identity core (auth/identity.ts).
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    // A request whose connection already closed (a malformed body) has no address; it is
    // answered 400 anyway, so it shares one bucket instead of crashing the limiter.
    keyGenerator: (request) => (request.ip ? normalizeIP(request.ip) : 'no-address'),
    // With Redis every replica counts together; without it (or while it is down) each alone.
    ...(shared.rateLimitClient ? { store: sharedRateLimitStore(shared.rateLimitClient) } : {}),
  });
  // The OpenAPI document is made from the routes' schemas (the contract's), for administrators.
  await app.register(swagger, {
    openapi: {
      info: { title: 'Norigin Developer Docs API', version: '1.0.0' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
          token: { type: 'http', scheme: 'bearer', description: `A personal access token (${TOKEN_PREFIX}…)` },
        },
      },
    },
  });
  // Security headers from helmet, built once: @fastify/helmet rebuilds helmet's middleware
  // (and re-parses the CSP) on every request, which cost two thirds of the gate's
  // throughput in the benchmark (bench/gate.mjs).
  const securityHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config, site) },
    // The popup sign-in needs to talk to the window that opened it.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: config.production ? { maxAge: 31_536_000 } : false,
  });
  // One hook on every request: the security headers and the request id the logs carry.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });

  // Short JSON reasons for every client error; no internals for server errors.
  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    void reply
      .code(status)
      .header('cache-control', 'no-store')
      .send({ error: status >= 500 ? 'Internal server error' : error.message });
  });
  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/')) return reply.code(404).send({ error: 'No such API endpoint' });
    return reply
      .code(405)
      .header('allow', 'GET, HEAD')
      .send({ error: `${request.method} is not allowed here` });
  });

  const cookies = sessionCookies(config);
  const guard = guards({ config, cookies, audit });

  /**
   * Starts a session; an account without a group that has an open invitation for its
   * e-mail (one the identity service vouches for) gets the invitation's groups first.
   */
  const startSession = async (request: FastifyRequest, idToken: string): ReturnType<Identity['startSession']> => {
    try {
      return await identity.startSession(idToken);
    } catch (error) {
      if (!(error instanceof AuthError) || error.code !== 'no-access' || !error.uid || !error.email) throw error;
      if (!store.readyNow) throw error;
      const groups = await invitationFor(store.db, error.email);
      if (groups === null) throw error;
      const after = await directory.applyInvitation(error.uid, groups);
      if (after === null) throw error;
      await acceptInvitation(store.db, error.email);
      readerIndex.update(after);
      audit(request, {
        kind: 'invitation.accepted',
        actorUid: after.uid,
        actorEmail: after.email,
        groups: after.groups,
        detail: { groups },
      });
      return identity.startSession(idToken);
    }
  };

  const hidden = { schema: { hide: true } };
  // Liveness only: anyone may ask, so it tells nothing of the store's counters (when the
  // trail is written is when private pages are read); those are on /metrics.
  app.get('/healthz', hidden, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok' }),
  );

  // For the platform: /healthz says the process is alive; /readyz that it can serve
  // (manifest loaded, identity service, database and Redis reachable); /metrics for Prometheus.
  const readiness = new Readiness(
    {
      manifest: () => site.files > 0,
      // Any answer, "no such user" included, means the identity service is up.
      identity: () =>
        identity.auth.getUser('portal-readiness-probe').then(
          () => true,
          (error: unknown) => (error as { code?: string }).code === 'auth/user-not-found',
        ),
      // Ready once the schema is, and the organisations and licences have been read from it.
      database: async () =>
        store.readyNow && (licences.ready || (await licences.reload()))
          ? store.db.query('select 1').then(() => true)
          : false,
      redis: () => shared.ping(),
    },
    { clock: options.clock },
  );
  app.get('/readyz', hidden, async (_request, reply) => {
    const { ready, checks } = await readiness.report();
    // Only what this replica alone lacks takes it out of the load balancer (503): its site.
    // Firebase, the database and Redis are shared by every replica, so taking replicas out
    // for them would turn a degraded portal (public pages, pages from the session cache,
    // events queued, state per replica) into no portal at all. They are reported instead.
    // While the server shuts down, Fastify itself answers 503.
    return reply
      .code(checks.manifest ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ready' : checks.manifest ? 'degraded' : 'not ready', checks, redis: shared.kind });
  });
  app.get('/metrics', hidden, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const token = config.metricsToken;
    const allowed = token
      ? request.headers.authorization === `Bearer ${token}`
      : // Without a token, only a direct request from this machine: never one through a proxy.
        loopbackHosts.has(request.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '') &&
        request.headers['x-forwarded-for'] === undefined;
    if (!allowed) return reply.code(404).send({ error: 'No such API endpoint' });
    return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });

  app.get('/api/auth-config', { schema: { response: { 200: AuthConfig } } }, async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send({
      apiKey: config.identity.apiKey,
      authDomain: config.identity.authDomain,
      projectId: config.identity.projectId,
      emulatorUrl: config.identity.emulatorHost ? `http://${config.identity.emulatorHost}` : null,
    }),
  );

  app.get(
    '/api/session',
    { schema: { response: { 200: SessionAnswer, 401: ErrorAnswer, 503: ErrorAnswer } } },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store').header('vary', 'Cookie');
      const outcome = await request.reader;
      settleOutcome(outcome, request, reply, { cookies, audit });
      if (outcome.kind === 'unavailable')
        return reply.code(503).send({ error: 'The sign-in service is not answering' });
      if (outcome.kind !== 'reader') return reply.code(401).send({ error: 'Not signed in' });
      cookies.hint(request, reply, outcome.reader);
      return reply.send({ email: outcome.reader.email, groups: outcome.reader.groups, units: outcome.reader.units });
    },
  );

  app.post(
    '/api/session',
    {
      onRequest: guard.requireSameOrigin,
      config: { rateLimit: { max: config.session.rateLimitPerMinute, timeWindow: 60_000 } },
      schema: {
        body: SessionStart,
        response: { 200: SessionAnswer, 401: SessionRefusal, 403: SessionRefusal, 503: SessionRefusal },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const { idToken } = request.body as { idToken: string };
      let started;
      try {
        started = await startSession(request, idToken);
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        if (error.code === 'unavailable')
          request.log.warn({ err: error.cause }, 'identity service unavailable at sign-in');
        else request.log.info({ code: error.code }, 'sign-in refused');
        if (error.code !== 'unavailable' && error.uid)
          audit(request, {
            kind: 'session.refused',
            actorUid: error.uid,
            actorEmail: error.email,
            detail: { code: error.code },
          });
        const status = SIGN_IN_STATUS[error.code];
        // Who is signed in and how to ask for access, for the login page to say so.
        const refusal = status === 403 ? { email: error.email, requestAccess: REQUEST_ACCESS.email } : {};
        return reply.code(status).send({ error: error.message, code: error.code, ...refusal });
      }
      const { cookie: value, reader } = started;
      cookies.set(request, reply, value, reader);
      request.log.info({ uid: reader.uid, groups: reader.groups }, 'session started');
      audit(request, {
        kind: 'session.started',
        actorUid: reader.uid,
        actorEmail: reader.email,
        groups: reader.groups,
      });
      return reply.send({ email: reader.email, groups: reader.groups, units: reader.units });
    },
  );

  const loggedOut = { response: { 204: NoContent } };
  app.post('/api/logout', { onRequest: guard.requireSameOrigin, schema: loggedOut }, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const raw = request.cookies[SESSION_COOKIE];
    cookies.clear(request, reply);
    if (raw) {
      try {
        const reader = await identity.endSession(raw);
        if (reader) {
          request.log.info({ uid: reader.uid }, 'session ended; refresh tokens revoked');
          audit(request, { kind: 'session.logout', actorUid: reader.uid, actorEmail: reader.email });
        }
      } catch (error) {
        // The cookie is gone from this browser either way; revocation is retried at the next logout.
        request.log.warn({ err: error }, 'could not revoke refresh tokens at logout');
      }
    }
    return reply.code(204).send();
  });

  const send = (request: FastifyRequest, reply: FastifyReply, file: SiteFile, status: number): FastifyReply => {
    void reply.headers(fileHeaders(file));
    const ifNoneMatch = request.headers['if-none-match'];
    if (status === 200 && ifNoneMatch && ifNoneMatch.split(',').some((tag) => [file.etag, '*'].includes(tag.trim()))) {
      return reply.code(304).send();
    }
    const encoding = chooseEncoding(request.headers['accept-encoding'], file);
    if (encoding !== 'identity') void reply.header('content-encoding', encoding);
    return reply
      .code(status)
      .header('content-type', file.contentType)
      .send(file.bodies[encoding] ?? file.bodies.identity);
  };

  const meter = agentMeter(app, config.tokenRateLimitPerMinute);
  app.get('/*', hidden, async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    let file = site.lookup(path);
    if (!file) return send(request, reply, site.notFound, 404);
    // A page asked for as Markdown (an assistant's Accept: text/markdown) is its .md twin.
    if (file.kind === 'page' && prefersMarkdown(request.headers.accept))
      file = site.lookup(markdownUrl(file.url)) ?? file;
    request.servedFile = file;
    if (file.access === 'public') return send(request, reply, file, 200);

    // A page's Markdown also takes a personal access token (Authorization: Bearer), never a cookie's stand-in.
    if (pageOfMarkdown(file.url) !== null && request.headers.authorization !== undefined) {
      request.acceptsToken = true;
      void reply.header('cache-control', 'no-store').header('vary', 'Accept, Authorization');
      // Limited per token like every agent surface; only here, so pages read with a session
      // never pay for a limiter.
      const wait = await meter.charge(request, 1);
      if (wait !== null)
        return reply
          .code(429)
          .header('retry-after', String(wait))
          .send({ error: `Too many requests with this token; try again in ${wait} s` });
      const outcome = await agentReader(request, reply, context);
      if (outcome === null) return reply;
      if (outcome.kind !== 'reader' || !mayRead(outcome.reader.units, file.units)) return reply.code(403).send();
      if (config.audit.pageViews)
        recordView(
          request,
          outcome.reader,
          site.lookup(pageOfMarkdown(file.url) ?? file.url)?.url ?? file.url,
          'token',
          clientOf(outcome),
        );
      return send(request, reply, file, 200);
    }

    const outcome = await request.reader;
    settleOutcome(outcome, request, reply, { cookies, audit });
    const reader = outcome.kind === 'reader' ? outcome.reader : outcome.kind === 'unavailable' ? 'unavailable' : null;
    if (typeof reader === 'object' && reader !== null && mayRead(reader.units, file.units)) {
      if (file.kind === 'page' && config.audit.pageViews) recordView(request, reader, file.url);
      return send(request, reply, file, 200);
    }
    void reply.header('cache-control', 'no-store').header('vary', 'Cookie');
    if (typeof reader === 'object' && reader !== null) {
      // Signed in, but holding none of the file's units: say so, never send them to sign in again.
      request.log.info({ uid: reader.uid, groups: reader.groups }, 'refused: outside the units of this file');
      if (file.kind !== 'page') return reply.code(403).send();
      // The site's own refusal page (its unit, why, and asking for it), at the asked address;
      // the gate's plain one for a build without it.
      const refusal = site.lookup(REFUSAL_PAGE);
      if (refusal?.kind === 'page' && mayRead(reader.units, refusal.units)) return send(request, reply, refusal, 403);
      return reply
        .code(403)
        .header('content-type', 'text/html; charset=utf-8')
        .send(noAccessPage({ path: request.url, email: reader.email, contact: REQUEST_ACCESS }));
    }
    if (reader === 'unavailable') {
      void reply.header('retry-after', '5');
      if (file.kind === 'page') {
        return reply.code(503).header('content-type', 'text/html; charset=utf-8').send(unavailablePage(request.url));
      }
      return reply.code(503).send();
    }
    if (file.kind === 'page') return reply.redirect(loginUrlFor(request.url), 302);
    return reply.code(401).send();
  });

  const context: GateContext = {
    config,
    site,
    identity,
    store,
    directory,
    readerIndex,
    tokens,
    oauth,
    meter,
    search,
    guards: guard,
    cookies,
    audit,
    recordView,
    mailer,
    clock: options.clock ?? Date.now,
  };
  // Automation calls the admin API, and reads its description, with an administrator's
  // personal token of the admin scope.
  const adminTokens = async (request: FastifyRequest): Promise<void> => {
    request.acceptsToken = true;
    request.tokenScope = 'admin';
  };
  // Guards by prefix: everything under /api/admin is for administrators only.
  await app.register(
    async (admin) => {
      admin.addHook('onRequest', adminTokens);
      admin.addHook('onRequest', guard.noStore('no-store'));
      admin.addHook('onRequest', guard.writesFromThisSiteOrToken);
      admin.addHook('onRequest', guard.requireAdmin);
      await adminRoutes(admin, context);
      await adminTokenRoutes(admin, context);
      await adminAppRoutes(admin, context);
      await insightsPageRoutes(admin, context);
      // Its own context: its error handler is its own.
      await admin.register((inner) => licenceRoutes(inner, context, licences));
      await accessRequestAdminRoutes(admin, context, licences);
      await sourceAdminRoutes(admin, context, rebuilds);
    },
    { prefix: '/api/admin' },
  );
  app.get(
    '/api/openapi.json',
    { onRequest: [adminTokens, guard.noStore('no-store'), guard.requireAdmin], schema: { hide: true } },
    async () => app.swagger(),
  );
  await app.register((instance) => activityRoutes(instance, context), { prefix: '/api' });
  await app.register((instance) => accessRequestRoutes(instance, context, licences), { prefix: '/api' });
  await app.register((instance) => agentRoutes(instance, context));
  await app.register((instance) => searchFilesRoutes(instance, context));
  await app.register((instance) => oauthRoutes(instance, context));
  await app.register((instance) => hookRoutes(instance, context, rebuilds, options.clock ?? Date.now));

  // The hot path (fast-path.ts): the same answers as the GET route above for a public file
  // or a private one with a cached session that may read it, without Fastify's request
  // cycle. With client addresses stored, private pages keep to Fastify, which knows the
  // address behind the proxies (TRUST_PROXY).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  const requestLog = ['trace', 'debug', 'info'].includes(app.log.level);
  fastPath = createFastPath({
    site,
    metrics,
    securityHeaders: helmetHeaders(securityHeaders),
    sessionCookie: SESSION_COOKIE,
    newRequestId,
    cachedReader: (raw) => identity.cachedReader(raw),
    privatePages: !(config.audit.pageViews && config.audit.storeClientIp),
    // Only without client addresses (privatePages above): the page view log keeps none.
    recordView: config.audit.pageViews ? (reader, path) => store.views.record(reader, path) : null,
    // Fastify's two lines per request, with the same serializers, when the level shows them.
    logRequest: requestLog
      ? (id, request, status, ms) => {
          const log = app.log.child({ reqId: id });
          log.info(
            {
              req: {
                method: request.method,
                url: request.url,
                host: request.headers.host,
                ip: request.socket.remoteAddress,
                socket: request.socket,
              },
            },
            'incoming request',
          );
          log.info({ res: { statusCode: status }, responseTime: ms }, 'request completed');
        }
      : null,
    closing: () => closing,
  });
  // GATE_FAST_PATH=off: every request through Fastify, the benchmark's peer for the fast path.
  if (process.env.GATE_FAST_PATH === 'off') fastPath = null;

  return app;
}
