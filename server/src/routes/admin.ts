import { stringify } from 'csv-stringify/sync';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

import { canRead, policy } from '@portal/access';

import type { Reader } from '../auth/identity.js';
import { ReaderError, type ReaderAccount } from '../auth/readers.js';
import { openInvitations, saveInvitation, withdrawInvitation } from '../db/activity.js';
import {
  AUDIT_KINDS,
  CURSOR_PATTERN,
  cursorOf,
  queryAudit,
  type AuditFilter,
  type AuditKind,
  type AuditRow,
} from '../db/audit.js';
import { insights } from '../db/insights.js';
import { adminTokenRoutes } from './agents.js';
import type { GateContext } from './context.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The administrator making an admin API call, set by the admin guard. */
    admin?: Reader;
  }
}

/** The page the admin API belongs to: whoever may read it may call the API (one decision, the policy's). */
export const ADMIN_PATH = '/admin';

const groupName = { type: 'string', enum: [...policy.groupNames] } as const;
const groupList = { type: 'array', items: groupName, maxItems: 16, uniqueItems: true } as const;
const email = { type: 'string', minLength: 3, maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' } as const;
const uidParams = {
  type: 'object',
  required: ['uid'],
  additionalProperties: false,
  properties: { uid: { type: 'string', minLength: 1, maxLength: 128 } },
} as const;
const error = { type: 'object', properties: { error: { type: 'string' } } } as const;
/** A whole number in a query string (bodies are taken as sent; query strings are text). */
const count = (max: number) => ({ type: 'string', pattern: `^[1-9][0-9]{0,${String(max).length - 1}}$` }) as const;
const toCount = (value: string | undefined, max: number): number | undefined => {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (number > max) throw new BadRequest(`${value} is more than ${max}`);
  return number;
};

const auditQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    kind: { type: 'string', maxLength: 1000 },
    reader: { type: 'string', maxLength: 254 },
    from: { type: 'string', format: 'date-time' },
    to: { type: 'string', format: 'date-time' },
    // The `next` of the page before.
    before: { type: 'string', pattern: CURSOR_PATTERN },
    limit: count(500),
    format: { type: 'string', enum: ['csv', 'json'] },
  },
} as const;

interface AuditQuery {
  kind?: string;
  reader?: string;
  from?: string;
  to?: string;
  before?: string;
  limit?: string;
  format?: 'csv' | 'json';
}

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
  return stringify(
    rows.map((row) =>
      CSV_COLUMNS.map((column) => {
        const value = row[column];
        if (Array.isArray(value)) return value.join(' ');
        if (typeof value === 'object' && value !== null) return JSON.stringify(value);
        return value ?? '';
      }),
    ),
    { header: true, columns: [...CSV_COLUMNS] },
  );
}

/** Lets administrators through (`request.admin`); anonymous 401, anyone else 403, cross-site writes 403. */
export function adminGuard(ctx: GateContext): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  return async (request, reply) => {
    void reply.header('cache-control', 'no-store').header('vary', 'Cookie');
    // A cross-site write learns nothing, not even whether the caller is signed in.
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      await ctx.requireSameOrigin(request, reply);
      if (reply.sent) return;
    }
    const reader = await ctx.readerOf(request, reply);
    if (reader === 'unavailable') return void reply.code(503).send({ error: 'The sign-in service is not answering' });
    if (reader === 'anonymous') return void reply.code(401).send({ error: 'Sign in as an administrator' });
    if (!canRead(reader.groups, ADMIN_PATH)) return void reply.code(403).send({ error: 'Administrators only' });
    request.admin = reader;
  };
}

/**
 * The administration API, `/api/admin/…`, for readers who may read `/admin` (the policy's
 * administration section: the `admin` group), checked on every call: anonymous 401,
 * anyone else 403. Writes come from this site only (Origin), every body and query has a
 * schema, calls are rate-limited per administrator, and every change goes into the audit
 * trail with who did what to whom, before and after.
 */
