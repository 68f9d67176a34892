import type { FastifyReply, FastifyRequest } from 'fastify';

import { canRead } from '@portal/access';

import type { Reader } from '../auth/identity.js';
import type { Config } from '../config.js';
import type { AuditEvent } from '../db/audit.js';
import { settleOutcome, type SessionCookies } from './reader.js';

/** The page the admin API belongs to: whoever may read it may call the API (one decision, the policy's). */
export const ADMIN_PATH = '/admin';

export type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined>;

export interface GuardContext {
  config: Config;
  cookies: SessionCookies;
  audit(request: FastifyRequest, event: AuditEvent): void;
}

/** The realm a refused token is told of. */
export const BEARER_CHALLENGE = 'Bearer realm="norigin-developer-docs"';

/**
 * The checks routes put in front of themselves, by URL prefix (`onRequest` hooks of the
 * prefix's plugin): same-origin writes, a reader, a reader of a page (`requireGroups`).
 * Each answers the request itself when it refuses: 403 for another origin, 503 when the
 * identity service or the token store cannot answer, 401 without a reader, 403 outside
 * the groups.
 */
export function guards(ctx: GuardContext) {
  const sameOrigin = (request: FastifyRequest): boolean => {
    const origin = request.headers.origin;
    if (typeof origin !== 'string') return false;
    if (ctx.config.publicOrigin) return origin === ctx.config.publicOrigin;
    return origin === `${request.protocol}://${request.host}`;
  };

  /** Runs before the body is parsed, so a cross-site request learns nothing from validation errors. */
  const requireSameOrigin: Guard = async (request, reply) => {
    if (!sameOrigin(request))
      return reply
        .code(403)
        .header('cache-control', 'no-store')
        .send({ error: 'Cross-origin requests are not allowed' });
  };

  /** A cross-site write learns nothing, not even whether the caller is signed in. */
  const writesFromThisSite: Guard = async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return requireSameOrigin(request, reply);
  };

  /**
   * The administration API's writes: from this site, or from automation with a bearer token
   * (a browser never adds that header on its own, so no other site can ride on it).
   */
  const writesFromThisSiteOrToken: Guard = async (request, reply) => {
    if (request.headers.authorization === undefined) return writesFromThisSite(request, reply);
  };

  /** A reader, who may pass `allowed` (else 403 `forbidden`); `request.signedIn` after it. */
  const requireReader =
    (signIn: string, allowed?: (reader: Reader) => boolean, forbidden = 'You may not do this'): Guard =>
    async (request, reply) => {
      if (reply.sent) return reply;
      const outcome = await request.reader;
      settleOutcome(outcome, request, reply, ctx);
      if (outcome.kind === 'unavailable')
        return reply.code(503).send({
          error:
            outcome.via === 'session'
              ? 'The sign-in service is not answering'
              : 'Tokens cannot be checked right now; try again shortly',
        });
      if (outcome.kind === 'refused' && outcome.via === 'token' && outcome.reason === 'scope')
        return reply.code(403).send({
          error:
            request.tokenScope === 'admin'
              ? 'This token is for agents (scope read); the administration API takes an admin token'
              : 'This token is for the administration API only (scope admin)',
        });
      if (outcome.kind === 'refused' && outcome.via !== 'session')
        return reply
          .code(401)
          .header('www-authenticate', BEARER_CHALLENGE)
          .send({ error: 'The token is not valid (unknown, expired or revoked)' });
      if (outcome.kind !== 'reader') return reply.code(401).send({ error: signIn });
      if (allowed && !allowed(outcome.reader)) return reply.code(403).send({ error: forbidden });
      request.signedIn = outcome.reader;
    };

  /** Sets how the answers of a prefix may be kept: never by a shared cache, and they vary by the cookie. */
  const noStore =
    (cacheControl: 'no-store' | 'private, no-store'): Guard =>
    async (_request, reply) => {
      void reply.header('cache-control', cacheControl).header('vary', 'Cookie');
    };

  /**
   * A reader whose groups may read `path`, as the policy decides for its pages (packages/access):
   * an API is guarded by the page it belongs to, so the two never disagree.
   */
  const requireGroups = (path: string, signIn: string, forbidden: string): Guard =>
    requireReader(signIn, (reader) => canRead(reader.units, path), forbidden);

  return {
    sameOrigin,
    requireSameOrigin,
    writesFromThisSite,
    writesFromThisSiteOrToken,
    requireReader,
    requireGroups,
    noStore,
    /** Readers of `/admin` (the policy's administration section) only. */
    requireAdmin: requireGroups(ADMIN_PATH, 'Sign in as an administrator', 'Administrators only'),
  };
}
export type Guards = ReturnType<typeof guards>;
