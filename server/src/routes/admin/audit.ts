import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { AuditPage, AuditQuery, ErrorAnswer, type AuditRow } from '@portal/contract';
import Type from 'typebox';

import { AUDIT_KINDS, cursorOf, queryAudit, type AuditFilter, type AuditKind } from '../../db/audit.js';
import { countOf, Refused } from '../../refused.js';
import { spreadsheetCsv } from '../../spreadsheet-csv.js';

const isKind = (kind: string): kind is AuditKind => (AUDIT_KINDS as readonly string[]).includes(kind);

function auditFilter(query: AuditQuery): AuditFilter {
  const kinds = query.kind
    ?.split(',')
    .map((kind) => kind.trim())
    .filter(Boolean);
  const unknown = kinds?.find((kind) => !isKind(kind));
  if (unknown !== undefined) throw new Refused(400, `"${unknown}" is not a kind of event (${AUDIT_KINDS.join(', ')})`);
  return {
    kinds: kinds?.filter(isKind),
    reader: query.reader,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
    before: query.before,
    limit: countOf(query.limit, 500),
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

/** The audit trail for administrators: a page at a time, filtered, or everything the filter matches as a download. */
const audit: FastifyPluginAsyncTypebox = async (app) => {
  const { store, guards } = app;
  // 200 is a page of the trail, or (with `format`) a download: CSV, or JSON already written out.
  const download = Type.String({ description: 'Every event the filter matches' });
  const trail = {
    description: 'A page of the trail, or a download of it',
    content: { 'application/json': { schema: Type.Union([AuditPage, download]) }, 'text/csv': { schema: download } },
  };
  app.get(
    '/audit',
    {
      preHandler: guards.requireDatabase,
      schema: { querystring: AuditQuery, response: { 200: trail, 400: ErrorAnswer, 503: ErrorAnswer } },
    },
    async (request, reply) => {
      // Events are written off the request path in batches; the trail shows every event
      // recorded before it was asked for (an administrator who just disabled a reader sees it).
      await store.flush();
      const { query } = request;
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
      return { events, next: events.length === limit && last ? cursorOf(last) : null, kinds: [...AUDIT_KINDS] };
    },
  );
};
export default audit;
