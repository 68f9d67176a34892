import { createHash } from 'node:crypto';

import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

import { bearerToken } from '../../auth/reader.js';
import { jsonRpcError } from '../../mcp/json-rpc.js';

/*
 * What coding assistants spend, metered by credential: a token's requests on every agent
 * surface (Markdown pages, llms.txt, the search API, MCP) draw on one budget keyed by the
 * token itself, never by how its header is spelled; refused credentials are counted per
 * client address.
 */

const clientAddress = (request: FastifyRequest): string => (request.ip ? normalizeIP(request.ip) : 'no-address');

/**
 * The budget key of a request to an agent surface: its token's identity (a hash of the
 * token itself, however the header spells `Bearer`: one budget across the surfaces), else
 * its client address and route (sessions and visitors, a budget per surface).
 */
export const tokenLimitKey = (request: FastifyRequest): string => {
  const token = bearerToken(request.headers.authorization);
  return token !== null
    ? `token:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}`
    : `ip:${clientAddress(request)} ${request.routeOptions.url ?? ''}`;
};

/** Refused credentials (malformed, unknown, expired, revoked) one client address may send a minute. */
export const REFUSALS_PER_MINUTE = 20;

export interface AgentMeter {
  /**
   * Admits a request to an agent surface (a preHandler, or called by a route): charges `cost`
   * units of its budget (an MCP batch: one per message), refuses a token not known good from
   * an address past its refused credentials before it costs a look-up, and answers a refused
   * token (counted against the address) or no answer from the identity service or the token
   * store. Behind it the reader is a reader or nobody.
   */
  admit(request: FastifyRequest, reply: FastifyReply, cost?: number): Promise<FastifyReply | undefined>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** What agents spend: one budget per token (or address) across every agent surface, and refusals per address. */
    meter: AgentMeter;
  }
  interface FastifyContextConfig {
    /** The route answers in JSON-RPC (MCP), its errors and refusals for too many requests too. */
    jsonRpc?: boolean;
  }
}

/** The agent meter, on the app's rate-limit store (Redis when set, so replicas count together). */
export default fp(
  async (app) => {
    const WINDOW_MS = 60_000;
    const { tokens, oauth } = app;
    const budget = app.createRateLimit({
      max: app.config.tokenRateLimitPerMinute,
      timeWindow: WINDOW_MS,
      keyGenerator: tokenLimitKey,
    });
    const refusals = app.createRateLimit({
      max: REFUSALS_PER_MINUTE,
      timeWindow: WINDOW_MS,
      keyGenerator: (request) => `refused:${clientAddress(request)}`,
    });
    // Seconds until the window ends; a window not yet started is a whole one away.
    const waitOf = (ttlInSeconds: number): number => (ttlInSeconds > 0 ? ttlInSeconds : WINDOW_MS / 1000);

    /** The seconds to wait when `cost` units do not fit the request's budget; a batch that does not fit costs nothing. */
    const charge = async (request: FastifyRequest, cost: number): Promise<number | null> => {
      const before = await budget(request, { increment: false });
      if (before.isAllowed) return null;
      if (before.remaining < cost) return waitOf(before.ttlInSeconds);
      for (let unit = 0; unit < cost; unit++) {
        const after = await budget(request);
        if (!after.isAllowed && after.isExceeded) return waitOf(after.ttlInSeconds);
      }
      return null;
    };
    /** A token this replica checked good lately: no refusal limit stands in its way. */
    const knownGood = (request: FastifyRequest, secret: string | null): boolean =>
      secret !== null &&
      (tokens.isKnown(secret) || (request.routeOptions.config.oauth === true && oauth.isKnown(secret)));
    const tooMany = (request: FastifyRequest, reply: FastifyReply, wait: number, error: string): FastifyReply =>
      reply
        .code(429)
        .header('retry-after', String(wait))
        .send(
          request.routeOptions.config.jsonRpc === true ? jsonRpcError(-32000, error, { retryAfter: wait }) : { error },
        );

    app.decorate('meter', {
      async admit(request: FastifyRequest, reply: FastifyReply, cost = 1) {
        const wait = await charge(request, cost);
        if (wait !== null)
          return tooMany(request, reply, wait, `Too many requests with this token; try again in ${wait} s`);
        const header = request.headers.authorization;
        if (header !== undefined && !knownGood(request, bearerToken(header))) {
          const now = await refusals(request, { increment: false });
          if (!now.isAllowed && now.remaining <= 0) {
            const wait = waitOf(now.ttlInSeconds);
            return tooMany(request, reply, wait, `Too many refused tokens from this address; try again in ${wait} s`);
          }
        }
        const outcome = await request.reader;
        if (outcome.kind === 'unavailable') return reply.refuse(outcome);
        if (outcome.kind === 'refused' && outcome.via !== 'session') {
          await refusals(request);
          return reply.refuse(outcome);
        }
        return undefined;
      },
    } satisfies AgentMeter);
  },
  { name: 'agent-meter', dependencies: ['config', 'rate-limit', 'tokens', 'oauth', 'reader', 'refusals'] },
);
