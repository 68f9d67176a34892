import type { IncomingMessage } from 'node:http';

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { COOKIE_PATH, GROUPS_HINT_COOKIE, SESSION_COOKIE, UNITS_HINT_COOKIE } from '@portal/contract/names';

import type { Reader } from '../auth/identity.js';
import { bearerToken, type ReaderOutcome, type ReaderResolver } from '../auth/reader.js';
import type { TokenScope } from '../auth/tokens.js';
import type { Config } from '../config.js';
import type { AuditEvent } from '../db/audit.js';

/** Where the gate's fast path leaves its look-up of a request's session cookie, so Fastify's path does not look again. */
export const SESSION_LOOKUP = Symbol('portal.sessionLookup');

/** The fast path's look-up: the cookie it read and what the cache held for it (null: nothing). */
export interface SessionLookup {
  cookie: string;
  reader: Reader | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is behind the request, resolved at the first read and never again. */
    readonly reader: Promise<ReaderOutcome>;
    /** Set by a route before it first reads `reader`: whether a personal access token counts here. */
    acceptsToken: boolean;
    /** The scope of personal token the request's surface takes: `admin` under /api/admin, else `read`. */
    tokenScope: TokenScope;
    /** The reader a guard let through (after `requireReader` and the like); null before or without one. */
    signedIn: Reader | null;
  }
  interface FastifyContextConfig {
    /** The surface takes a personal access token (`Authorization: Bearer`) as well as the session. */
    tokens?: boolean;
    /** The surface (/mcp) also takes an OAuth access token its authorization server issued. */
    oauth?: boolean;
  }
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Sets and clears the session cookie and its groups and units hints, Secure wherever the portal is not on this machine. */
export function sessionCookies(config: Config) {
  const secure = (request: FastifyRequest): boolean =>
    config.production || !loopbackHosts.has(request.hostname.replace(/:\d+$/, '').toLowerCase());
  return {
    set(request: FastifyRequest, reply: FastifyReply, value: string, reader: Reader): void {
      void reply.setCookie(SESSION_COOKIE, value, {
        path: COOKIE_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: secure(request),
        maxAge: config.session.maxAgeSeconds,
      });
      this.hint(request, reply, reader);
    },
    hint(request: FastifyRequest, reply: FastifyReply, reader: Reader): void {
      const options = {
        path: COOKIE_PATH,
        sameSite: 'lax',
        secure: secure(request),
        maxAge: config.session.maxAgeSeconds,
      } as const;
      void reply.setCookie(GROUPS_HINT_COOKIE, reader.groups.join('.'), options);
      void reply.setCookie(UNITS_HINT_COOKIE, reader.units.join('.'), options);
    },
    clear(request: FastifyRequest, reply: FastifyReply): void {
      void reply.clearCookie(SESSION_COOKIE, {
        path: COOKIE_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: secure(request),
      });
      void reply.clearCookie(GROUPS_HINT_COOKIE, { path: COOKIE_PATH, sameSite: 'lax', secure: secure(request) });
      void reply.clearCookie(UNITS_HINT_COOKIE, { path: COOKIE_PATH, sameSite: 'lax', secure: secure(request) });
    },
  };
}
export type SessionCookies = ReturnType<typeof sessionCookies>;

/**
 * Gives every request one lazily resolved `request.reader`: the session cookie, or a
 * personal access token on a surface that takes one (`config.tokens` or `acceptsToken`),
 * each looked up once, the fast path's look-up included.
 */
export function decorateReader(
  app: FastifyInstance,
  resolver: ReaderResolver,
  originOf: (request: FastifyRequest) => string,
): void {
  const pending = Symbol('portal.reader');
  app.decorateRequest('acceptsToken', false);
  app.decorateRequest('tokenScope', 'read');
  app.decorateRequest('signedIn', null);
  app.decorateRequest(pending, null);
  app.decorateRequest('reader', {
    getter(this: FastifyRequest) {
      const request = this as FastifyRequest & { [pending]: Promise<ReaderOutcome> | null };
      return (request[pending] ??= resolver.resolve(credentialsOf(this, originOf)));
    },
  });
}

function credentialsOf(
  request: FastifyRequest,
  originOf: (request: FastifyRequest) => string,
): Parameters<ReaderResolver['resolve']>[0] {
  const header = request.headers.authorization;
  if (header !== undefined && (request.acceptsToken || request.routeOptions.config.tokens === true))
    return {
      bearer: bearerToken(header),
      tokenScope: request.tokenScope,
      ...(request.routeOptions.config.oauth === true ? { oauthOrigin: originOf(request) } : {}),
    };
  const cookie = request.cookies[SESSION_COOKIE];
  const lookup = (request.raw as IncomingMessage & { [SESSION_LOOKUP]?: SessionLookup })[SESSION_LOOKUP];
  return { cookie, ...(lookup !== undefined && lookup.cookie === cookie ? { cached: lookup.reader } : {}) };
}

/**
 * What the route that decides does with a refused session or a token's use: signs the
 * reader out (the cookie cleared, the trail told when a real account's session ended), or
 * records the token's first use of the day.
 */
export function settleOutcome(
  outcome: ReaderOutcome,
  request: FastifyRequest,
  reply: FastifyReply,
  effects: { cookies: SessionCookies; audit(request: FastifyRequest, event: AuditEvent): void },
): void {
  if (outcome.kind === 'refused' && outcome.via === 'session') {
    request.log.info({ code: outcome.error.code }, 'session refused; signing the reader out');
    effects.cookies.clear(request, reply);
    if (outcome.error.uid)
      effects.audit(request, {
        kind: 'session.ended',
        actorUid: outcome.error.uid,
        actorEmail: outcome.error.email,
        detail: { code: outcome.error.code },
      });
  } else if (outcome.kind === 'reader' && outcome.via === 'token' && outcome.firstUseToday) {
    effects.audit(request, {
      kind: 'token.used',
      actorUid: outcome.reader.uid,
      actorEmail: outcome.reader.email,
      groups: outcome.reader.groups,
      detail: { token: outcome.token.id, name: outcome.token.name },
    });
  }
}
