import { createHash } from 'node:crypto';

import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { bearerToken, type ReaderOutcome } from '../auth/reader.js';
import type { TokenService } from '../auth/tokens.js';
import type { AuditEvent } from '../db/audit.js';
import { BEARER_CHALLENGE } from './guards.js';
import { settleOutcome, type SessionCookies } from './reader.js';

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

/**
 * The reader of a request to an agent surface: its personal access token (the route takes
 * one), else its session. Refusals are answered here (null: the caller stops): past its
 * refused credentials, a client's token that is not known good gets 429 before it costs a
 * look-up; a refused token 401 with the Bearer challenge, counted against the address; no
 * answer from the identity service or the token store 503. A refused session is signed out.
 */
export async function agentReader(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: {
    meter: AgentMeter;
    tokens: Pick<TokenService, 'isKnown'>;
    /** OAuth access tokens checked lately (on /mcp): like a known personal token, no refusal limit. */
    oauthKnown?: (secret: string) => boolean;
    cookies: SessionCookies;
    audit(request: FastifyRequest, event: AuditEvent): void;
  },
  /** What a refused credential is told (/mcp names its protected-resource metadata). */
  challenge: string = BEARER_CHALLENGE,
): Promise<Exclude<ReaderOutcome, { kind: 'unavailable' } | { kind: 'refused'; via: 'token' | 'oauth' }> | null> {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const secret = bearerToken(header);
    if (secret === null || !(ctx.tokens.isKnown(secret) || ctx.oauthKnown?.(secret) === true)) {
      const wait = await ctx.meter.refusalWait(request);
      if (wait !== null) {
        void reply
          .code(429)
          .header('retry-after', String(wait))
          .send({ error: `Too many refused tokens from this address; try again in ${wait} s` });
        return null;
      }
    }
  }
  const outcome = await request.reader;
  settleOutcome(outcome, request, reply, ctx);
  if (outcome.kind === 'unavailable') {
    void reply.code(503).send({
      error:
        outcome.via === 'session'
          ? 'The sign-in service is not answering'
          : 'Tokens cannot be checked right now; try again shortly',
    });
    return null;
  }
  if (outcome.kind === 'refused' && outcome.via !== 'session') {
    await ctx.meter.countRefusal(request);
    void reply
      .code(401)
      .header('www-authenticate', `${challenge}, error="invalid_token"`)
      .send({ error: 'The token is not valid (unknown, expired or revoked)' });
    return null;
  }
  return outcome;
}
