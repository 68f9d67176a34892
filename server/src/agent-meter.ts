import { createHash } from 'node:crypto';

import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/*
 * What coding assistants spend, metered by credential: a token's requests on every agent
 * surface (Markdown pages, llms.txt, the search API, MCP) draw on one budget keyed by the
 * token itself, never by how its header is spelled; refused credentials are counted per
 * client address.
 */

/**
 * The token of an `Authorization` header: `Bearer <token>` with the scheme in any case and any
 * whitespace between (RFC 9110 §11.1), or null for any other header.
 */
export function bearerToken(header: string | undefined): string | null {
  return (header === undefined ? null : /^\s*bearer\s+(\S+)\s*$/i.exec(header)?.[1]) ?? null;
}

const clientAddress = (request: FastifyRequest): string => (request.ip ? normalizeIP(request.ip) : 'no-address');

/**
 * The budget key of a request to an agent surface: its token's identity (a hash of the
 * token itself, however the header spells `Bearer`: one budget across the surfaces), else
 * its client address and route (sessions and visitors, a budget per surface as before).
 */
export const tokenLimitKey = (request: FastifyRequest): string => {
  const token = bearerToken(request.headers.authorization);
  return token !== null
    ? `token:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}`
    : `ip:${clientAddress(request)} ${request.routeOptions.url ?? ''}`;
};

/** Refused credentials (malformed, unknown, expired, revoked) one client address may send a minute. */
export const REFUSALS_PER_MINUTE = 20;

/** What agents spend: one budget per token (or address) across every agent surface, and refusals per address. */
export interface AgentMeter {
  /** Charges `cost` units (an MCP batch: one per message); the seconds to wait when they do not fit. */
  charge(request: FastifyRequest, cost: number): Promise<number | null>;
  /** The seconds to wait when the request's address is past its refused credentials, else null. */
  refusalWait(request: FastifyRequest): Promise<number | null>;
  countRefusal(request: FastifyRequest): Promise<void>;
}

/** The agent meter, on the app's rate-limit store (Redis when set, so replicas count together). */
export function agentMeter(app: FastifyInstance, perMinute: number): AgentMeter {
  const WINDOW_MS = 60_000;
  const budget = app.createRateLimit({ max: perMinute, timeWindow: WINDOW_MS, keyGenerator: tokenLimitKey });
  const refusals = app.createRateLimit({
    max: REFUSALS_PER_MINUTE,
    timeWindow: WINDOW_MS,
    keyGenerator: (request) => `refused:${clientAddress(request)}`,
  });
  // Seconds until the window ends; a window not yet started is a whole one away.
  const waitOf = (ttlInSeconds: number): number => (ttlInSeconds > 0 ? ttlInSeconds : WINDOW_MS / 1000);
  return {
    async charge(request, cost) {
      const before = await budget(request, { increment: false });
      if (before.isAllowed) return null;
      // A batch that does not fit is refused whole, and costs nothing.
      if (before.remaining < cost) return waitOf(before.ttlInSeconds);
      for (let unit = 0; unit < cost; unit++) {
        const after = await budget(request);
        if (!after.isAllowed && after.isExceeded) return waitOf(after.ttlInSeconds);
      }
      return null;
    },
    async refusalWait(request) {
      const now = await refusals(request, { increment: false });
      return !now.isAllowed && now.remaining <= 0 ? waitOf(now.ttlInSeconds) : null;
    },
    async countRefusal(request) {
      await refusals(request);
    },
  };
}
