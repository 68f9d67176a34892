import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

import { loginUrlFor, mayRead, REQUEST_ACCESS } from '@portal/access';

import { AUTH_ERROR_MESSAGES } from '../../auth/errors.js';
import { DOCS_SCOPE, resourceMetadataUrl } from '../../auth/oauth.js';
import type { ReaderOutcome } from '../../auth/reader.js';
import { noAccessPage, unavailablePage } from '../../pages.js';

/** How a surface shows a refusal: a page (HTML for people), a file of the site (no body), or an API (JSON). */
export type Surface = 'page' | 'file' | 'api';

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Answers a request its reader may not have: the one answer of each outcome (anonymous, a
     * credential refused, a reader without access, no answer from the identity service), on
     * the surface's terms. A reader outcome is refused as having no access.
     */
    refuse(outcome: ReaderOutcome, surface?: Surface): FastifyReply;
  }
}

/** The words of each refusal, the same on every surface. */
export const REFUSALS = {
  /** Nobody signed in, or a session signed out (disabled, deleted, revoked, expired, left without a group). */
  anonymous: 'Not signed in',
  /** Malformed, unknown, expired or revoked, or its reader's account refused: the same words, so it tells not which. */
  token: 'The token is not valid (unknown, expired or revoked)',
  scope:
    'This token is of the other scope: read tokens are for the agent surfaces, admin tokens for the administration API',
  /** Signed in, outside the units of what was asked (a page's refusal page says it in its heading). */
  'no-access': 'You do not have access to this',
  unavailable: AUTH_ERROR_MESSAGES.unavailable,
} as const;
export type Refusal = keyof typeof REFUSALS;

const STATUS: Readonly<Record<Refusal, 401 | 403 | 503>> = {
  anonymous: 401,
  token: 401,
  scope: 403,
  'no-access': 403,
  unavailable: 503,
};

/** The refusal of an outcome: a refused session reads as nobody, for it has just been signed out. */
export function refusalOf(outcome: ReaderOutcome): Refusal {
  if (outcome.kind === 'reader') return 'no-access';
  if (outcome.kind === 'anonymous' || outcome.kind === 'unavailable') return outcome.kind;
  if (outcome.via === 'session') return 'anonymous';
  return outcome.reason === 'scope' ? 'scope' : 'token';
}

/** The realm a refused bearer is told of. */
const REALM = 'Bearer realm="norigin-developer-docs"';
/** Seconds a client waits before it asks again while the identity service does not answer. */
const RETRY_SECONDS = '5';
/** The site's page for a signed-in reader refused a page (site/src/pages/account/refused.tsx). */
const REFUSAL_PAGE = '/account/refused';

/** The refusals of every surface (`reply.refuse`), written once. */
export default fp(
  async (app) => {
    const { site } = app;

    /** RFC 6750's challenge where tokens count; /mcp's names its protected-resource metadata (RFC 9728). */
    const challenge = (reply: FastifyReply, refusal: Refusal): string => {
      const { oauth } = reply.request.routeOptions.config;
      const where =
        oauth === true
          ? `, resource_metadata="${resourceMetadataUrl(app.originOf(reply.request))}", scope="${DOCS_SCOPE}"`
          : '';
      return `${REALM}${where}${refusal === 'token' ? ', error="invalid_token"' : ''}`;
    };

    /** A page refused: sent to sign in, told they have no access (never a loop), or told to try again. */
    const refusePage = (reply: FastifyReply, outcome: ReaderOutcome, refusal: Refusal): FastifyReply => {
      const url = reply.request.url;
      if (refusal === 'unavailable') return reply.code(503).type('text/html; charset=utf-8').send(unavailablePage(url));
      if (outcome.kind !== 'reader') return reply.redirect(loginUrlFor(url), 302);
      // The site's own refusal page (its unit, why, and asking for it), at the asked address;
      // the gate's plain one for a build without it.
      const page = site.lookup(REFUSAL_PAGE);
      if (page?.kind === 'page' && mayRead(outcome.reader.units, page.units)) return reply.serveFile(page, 403);
      return reply
        .code(403)
        .type('text/html; charset=utf-8')
        .send(noAccessPage({ path: url, email: outcome.reader.email, contact: REQUEST_ACCESS }));
    };

    app.decorateReply('refuse', function (this: FastifyReply, outcome: ReaderOutcome, surface: Surface = 'api') {
      const refusal = refusalOf(outcome);
      const takesTokens = this.request.routeOptions.config.token !== undefined;
      void this.header('cache-control', 'no-store').header('vary', takesTokens ? 'Cookie, Authorization' : 'Cookie');
      if (refusal === 'unavailable') void this.header('retry-after', RETRY_SECONDS);
      if (outcome.kind === 'reader')
        this.request.log.info({ uid: outcome.reader.uid, groups: outcome.reader.groups }, 'refused: no access');
      if (surface === 'page') return refusePage(this, outcome, refusal);
      const status = STATUS[refusal];
      if (status === 401 && takesTokens) void this.header('www-authenticate', challenge(this, refusal));
      return surface === 'file' ? this.code(status).send() : this.code(status).send({ error: REFUSALS[refusal] });
    });
  },
  { name: 'refusals', dependencies: ['site', 'origin'] },
);
