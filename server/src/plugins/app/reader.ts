import type { IncomingMessage } from 'node:http';

import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { SESSION_COOKIE } from '@portal/contract/names';

import type { Reader } from '../../auth/identity.js';
import { bearerToken, ReaderResolver, type Credentials, type ReaderOutcome } from '../../auth/reader.js';
import type { TokenScope } from '../../auth/tokens.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Who is behind the request, resolved at the first read and never again, and settled there:
     * a refused session is signed out (its cookie cleared, the trail told), a token's first use
     * of the day is audited.
     */
    readonly reader: Promise<ReaderOutcome>;
  }
  interface FastifyContextConfig {
    /** The route takes a personal access token of this scope (`Authorization: Bearer`) besides the session. */
    token?: TokenScope;
    /** The route (/mcp) takes the OAuth access tokens of the portal's authorization server too, and never a session. */
    oauth?: boolean;
  }
}

/** The fast path's look-up of a request's session cookie: the cookie it read and what the cache held (null: nothing). */
export interface SessionLookup {
  cookie: string;
  reader: Reader | null;
}

/** Where the fast path (fast-path.ts) leaves its look-up, so the Fastify path does not look again. */
export const sessionLookups = new WeakMap<IncomingMessage, SessionLookup>();

const PENDING = Symbol('portal.reader');
const REPLY = Symbol('portal.reply');

/**
 * Gives every request one lazily resolved `request.reader`: the session cookie, or a token
 * where the route's settings take one (`config.token`, `config.oauth`), each looked up once.
 */
export default fp(
  async (app) => {
    const { metrics, sessionCookies, audit } = app;
    const resolver = new ReaderResolver(app.identity, app.tokens, app.oauth, {
      sessionLookup: (hit) => metrics.sessionChecks.inc({ result: hit ? 'hit' : 'miss' }),
      identityAnswer: (outcome) => metrics.identityCalls.inc({ outcome }),
    });

    /** What an outcome leaves behind, whoever reads it: a refused session signed out, a token's use of the day. */
    const settle = (outcome: ReaderOutcome, request: FastifyRequest, reply: FastifyReply): void => {
      if (outcome.kind === 'refused' && outcome.via === 'session') {
        request.log.info({ code: outcome.error.code }, 'session refused; signing the reader out');
        sessionCookies.clear(request, reply);
        if (outcome.error.uid)
          audit(request, {
            kind: 'session.ended',
            actorUid: outcome.error.uid,
            actorEmail: outcome.error.email,
            detail: { code: outcome.error.code },
          });
      } else if (outcome.kind === 'reader' && outcome.via === 'token' && outcome.firstUseToday) {
        audit(request, {
          kind: 'token.used',
          actorUid: outcome.reader.uid,
          actorEmail: outcome.reader.email,
          groups: outcome.reader.groups,
          detail: { token: outcome.token.id, name: outcome.token.name },
        });
      }
    };

    const credentialsOf = (request: FastifyRequest): Credentials => {
      const { token, oauth } = request.routeOptions.config;
      const header = request.headers.authorization;
      if (token !== undefined && header !== undefined)
        return {
          bearer: bearerToken(header),
          tokenScope: token,
          ...(oauth === true ? { oauthOrigin: app.originOf(request) } : {}),
        };
      // An assistant's surface reads no session cookie: without a token, nobody.
      if (oauth === true) return {};
      const cookie = request.cookies[SESSION_COOKIE];
      const lookup = sessionLookups.get(request.raw);
      return { cookie, ...(lookup !== undefined && lookup.cookie === cookie ? { cached: lookup.reader } : {}) };
    };

    app.decorateRequest(PENDING, null);
    app.decorateRequest(REPLY, null);
    // The reply a refused session's cookie is cleared on, wherever the reader is first read.
    app.addHook('onRequest', (request, reply, done) => {
      request.setDecorator(REPLY, reply);
      done();
    });
    app.decorateRequest('reader', {
      getter(this: FastifyRequest) {
        let pending = this.getDecorator<Promise<ReaderOutcome> | null>(PENDING);
        if (pending === null) {
          const reply = this.getDecorator<FastifyReply>(REPLY);
          pending = resolver.resolve(credentialsOf(this)).then((outcome) => {
            settle(outcome, this, reply);
            return outcome;
          });
          this.setDecorator(PENDING, pending);
        }
        return pending;
      },
    });
  },
  { name: 'reader', dependencies: ['identity', 'tokens', 'oauth', 'metrics', 'session-cookies', 'store', 'origin'] },
);
