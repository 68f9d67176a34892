import { createHash } from 'node:crypto';

import type { FastifyRequest } from 'fastify';

/** The rate-limit key of a request to an agent surface: its token (hashed), else its address. */
export const tokenLimitKey = (request: FastifyRequest): string =>
  request.headers.authorization
    ? `token:${createHash('sha256').update(request.headers.authorization).digest('base64url').slice(0, 22)}`
    : `ip:${request.ip}`;

/** A route's rate limit of `max` a minute per token (or per client address without one). */
export const perToken = (max: number) => ({
  rateLimit: { max, timeWindow: 60_000, keyGenerator: tokenLimitKey },
});
