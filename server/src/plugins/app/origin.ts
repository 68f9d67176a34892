import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** The origin the portal answers at for a request: PUBLIC_URL, else the Host it was asked by. */
    originOf(request: FastifyRequest): string;
    /** Whether a request's Origin header names the portal's own origin: the one same-origin check. */
    fromThisSite(request: FastifyRequest): boolean;
  }
}

/** An origin as URLs write it (no default port), remembered: the Host of each request is one of a few. */
const canonical = new Map<string, string>();
function canonicalOrigin(origin: string): string {
  let known = canonical.get(origin);
  if (known === undefined) {
    try {
      known = new URL(origin).origin;
    } catch {
      known = origin;
    }
    if (canonical.size < 64) canonical.set(origin, known);
  }
  return known;
}

/** Where the portal is for a request, and whether a request comes from a page of it. */
export default fp(
  async (app) => {
    const { publicOrigin } = app.config;
    const originOf = (request: FastifyRequest): string =>
      publicOrigin ?? canonicalOrigin(`${request.protocol}://${request.host}`);
    app.decorate('originOf', originOf);
    app.decorate('fromThisSite', (request: FastifyRequest): boolean => {
      const origin = request.headers.origin;
      // `null` (a sandboxed page, a redirect across sites) and a missing Origin are no site's.
      return typeof origin === 'string' && origin !== 'null' && canonicalOrigin(origin) === originOf(request);
    });
  },
  { name: 'origin', dependencies: ['config'] },
);
