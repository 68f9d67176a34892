import cookie from '@fastify/cookie';
import helmet from 'helmet';
import rateLimit from '@fastify/rate-limit';
import { LRUCache } from 'lru-cache';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';

import { loginUrlFor } from '@portal/access';

import type { Config } from './config.js';
import { Identity, IdentityUnavailableError, RejectedTokenError, type Reader } from './identity.js';
import { unavailablePage } from './pages.js';
import { chooseEncoding, loadSite, type Site, type SiteFile } from './site.js';

/** Firebase Hosting forwards only a cookie of this name; keeping it makes that deployment possible. */
export const SESSION_COOKIE = '__session';

export interface AppOptions {
  config: Config;
  logger?: FastifyServerOptions['logger'];
  /** Supply to share one Identity (tests); otherwise one is made from config. */
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
      sessionMaxAgeSeconds: config.session.maxAgeSeconds,
      cacheTtlSeconds: config.session.cacheTtlSeconds,
      timeoutMs: config.session.identityTimeoutMs,
    });
  const app = Fastify({
    logger: options.logger ?? false,
    exposeHeadRoutes: true,
    bodyLimit: 16 * 1024,
    trustProxy: false,
    // Bodies are taken exactly as sent: no type coercion, no silently dropped fields.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
  });
  if (!options.identity) app.addHook('onClose', () => identity.close());
  app.log.info({ files: site.files, bytes: site.bytes }, 'site loaded');

  await app.register(cookie, { secret: config.session.secret });
  await app.register(rateLimit, { global: false });
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
    void reply.clearCookie(SESSION_COOKIE, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookie(request),
    });
  };

  // Signed cookies whose signature was already checked → the session cookie inside. The
  // check is a pure function of the cookie and the secret, so its result can be reused;
  // whether the session is still valid is asked of `identity` on every request.
  const signatureChecked = new LRUCache<string, string>({ max: 10_000 });

  /** The reader behind a request's cookie; an invalid cookie is cleared (the reader is signed out). */
  const readerOf = (request: FastifyRequest, reply: FastifyReply): Promise<Reader | 'anonymous' | 'unavailable'> => {
    request.portalReader ??= (async () => {
      const raw = request.cookies[SESSION_COOKIE];
      if (!raw) return 'anonymous';
      let value = signatureChecked.get(raw);
      if (value === undefined) {
        const unsigned = request.unsignCookie(raw);
        if (!unsigned.valid || !unsigned.value) {
          request.log.info('session cookie with a bad signature; signing the reader out');
          clearSession(request, reply);
          return 'anonymous';
        }
        value = unsigned.value;
        signatureChecked.set(raw, value);
      }
      const check = await identity.checkSession(value);
      if (check.state === 'valid') return check.reader;
      if (check.state === 'unavailable') return 'unavailable';
      request.log.info({ reason: check.reason }, 'session rejected; signing the reader out');
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
    return reply.send({ email: reader.email });
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
          signed: true,
        });
        request.log.info({ uid: reader.uid }, 'session started');
        return reply.send({ email: reader.email });
      } catch (error) {
        if (error instanceof RejectedTokenError) return reply.code(error.status).send({ error: error.message });
        if (error instanceof IdentityUnavailableError) {
          request.log.warn({ err: error.cause }, 'identity service unavailable at sign-in');
          return reply.code(503).send({ error: 'The sign-in service is not answering; try again shortly' });
        }
        throw error;
      }
    },
  );

  app.post('/api/logout', { onRequest: requireSameOrigin }, async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const raw = request.cookies[SESSION_COOKIE];
    const value = raw ? request.unsignCookie(raw) : undefined;
    clearSession(request, reply);
    if (value?.valid && value.value) {
      try {
        const reader = await identity.endSession(value.value);
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

    const reader = await readerOf(request, reply);
    if (typeof reader === 'object') return send(request, reply, file, 200);
    void reply.header('cache-control', 'no-store').header('vary', 'Cookie');
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
