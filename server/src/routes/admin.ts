import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { policy, unitsOfGroups } from '@portal/access';
import {
  AuditPage,
  AuditQuery,
  EmailParams,
  ErrorAnswer,
  GroupsBody,
  InsightsAnswer,
  InsightsQuery,
  InvitationAnswer,
  InvitationBody,
  NoContent,
  ReaderChange,
  ReaderPage,
  ReadersQuery,
  UidParams,
} from '@portal/contract';

import type { Reader } from '../auth/identity.js';
import { ReaderDirectory, ReaderError } from '../auth/readers.js';
import { openInvitations } from '../db/activity.js';
import { AUDIT_KINDS, cursorOf, queryAudit, type AuditFilter, type AuditKind, type AuditRow } from '../db/audit.js';
import { insights } from '../db/insights.js';
import { ADMIN_PATH } from '../plugins/guards.js';
import { administers, ReaderService, type Actor } from '../readers-service.js';
import { spreadsheetCsv } from '../spreadsheet-csv.js';
import type { Mail } from '../mail.js';
import type { GateContext } from './context.js';

const toCount = (value: string | undefined, max: number): number | undefined => {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (number > max) throw new BadRequest(`${value} is more than ${max}`);
  return number;
};

class BadRequest extends Error {
  readonly statusCode = 400;
}

function auditFilter(query: AuditQuery): AuditFilter {
  const kinds = query.kind
    ?.split(',')
    .map((kind) => kind.trim())
    .filter(Boolean);
  const unknown = kinds?.find((kind) => !AUDIT_KINDS.includes(kind as AuditKind));
  if (unknown !== undefined) throw new BadRequest(`"${unknown}" is not a kind of event (${AUDIT_KINDS.join(', ')})`);
  return {
    kinds: kinds as AuditKind[] | undefined,
    reader: query.reader,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
    before: query.before,
    limit: toCount(query.limit, 500),
  };
}

const CSV_COLUMNS = [
  'id',
  'at',
  'kind',
  'actorEmail',
  'actorUid',
  'subjectEmail',
  'subjectUid',
  'path',
  'groups',
  'detail',
  'clientIp',
  'demo',
] as const;

function toCsv(rows: readonly AuditRow[]): string {
  return spreadsheetCsv(
    CSV_COLUMNS,
    rows.map((row) =>
      CSV_COLUMNS.map((column) => {
        const value = row[column];
        if (Array.isArray(value)) return value.join(' ');
        if (typeof value === 'object' && value !== null) return JSON.stringify(value);
        return value ?? '';
      }),
    ),
  );
}

/**
 * The administration API, `/api/admin/…`, for readers who may read `/admin` (the policy's
 * administration section: the `admin` group), checked on every call by the guards of its
 * prefix (app.ts): anonymous 401, anyone else 403, writes from this site only. Every body and query has a
 * schema, calls are rate-limited per administrator, and every change goes into the audit
 * trail with who did what to whom, before and after.
 */
/** The route config of every administration call: one budget per administrator and minute (`ADMIN_RATE_LIMIT`). */
/**
 * The invitation a reader gets by mail: with a password invitation, the link that sets their
 * password (it signs them in); with a provider invitation, where to sign in and with which
 * address.
 */
export function invitationMail(email: string, origin: string, passwordLink: string | null): Mail {
  const steps =
    passwordLink === null
      ? `Sign in at ${origin}/login with Google or GitHub, using the account of ${email}.`
      : `Choose your password here (the link works once):\n${passwordLink}\n\nThen sign in at ${origin}/login as ${email}.`;
  return {
    to: email,
    subject: 'Your invitation to the Norigin Developer Docs',
    text: `You are invited to read the Norigin Developer Docs: the guides and API references of Norigin Media's TV front-end packages.\n\n${steps}\n`,
  };
}

export function adminRateLimit(ctx: GateContext) {
  return {
    rateLimit: {
      max: ctx.config.adminRateLimitPerMinute,
      timeWindow: 60_000,
      // After the guard: one budget per administrator, wherever they call from.
      hook: 'preHandler' as const,
      keyGenerator: (request: FastifyRequest) => `admin:${request.signedIn?.uid ?? request.ip}`,
    },
  };
}

