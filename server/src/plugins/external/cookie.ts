import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';

/** Cookies parsed for every request; the session cookie's own signature is the identity core's (auth/identity.ts). */
export default fp(async (app) => app.register(cookie), { name: 'cookie' });
