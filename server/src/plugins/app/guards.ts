import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { canRead } from '@portal/access';

import type { Reader } from '../../auth/identity.js';

/** The page the admin API belongs to: whoever may read it may call the API (one decision, the policy's). */
export const ADMIN_PATH = '/admin';

/** What a route says while the database cannot be reached. */
export const DATABASE_UNAVAILABLE = 'The database is not reachable; try again shortly';

export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

export interface Guards {
  /** Same-origin requests only (another origin, `null` or none: 403); before the body is parsed, so a cross-site request learns nothing from validation. */
  requireSameOrigin: Guard;
  /** A request a browser sent (it names its Origin) must come from this site; assistants send none. */
  browsersFromThisSite: Guard;
  /** A cross-site write learns nothing, not even whether the caller is signed in. */
  writesFromThisSite: Guard;
  /** Writes from this site, or from automation with a bearer token (a browser never adds that header on its own). */
  writesFromThisSiteOrToken: Guard;
  /** A reader (else the refusal of the request's outcome); `signedIn(request)` behind it. */
  requireReader: Guard;
  /** Readers of `/admin` (the policy's administration section) only. */
  requireAdmin: Guard;
  /** The database, for a route that cannot answer without it (503 while it cannot be reached). */
  requireDatabase: Guard;
  /** How the answers behind it may be kept: never by a shared cache, and they vary by the cookie. */
  noStore(cacheControl: 'no-store' | 'private, no-store'): Guard;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The checks routes and route folders put in front of themselves (plugins/app/guards.ts). */
    guards: Guards;
  }
}

/**
 * The reader a guard let through, for the handlers behind `requireReader` and `requireAdmin`:
 * a route without such a guard fails here (500) instead of serving nobody.
 */
export async function signedIn(request: FastifyRequest): Promise<Reader> {
  const outcome = await request.reader;
  if (outcome.kind !== 'reader') throw new Error(`${request.routeOptions.url ?? 'this route'} has no reader guard`);
  return outcome.reader;
}

/** The guards, each answering the request itself when it refuses. */
export default fp(
  async (app) => {
    const requireSameOrigin: Guard = async (request, reply) => {
      if (!app.fromThisSite(request))
        return reply
          .code(403)
          .header('cache-control', 'no-store')
          .send({ error: 'Cross-origin requests are not allowed' });
    };
    const writesFromThisSite: Guard = async (request, reply) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') return requireSameOrigin(request, reply);
    };
    const readerWho =
      (may: (reader: Reader) => boolean): Guard =>
      async (request, reply) => {
        if (reply.sent) return reply;
        const outcome = await request.reader;
        if (outcome.kind !== 'reader' || !may(outcome.reader)) return reply.refuse(outcome);
      };
    const guards: Guards = {
      requireSameOrigin,
      browsersFromThisSite: async (request, reply) => {
        if (request.headers.origin !== undefined) return requireSameOrigin(request, reply);
      },
      writesFromThisSite,
      writesFromThisSiteOrToken: async (request, reply) => {
        if (request.headers.authorization === undefined) return writesFromThisSite(request, reply);
      },
      requireReader: readerWho(() => true),
      requireAdmin: readerWho((reader) => canRead(reader.units, ADMIN_PATH)),
      requireDatabase: async (_request, reply) => {
        if (!reply.sent && !app.store.readyNow) return reply.code(503).send({ error: DATABASE_UNAVAILABLE });
      },
      noStore: (cacheControl) => async (_request, reply) => {
        void reply.header('cache-control', cacheControl).header('vary', 'Cookie');
      },
    };
    app.decorate('guards', guards);
  },
  { name: 'guards', dependencies: ['origin', 'reader', 'refusals', 'store'] },
);
