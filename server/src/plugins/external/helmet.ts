import type { IncomingMessage, ServerResponse } from 'node:http';

import fp from 'fastify-plugin';
import helmet from 'helmet';

import type { Config } from '../../config.js';
import type { Site } from '../../site.js';

/** helmet's middleware: sets the security headers on a response. */
export type SecurityHeaders = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

declare module 'fastify' {
  interface FastifyInstance {
    /** The security headers of every answer, made once at start (the fast path sends the same). */
    securityHeaders: SecurityHeaders;
  }
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
 * Security headers from helmet, built once from the first build's inline scripts:
 * @fastify/helmet would build helmet's middleware and parse the CSP again on every request
 * (docs/performance.md).
 */
export default fp(
  async (app) => {
    const { config, site } = app;
    const securityHeaders: SecurityHeaders = helmet({
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
    app.decorate('securityHeaders', securityHeaders);
  },
  { name: 'helmet', dependencies: ['config', 'site'] },
);
