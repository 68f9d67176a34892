import cookie from '@fastify/cookie';
import helmet from 'helmet';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';

import { loginUrlFor, mayRead, REQUEST_ACCESS } from '@portal/access';

import { AuthError, SIGN_IN_STATUS } from './auth/errors.js';
import { Identity, type Reader } from './auth/identity.js';
import type { Config } from './config.js';
import { noAccessPage, unavailablePage } from './pages.js';
import { chooseEncoding, loadSite, type Site, type SiteFile } from './site.js';

/** Firebase Hosting forwards only a cookie of this name; keeping it makes that deployment possible. */
export const SESSION_COOKIE = '__session';
/**
 * The reader's groups joined by `.`, readable by the page's scripts so that the first paint
 * already shows each reader only what they may open. A hint only: the gate decides.
 */
export const GROUPS_HINT_COOKIE = 'portal_groups';

export interface AppOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** Supply to share one Identity or set its clock (tests); otherwise one is made from config. */
  identity?: Identity;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once per request by `readerOf`. */
    portalReader?: Promise<Reader | 'anonymous' | 'unavailable'>;
  }
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function requestHostname(request: FastifyRequest): string {
  return request.hostname.replace(/:\d+$/, '').toLowerCase();
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
  const site = await loadSite(config.siteDir);
  const identity =
    options.identity ??
    new Identity({
      config: config.identity,
      secret: config.session.secret,
      sessionMaxAgeSeconds: config.session.maxAgeSeconds,
      cacheTtlSeconds: config.session.cacheTtlSeconds,
      timeoutMs: config.session.identityTimeoutMs,
    });
  const app = Fastify({
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
  });
  if (!options.identity) app.addHook('onClose', () => identity.close());
  app.log.info({ files: site.files, bytes: site.bytes }, 'site loaded');

  // Cookies are parsed here and signed by the identity core (auth/identity.ts).
  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    // A request whose connection already closed (a malformed body) has no address; it is
    // answered 400 anyway, so it shares one bucket instead of crashing the limiter.
    keyGenerator: (request) => (request.ip ? normalizeIP(request.ip) : 'no-address'),
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
  app.addHook('onRequest', (request, reply, done) => {
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

  const secureCookie = (request: FastifyRequest): boolean =>
    config.production || !loopbackHosts.has(requestHostname(request));
  const clearSession = (request: FastifyRequest, reply: FastifyReply): void => {
    const secure = secureCookie(request);
    void reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
    void reply.clearCookie(GROUPS_HINT_COOKIE, { path: '/', sameSite: 'lax', secure });
  };
  const setGroupsHint = (request: FastifyRequest, reply: FastifyReply, reader: Reader): void => {
    void reply.setCookie(GROUPS_HINT_COOKIE, reader.groups.join('.'), {
      path: '/',
      sameSite: 'lax',
      secure: secureCookie(request),
      maxAge: config.session.maxAgeSeconds,
    });
  };

  /** The reader behind a request's cookie; a cookie that is no good any more is cleared (the reader is signed out). */
  const readerOf = (request: FastifyRequest, reply: FastifyReply): Promise<Reader | 'anonymous' | 'unavailable'> => {
    request.portalReader ??= (async () => {
      const raw = request.cookies[SESSION_COOKIE];
      if (!raw) return 'anonymous';
      const check = await identity.checkSession(raw);
      if (check.ok) return check.reader;
      if (!check.error.signsOut) return 'unavailable';
      request.log.info({ code: check.error.code }, 'session refused; signing the reader out');
      clearSession(request, reply);
      return 'anonymous';
    })();
    return request.portalReader;
  };

  /** Same-origin check for state-changing calls: the browser's Origin must be this site. */
  const sameOrigin = (request: FastifyRequest): boolean => {
    const origin = request.headers.origin;
    if (typeof origin !== 'string') return false;
    if (config.publicOrigin) return origin === config.publicOrigin;
    const protocol = request.protocol;
    return origin === `${protocol}://${request.host}`;
  };

  /** Runs before the body is even parsed, so a cross-site request learns nothing from validation errors. */
  const requireSameOrigin = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (!sameOrigin(request)) {
      await reply
        .code(403)
        .header('cache-control', 'no-store')
        .send({ error: 'Cross-origin requests are not allowed' });
    }
  };

  app.get('/healthz', async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'ok', files: site.files }),
  );

  app.get('/api/auth-config', async (_request, reply) =>
    reply.header('cache-control', 'no-cache').send({
      apiKey: config.identity.apiKey,
      authDomain: config.identity.authDomain,
      projectId: config.identity.projectId,
      emulatorUrl: config.identity.emulatorHost ? `http://${config.identity.emulatorHost}` : null,
    }),
  );

  app.get('/api/session', async (request, reply) => {
    void reply.header('cache-control', 'private, no-store').header('vary', 'Cookie');
    const reader = await readerOf(request, reply);
    if (reader === 'unavailable') return reply.code(503).send({ error: 'The sign-in service is not answering' });
    if (reader === 'anonymous') return reply.code(401).send({ error: 'Not signed in' });
    setGroupsHint(request, reply, reader);
    return reply.send({ email: reader.email, groups: reader.groups });
  });

  app.post(
    '/api/session',
    {
      onRequest: requireSameOrigin,
      config: { rateLimit: { max: config.session.rateLimitPerMinute, timeWindow: 60_000 } },
      schema: {
        body: {
          type: 'object',
          required: ['idToken'],
          additionalProperties: false,
          properties: { idToken: { type: 'string', minLength: 1, maxLength: 8192 } },
        },
      },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'no-store');
      const { idToken } = request.body as { idToken: string };
      try {
        const { cookie: value, reader } = await identity.startSession(idToken);
        void reply.setCookie(SESSION_COOKIE, value, {
          path: '/',
          httpOnly: true,
          sameSite: 'lax',
          secure: secureCookie(request),
          maxAge: config.session.maxAgeSeconds,
        });
        setGroupsHint(request, reply, reader);
        request.log.info({ uid: reader.uid, groups: reader.groups }, 'session started');
        return reply.send({ email: reader.email, groups: reader.groups });
      } catch (error) {
        if (!(error instanceof AuthError)) throw error;
        if (error.code === 'unavailable')
          request.log.warn({ err: error.cause }, 'identity service unavailable at sign-in');
        else request.log.info({ code: error.code }, 'sign-in refused');
        const status = SIGN_IN_STATUS[error.code];
        // Who is signed in and how to ask for access, for the login page to say so.
        const refusal = status === 403 ? { email: error.email, requestAccess: REQUEST_ACCESS.email } : {};
        return reply.code(status).send({ error: error.message, code: error.code, ...refusal });
      }
    },
  );

  app.post('/api/logout', { onRequest: requireSameOrigin }, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const raw = request.cookies[SESSION_COOKIE];
    clearSession(request, reply);
    if (raw) {
      try {
        const reader = await identity.endSession(raw);
        if (reader) request.log.info({ uid: reader.uid }, 'session ended; refresh tokens revoked');
      } catch (error) {
        // The cookie is gone from this browser either way; revocation is retried at the next logout.
        request.log.warn({ err: error }, 'could not revoke refresh tokens at logout');
      }
    }
    return reply.code(204).send();
  });

  const send = (request: FastifyRequest, reply: FastifyReply, file: SiteFile, status: number): FastifyReply => {
    const isPrivate = file.access === 'private';
    const vary = isPrivate ? 'Accept-Encoding, Cookie' : 'Accept-Encoding';
    const cacheControl = isPrivate
      ? 'private, no-store'
      : file.immutable
        ? 'public, max-age=31536000, immutable'
        : 'public, max-age=0, must-revalidate';
    void reply.header('cache-control', cacheControl).header('vary', vary).header('etag', file.etag);
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

  app.get('/*', async (request, reply) => {
    const path = request.url.split('?', 1)[0] ?? '/';
    const file = site.lookup(path);
    if (!file) return send(request, reply, site.notFound, 404);
    if (file.access === 'public') return send(request, reply, file, 200);

    // A session verified within the cache's TTL is answered without waiting on a promise.
    const raw = request.cookies[SESSION_COOKIE];
    const reader = (raw !== undefined && identity.cachedReader(raw)) || (await readerOf(request, reply));
    if (typeof reader === 'object' && mayRead(reader.groups, file.groups)) return send(request, reply, file, 200);
    void reply.header('cache-control', 'no-store').header('vary', 'Cookie');
    if (typeof reader === 'object') {
      // Signed in, but not in the file's groups: say so, never send them to sign in again.
      request.log.info({ uid: reader.uid, groups: reader.groups }, 'refused: outside the groups of this file');
      if (file.kind !== 'page') return reply.code(403).send();
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

  return app;
}