export async function adminRoutes(app: FastifyInstance, ctx: GateContext): Promise<void> {
  const { directory, readerIndex, store, identity } = ctx;

  const limited = adminRateLimit(ctx);

  /** The administrator behind a call, their events into the trail with the request's client address. */
  const actor = (request: FastifyRequest): Actor => {
    const admin = request.signedIn as Reader;
    return {
      uid: admin.uid,
      email: admin.email,
      groups: admin.groups,
      record: (event) => ctx.audit(request, event),
    };
  };
  // Every change goes through the audited service (readers-service.ts), as the readers command's do.
  const readers = new ReaderService({
    directory,
    added: (account) => readerIndex.update(account),
    // The reader's sessions on this server end at their next request; other servers follow within the cache TTL.
    changed: (account) => {
      readerIndex.update(account);
      void identity.forgetReader(account.uid);
    },
    removed: (uid) => {
      readerIndex.delete(uid);
      void identity.forgetReader(uid);
    },
    database: () => (store.readyNow ? store.db : null),
  });
  const needsDatabase = (reply: FastifyReply): boolean => {
    if (store.readyNow) return false;
    void reply.code(503).send({ error: 'The database is not reachable; try again shortly' });
    return true;
  };

  app.setErrorHandler((caught: Error & { statusCode?: number; validation?: unknown }, request, reply) => {
    if (caught instanceof ReaderError) {
      const status =
        caught.code === 'unknown-reader' ? 404 : caught.code === 'exists' || caught.code === 'guarded' ? 409 : 400;
      return reply.code(status).send({ error: caught.message });
    }
    const status = caught.statusCode && caught.statusCode >= 400 && caught.statusCode < 500 ? caught.statusCode : 500;
    if (status >= 500) request.log.error({ err: caught }, 'admin call failed');
    return reply
      .code(status)
      .send({ error: status >= 500 ? 'The change could not be made; nothing was changed' : caught.message });
  });

  app.get(
    '/readers',
    {
      config: limited,
      schema: { querystring: ReadersQuery, response: { 200: ReaderPage, 400: ErrorAnswer } },
    },
    async (request) => {
      const { page, limit, ...query } = request.query as ReadersQuery;
      // A group filter names a group of the policy: a typo would find nothing, silently.
      if (query.group !== undefined) ReaderDirectory.checkGroups([query.group]);
      const result = await readerIndex.query({
        ...query,
        page: toCount(page, 100_000),
        limit: toCount(limit, 200),
      });
      const invitations = store.readyNow ? await openInvitations(store.db) : [];
      // What the page needs to say why before anyone clicks: whose account this is, and
      // whether an administrator is the last one (readers-service.ts refuses either way).
      const administrators = await readerIndex.count(administers);
      return { ...result, invitations, groups: policy.groups, self: request.signedIn?.uid ?? null, administrators };
    },
  );

  app.post(
    '/invitations',
    {
      config: limited,
      schema: { body: InvitationBody, response: { 201: InvitationAnswer, 400: ErrorAnswer, 409: ErrorAnswer } },
    },
    async (request, reply) => {
      const body = request.body as InvitationBody;
      const address = body.email.trim().toLowerCase();
      const origin = ctx.config.publicOrigin ?? `${request.protocol}://${request.host}`;
      const mailed = ctx.mailer !== null;
      const inbox = ctx.config.mail?.inboxUrl ? { inboxUrl: ctx.config.mail.inboxUrl } : {};
      if (body.method === 'provider') {
        if (needsDatabase(reply)) return reply;
        await readers.inviteByProvider(actor(request), address, body.groups, store.db);
        ctx.mailer?.send(invitationMail(address, origin, null));
        return reply.code(201).send({ invitation: { email: address, groups: body.groups }, mailed, ...inbox });
      }
      const { account, passwordLink } = await readers.invite(actor(request), address, body.groups);
      ctx.mailer?.send(invitationMail(address, origin, passwordLink));
      return reply.code(201).send({ account, passwordLink, mailed, ...inbox });
    },
  );

  const withdrawal = { params: EmailParams, response: { 204: NoContent, 404: ErrorAnswer, 503: ErrorAnswer } };
  app.delete('/invitations/:email', { config: limited, schema: withdrawal }, async (request, reply) => {
    if (needsDatabase(reply)) return reply;
    const { email: address } = request.params as { email: string };
    if (!(await readers.withdrawInvitation(actor(request), address, store.db)))
      return reply.code(404).send({ error: `No open invitation for ${address}` });
    return reply.code(204).send();
  });

  app.put(
    '/readers/:uid/groups',
    {
      config: limited,
      schema: {
        params: UidParams,
        body: GroupsBody,
        response: { 200: ReaderChange, 400: ErrorAnswer, 404: ErrorAnswer, 409: ErrorAnswer },
      },
    },
    async (request) => {
      const { uid } = request.params as { uid: string };
      return readers.setGroups(actor(request), uid, (request.body as GroupsBody).groups);
    },
  );

  for (const action of ['disable', 'enable'] as const) {
    const schema = { params: UidParams, response: { 200: ReaderChange, 404: ErrorAnswer, 409: ErrorAnswer } };
    app.post(`/readers/:uid/${action}`, { config: limited, schema }, async (request) => {
      const { uid } = request.params as { uid: string };
      return readers.setDisabled(actor(request), uid, action === 'disable');
    });
  }

  // One's own account and the last administrator are refused by the service (409), as at the command line.
  const removal = { params: UidParams, response: { 204: NoContent, 404: ErrorAnswer, 409: ErrorAnswer } };
  app.delete('/readers/:uid', { config: limited, schema: removal }, async (request, reply) => {
    const { uid } = request.params as { uid: string };
    await readers.remove(actor(request), uid);
    return reply.code(204).send();
  });

  // 200 is a page of the trail, or (with `format`) a download as text, which no schema serialises.
  const trail = { querystring: AuditQuery, response: { 200: AuditPage, 400: ErrorAnswer, 503: ErrorAnswer } };
  app.get('/audit', { config: limited, schema: trail }, async (request, reply) => {
    if (needsDatabase(reply)) return reply;
    // Events are written off the request path in batches; the trail shows every event
    // recorded before it was asked for (an administrator who just disabled a reader sees it).
    await store.flush();
    const query = request.query as AuditQuery;
    const filter = auditFilter(query);
    if (query.format !== undefined) {
      // An export: everything the filter matches, up to 100,000 events, as a download.
      const rows = await queryAudit(store.db, { ...filter, limit: 100_000 });
      const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
      void reply.header('content-disposition', `attachment; filename="audit-${stamp}.${query.format}"`);
      if (query.format === 'csv') return reply.type('text/csv; charset=utf-8').send(toCsv(rows));
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(rows, null, 2));
    }
    const limit = filter.limit ?? 100;
    const events = await queryAudit(store.db, { ...filter, limit });
    const last = events.at(-1);
    return { events, next: events.length === limit && last ? cursorOf(last) : null, kinds: AUDIT_KINDS };
  });

  const figures = { querystring: InsightsQuery, response: { 200: InsightsAnswer, 400: ErrorAnswer, 503: ErrorAnswer } };
  app.get('/insights', { config: limited, schema: figures }, async (request, reply) => {
    if (needsDatabase(reply)) return reply;
    const { group, days: daysText } = request.query as InsightsQuery;
    if (group !== undefined) ReaderDirectory.checkGroups([group]);
    const days = toCount(daysText, 3650) ?? 30;
    const to = new Date();
    const from = new Date(to.getTime() - days * 24 * 60 * 60 * 1000);
    // A group's pages: those of the units the group reads.
    const units = group === undefined ? null : unitsOfGroups([group]);
    const pages = ctx.site.pages
      .filter(
        (page) => page.access === 'private' && (units === null || page.units.some((unit) => units.includes(unit))),
      )
      .filter((page) => !page.url.startsWith(ADMIN_PATH))
      .map((page) => page.url);
    return { ...(await insights(store.db, { group, from, to, pages })), groups: policy.groups };
  });
}
