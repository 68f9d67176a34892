import type { Database } from './database.js';

/** What the audit trail records. */
export type AuditKind =
  | 'session.started'
  | 'session.refused'
  | 'session.logout'
  | 'session.ended'
  | 'page.view'
  | 'admin.invite'
  | 'admin.groups'
  | 'admin.disable'
  | 'admin.enable'
  | 'admin.remove'
  | 'admin.withdraw-invitation'
  | 'invitation.accepted'
  | 'token.created'
  | 'token.revoked'
  | 'token.used';

export const AUDIT_KINDS: readonly AuditKind[] = [
  'session.started',
  'session.refused',
  'session.logout',
  'session.ended',
  'page.view',
  'admin.invite',
  'admin.groups',
  'admin.disable',
  'admin.enable',
  'admin.remove',
  'admin.withdraw-invitation',
  'invitation.accepted',
  'token.created',
  'token.revoked',
  'token.used',
];

/** One event, as the gate reports it. Never a cookie or a token. */
export interface AuditEvent {
  kind: AuditKind;
  at?: Date;
  actorUid?: string | null;
  actorEmail?: string | null;
  subjectUid?: string | null;
  subjectEmail?: string | null;
  path?: string | null;
  groups?: readonly string[];
  detail?: Record<string, unknown>;
  clientIp?: string | null;
  demo?: boolean;
}

export interface AuditRow {
  id: string;
  at: string;
  kind: AuditKind;
  actorUid: string | null;
  actorEmail: string | null;
  subjectUid: string | null;
  subjectEmail: string | null;
  path: string | null;
  groups: string[];
  detail: Record<string, unknown>;
  clientIp: string | null;
  demo: boolean;
}

export interface AuditFilter {
  kinds?: readonly AuditKind[];
  /** Events by or about this reader (e-mail or uid). */
  reader?: string;
  from?: Date;
  to?: Date;
  /** Older than this event id (paging backwards in time). */
  before?: string;
  limit?: number;
}

const COLUMNS = [
  'at',
  'kind',
  'actor_uid',
  'actor_email',
  'subject_uid',
  'subject_email',
  'path',
  'groups',
  'detail',
  'client_ip',
  'demo',
] as const;

/** A text[] value as PostgreSQL writes it: each element quoted, quotes and backslashes escaped (pglite-worker.mjs writes the same for COPY). */
function arrayLiteral(values: readonly string[]): string {
  return `{${values.map((value) => `"${value.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** An event's values, in the order of COLUMNS. */
function values(event: AuditEvent, now: Date): unknown[] {
  return [
    event.at ?? now,
    event.kind,
    event.actorUid ?? null,
    event.actorEmail ?? null,
    event.subjectUid ?? null,
    event.subjectEmail ?? null,
    event.path ?? null,
    event.groups ?? [],
    event.detail ?? {},
    event.clientIp ?? null,
    event.demo ?? false,
  ];
}

/**
 * Writes a batch of events in one statement. On PGlite, one COPY, the rows formatted in the
 * database's thread (a row costs PGlite some seven microseconds, against twelve for INSERT,
 * and the request thread only hands the values over); on a PostgreSQL server, an INSERT of a
 * column of values per field unnested into rows, so the statement has eleven parameters
 * however long the batch.
 */
export async function insertAuditEvents(
  db: Pick<Database, 'query' | 'copy'>,
  events: readonly AuditEvent[],
): Promise<void> {
  if (events.length === 0) return;
  const now = new Date();
  if (db.copy) {
    await db.copy(
      'audit_events',
      COLUMNS,
      events.map((event) => values(event, now)),
    );
    return;
  }
  const columns: unknown[][] = COLUMNS.map(() => new Array<unknown>(events.length));
  events.forEach((event, row) =>
    values(event, now).forEach((value, column) => {
      (columns[column] as unknown[])[row] =
        value instanceof Date
          ? value.toISOString()
          : Array.isArray(value)
            ? arrayLiteral(value as string[])
            : typeof value === 'object' && value !== null
              ? JSON.stringify(value)
              : value;
    }),
  );
  await db.query(
    `insert into audit_events (${COLUMNS.join(', ')})
     select at, kind, actor_uid, actor_email, subject_uid, subject_email, path, groups::text[], detail::jsonb, client_ip, demo
     from unnest($1::timestamptz[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::boolean[])
       as batch(at, kind, actor_uid, actor_email, subject_uid, subject_email, path, groups, detail, client_ip, demo)`,
    columns,
  );
}

interface RawRow {
  id: string | number;
  at: Date | string;
  kind: AuditKind;
  actor_uid: string | null;
  actor_email: string | null;
  subject_uid: string | null;
  subject_email: string | null;
  path: string | null;
  groups: string[];
  detail: Record<string, unknown> | string;
  client_ip: string | null;
  demo: boolean;
}

function toRow(raw: RawRow): AuditRow {
  return {
    id: String(raw.id),
    at: new Date(raw.at).toISOString(),
    kind: raw.kind,
    actorUid: raw.actor_uid,
    actorEmail: raw.actor_email,
    subjectUid: raw.subject_uid,
    subjectEmail: raw.subject_email,
    path: raw.path,
    groups: raw.groups,
    detail: typeof raw.detail === 'string' ? (JSON.parse(raw.detail) as Record<string, unknown>) : raw.detail,
    clientIp: raw.client_ip,
    demo: raw.demo,
  };
}

/** The trail, newest first, filtered; page with `before` (the last row's id). */
export async function queryAudit(db: Database, filter: AuditFilter): Promise<AuditRow[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  if (filter.kinds && filter.kinds.length > 0) where.push(`kind = any(${param([...filter.kinds])}::text[])`);
  if (filter.reader) {
    const reader = param(filter.reader.toLowerCase());
    where.push(
      `(lower(actor_email) = ${reader} or lower(subject_email) = ${reader} or actor_uid = ${reader} or subject_uid = ${reader})`,
    );
  }
  if (filter.from) where.push(`at >= ${param(filter.from.toISOString())}::timestamptz`);
  if (filter.to) where.push(`at < ${param(filter.to.toISOString())}::timestamptz`);
  if (filter.before) where.push(`id < ${param(filter.before)}::bigint`);
  const limit = Math.min(Math.max(filter.limit ?? 100, 1), 100_000);
  const rows = await db.query<RawRow>(
    `select * from audit_events ${where.length > 0 ? `where ${where.join(' and ')}` : ''} order by id desc limit ${limit}`,
    params,
  );
  return rows.map(toRow);
}

/** Deletes what is older than the retention; returns how many rows went. */
export async function deleteOlderThan(db: Database, cutoff: Date): Promise<{ audit: number; searches: number }> {
  const at = cutoff.toISOString();
  const audit = await db.query<{ n: number }>(
    'with gone as (delete from audit_events where at < $1::timestamptz returning 1) select count(*)::int as n from gone',
    [at],
  );
  const searches = await db.query<{ n: number }>(
    'with gone as (delete from search_events where at < $1::timestamptz returning 1) select count(*)::int as n from gone',
    [at],
  );
  return { audit: audit[0]?.n ?? 0, searches: searches[0]?.n ?? 0 };
}
