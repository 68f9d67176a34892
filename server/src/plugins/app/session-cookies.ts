import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { COOKIE_PATH, GROUPS_HINT_COOKIE, SESSION_COOKIE, UNITS_HINT_COOKIE } from '@portal/contract/names';

import type { Reader } from '../../auth/identity.js';
import type { Config } from '../../config.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sets and clears the session cookie and its groups and units hints. */
    sessionCookies: SessionCookies;
  }
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** The session cookie and its hints, Secure wherever the portal is not on this machine. */
function sessionCookies(config: Config) {
  const secure = (request: FastifyRequest): boolean =>
    config.production || !loopbackHosts.has(request.hostname.replace(/:\d+$/, '').toLowerCase());
  const hint = (request: FastifyRequest, reply: FastifyReply, reader: Reader): void => {
    const options = {
      path: COOKIE_PATH,
      sameSite: 'lax',
      secure: secure(request),
      maxAge: config.session.maxAgeSeconds,
    } as const;
    void reply.setCookie(GROUPS_HINT_COOKIE, reader.groups.join('.'), options);
    void reply.setCookie(UNITS_HINT_COOKIE, reader.units.join('.'), options);
  };
  return {
    set(request: FastifyRequest, reply: FastifyReply, value: string, reader: Reader): void {
      void reply.setCookie(SESSION_COOKIE, value, {
        path: COOKIE_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: secure(request),
        maxAge: config.session.maxAgeSeconds,
      });
      hint(request, reply, reader);
    },
    hint,
    clear(request: FastifyRequest, reply: FastifyReply): void {
      const options = { path: COOKIE_PATH, sameSite: 'lax', secure: secure(request) } as const;
      void reply.clearCookie(SESSION_COOKIE, { ...options, httpOnly: true });
      void reply.clearCookie(GROUPS_HINT_COOKIE, options);
      void reply.clearCookie(UNITS_HINT_COOKIE, options);
    },
  };
}
export type SessionCookies = ReturnType<typeof sessionCookies>;

/** The session cookie: signed by the identity core (auth/identity.ts), parsed by @fastify/cookie. */
export default fp(async (app) => void app.decorate('sessionCookies', sessionCookies(app.config)), {
  name: 'session-cookies',
  dependencies: ['config', '@fastify/cookie'],
});