export async function adminRoutes(app: FastifyInstance, ctx: GateContext): Promise<void> {
  const { directory, readerIndex, store, identity } = ctx;

  app.addHook('onRequest', adminGuard(ctx));

  const limited = {
    rateLimit: {
      max: ctx.config.adminRateLimitPerMinute,
      timeWindow: 60_000,
      // After the guard: one budget per administrator, wherever they call from.
      hook: 'preHandler' as const,
      keyGenerator: (request: FastifyRequest) => `admin:${request.admin?.uid ?? request.ip}`,
    },
  };

  const actor = (request: FastifyRequest): { actorUid: string; actorEmail: string; groups: readonly string[] } => {
    const admin = request.admin as Reader;
    return { actorUid: admin.uid, actorEmail: admin.email, groups: admin.groups };
  };
  const summary = (account: ReaderAccount): Record<string, unknown> => ({
    groups: account.groups,
    claimedGroups: account.claimedGroups,
    disabled: account.disabled,
  });
  /** The reader's sessions on this server end at their next request; other servers follow within the cache TTL. */
  const changed = (account: ReaderAccount): void => {
    readerIndex.update(account);
    void identity.forgetReader(account.uid);
  };
  const needsDatabase = (reply: FastifyReply): boolean => {
    if (store.readyNow) return false;
    void reply.code(503).send({ error: 'The database is not reachable; try again shortly' });
    return true;
  };

  app.setErrorHandler((caught: Error & { statusCode?: number; validation?: unknown }, request, reply) => {
    if (caught instanceof ReaderError) {
      const status = caught.code === 'unknown-reader' ? 404 : caught.code === 'exists' ? 409 : 400;
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
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            q: { type: 'string', maxLength: 254 },
            group: groupName,
            status: { type: 'string', enum: ['active', 'disabled', 'no-access'] },
            sort: { type: 'string', enum: ['email', 'created', 'last-sign-in'] },
            page: count(100_000),
            limit: count(200),
          },
        },
        response: { 400: error },
      },
    },
    async (request) => {
      const { page, limit, ...query } = request.query as Record<string, string | undefined>;
      const result = await readerIndex.query({
        ...(query as Omit<Parameters<typeof readerIndex.query>[0], 'page' | 'limit'>),
        page: toCount(page, 100_000),
        limit: toCount(limit, 200),
      });
      const invitations = store.readyNow ? await openInvitations(store.db) : [];
      return { ...result, invitations, groups: policy.groups };
    },
  );

  app.post(
    '/invitations',
    {
      config: limited,
      schema: {
        body: {
          type: 'object',
          required: ['email', 'groups', 'method'],
          additionalProperties: false,
          properties: {
            email,
            groups: { ...groupList, minItems: 1 },
            // password: the account is made now and the reader sets a password from a link;
            // provider: the reader signs in with GitHub (or another provider) with this e-mail
            // and gets the groups then.
            method: { type: 'string', enum: ['password', 'provider'] },
          },
        },
      },
    },
    async (request, reply) => {
      const body = request.body as { email: string; groups: string[]; method: 'password' | 'provider' };
      const address = body.email.trim().toLowerCase();
      if (body.method === 'provider') {
        if (needsDatabase(reply)) return reply;
        await saveInvitation(store.db, { email: address, groups: body.groups, invitedBy: actor(request).actorEmail });
        ctx.audit(request, {
          kind: 'admin.invite',
          ...actor(request),
          subjectEmail: address,
          detail: { method: 'provider', after: { groups: body.groups } },
        });
        return reply.code(201).send({ invitation: { email: address, groups: body.groups } });
      }
      const { account, passwordLink } = await directory.invite(address, body.groups);
      readerIndex.update(account);
      ctx.audit(request, {
        kind: 'admin.invite',
        ...actor(request),
        subjectUid: account.uid,
        subjectEmail: address,
        detail: { method: 'password', after: summary(account) },
      });
      return reply.code(201).send({ account, passwordLink });
    },
  );

  app.delete(
    '/invitations/:email',
    {
      config: limited,
      schema: {
        params: { type: 'object', required: ['email'], additionalProperties: false, properties: { email } },
      },
    },
    async (request, reply) => {
      if (needsDatabase(reply)) return reply;
      const { email: address } = request.params as { email: string };
      if (!(await withdrawInvitation(store.db, address)))
        return reply.code(404).send({ error: `No open invitation for ${address}` });
      ctx.audit(request, { kind: 'admin.withdraw-invitation', ...actor(request), subjectEmail: address.toLowerCase() });
      return reply.code(204).send();
    },
  );

  app.put(
    '/readers/:uid/groups',
    {
      config: limited,
      schema: {
        params: uidParams,
        body: {
          type: 'object',
          required: ['groups'],
          additionalProperties: false,
          properties: { groups: groupList },
        },
      },
    },
    async (request) => {
      const { uid } = request.params as { uid: string };
      const { before, after } = await directory.setGroups(uid, (request.body as { groups: string[] }).groups);
      changed(after);
      ctx.audit(request, {
        kind: 'admin.groups',
        ...actor(request),
        subjectUid: uid,
        subjectEmail: after.email,
        detail: { before: summary(before), after: summary(after) },
      });
      return { before, after };
    },
  );

  for (const action of ['disable', 'enable'] as const) {
    app.post(`/readers/:uid/${action}`, { config: limited, schema: { params: uidParams } }, async (request) => {
      const { uid } = request.params as { uid: string };
      const { before, after } = await directory.setDisabled(uid, action === 'disable');
      changed(after);
      ctx.audit(request, {
        kind: action === 'disable' ? 'admin.disable' : 'admin.enable',
        ...actor(request),
        subjectUid: uid,
        subjectEmail: after.email,
        detail: { before: summary(before), after: summary(after) },
      });
      return { before, after };
    });
  }

  app.delete('/readers/:uid', { config: limited, schema: { params: uidParams } }, async (request, reply) => {
    const { uid } = request.params as { uid: string };
    if (uid === request.admin?.uid) return reply.code(400).send({ error: 'You cannot remove your own account' });
    const before = await directory.remove(uid);
    readerIndex.delete(uid);
    void identity.forgetReader(uid);
    if (before.email && store.readyNow) await withdrawInvitation(store.db, before.email);
    ctx.audit(request, {
      kind: 'admin.remove',
      ...actor(request),
      subjectUid: uid,
      subjectEmail: before.email,
      detail: { before: summary(before) },
    });
    return reply.code(204).send();
  });

  app.get('/audit', { config: limited, schema: { querystring: auditQuery } }, async (request, reply) => {
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

  await adminTokenRoutes(app, ctx);

  app.get(
    '/insights',
    {
      config: limited,
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: { group: groupName, days: count(3650) },
        },
      },
    },
    async (request, reply) => {
      if (needsDatabase(reply)) return reply;
      const { group, days: daysText } = request.query as { group?: string; days?: string };
      const days = toCount(daysText, 3650) ?? 30;
      const to = new Date();
      const from = new Date(to.getTime() - days * 24 * 60 * 60 * 1000);
      const pages = ctx.site.pages
        .filter((page) => page.access === 'private' && (group === undefined || page.groups.includes(group)))
        .filter((page) => !page.url.startsWith(ADMIN_PATH))
        .map((page) => page.url);
      return { ...(await insights(store.db, { group, from, to, pages })), groups: policy.groups };
    },
  );
}
