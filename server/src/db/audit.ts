import type { AuditRow } from '@portal/contract';

import type { Database } from './database.js';
import { deletePageViewsBefore, queryPageViews, type StoredPageView } from './page-views.js';

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
  | 'admin.organisation'
  | 'admin.licence'
  | 'admin.access-group'
  | 'admin.membership'
  | 'admin.grant'
  | 'admin.access-request'
  | 'access.requested'
  | 'admin.import'
  | 'admin.site-release'
  | 'invitation.accepted'
  | 'token.created'
  | 'token.revoked'
  | 'token.used'
  | 'oauth.authorised'
  | 'oauth.revoked'
  | 'feed-token.created'
  | 'feed-token.revoked'
  | 'whats-new.settings'
  | 'reading.cleared'
  | 'digest.unsubscribed'
  | 'admin.organisation-sign-in'
  | 'admin.scim-token'
  | 'scim.user'
  | 'scim.group';

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
  'admin.organisation',
  'admin.licence',
  'admin.access-group',
  'admin.membership',
  'admin.grant',
  'admin.access-request',
  'access.requested',
  'admin.import',
  'admin.site-release',
  'invitation.accepted',
  'token.created',
  'token.revoked',
  'token.used',
  'oauth.authorised',
  'oauth.revoked',
  'feed-token.created',
  'feed-token.revoked',
  'whats-new.settings',
  'reading.cleared',
  'digest.unsubscribed',
  'admin.organisation-sign-in',
  'admin.scim-token',
  'scim.user',
  'scim.group',
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

/** An event of the trail as the admin API answers it (the contract's). */
export type { AuditRow };

export interface AuditFilter {
  kinds?: readonly AuditKind[];
  /** Events by or about this reader (e-mail or uid). */
  reader?: string;
  from?: Date;
  to?: Date;
  /** After this row in the trail's order (paging backwards in time): the last row's `cursorOf`. */
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

/**
 * Where the trail goes on from: the last row's time (milliseconds) and id. Rows of
 * audit_events have a number for id; page views (page-views.ts) `v` and the view row's id.
 */
export function cursorOf(row: Pick<AuditRow, 'at' | 'id'>): string {
  return `${Date.parse(row.at)}.${row.id}`;
}

interface Cursor {
  at: number;
  event: bigint | null;
  view: bigint | null;
}

function parseCursor(text: string): Cursor {
  const match = /^(\d{1,15})\.(v?)(\d{1,19})$/.exec(text);
  if (!match) throw new RangeError(`"${text}" is not a place in the trail`);
  const [, at, isView, id] = match;
  return {
    at: Number(at),
    event: isView ? null : BigInt(id as string),
    view: isView ? BigInt(id as string) : null,
  };
}

/** A row of page views in the trail: at its first view, with how many views and the last one's time. */
function viewRow(view: StoredPageView): AuditRow {
  return {
    id: `v${view.id}`,
    at: new Date(view.firstAt).toISOString(),
    kind: 'page.view',
    actorUid: view.uid,
    actorEmail: view.email,
    subjectUid: null,
    subjectEmail: null,
    path: view.path,
    groups: view.groups,
    detail: {
      views: view.count,
      lastAt: new Date(view.lastAt).toISOString(),
      ...(view.via === 'page' ? {} : { via: view.via }),
    },
    clientIp: view.clientIp === '' ? null : view.clientIp,
    demo: view.demo,
  };
}

/**
 * The trail, newest first (time, then page views before the other events of the same
 * millisecond, then id), filtered; page with `before` (the last row's `cursorOf`). Events are
 * rows of audit_events, written with millisecond times; page views are counted per reader,
 * page and hour (page-views.ts), a row each; the two are read side by side and merged.
 */
export async function queryAudit(db: Database, filter: AuditFilter): Promise<AuditRow[]> {
  const limit = Math.min(Math.max(filter.limit ?? 100, 1), 100_000);
  const cursor = filter.before === undefined ? null : parseCursor(filter.before);
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown): string => `$${params.push(value)}`;
  if (filter.kinds && filter.kinds.length > 0) where.push(`kind = any(${param([...filter.kinds])}::text[])`);
  if (filter.reader) {
    const email = param(filter.reader.toLowerCase());
    const uid = param(filter.reader);
    where.push(
      `(lower(actor_email) = ${email} or lower(subject_email) = ${email} or actor_uid = ${uid} or subject_uid = ${uid})`,
    );
  }
  if (filter.from) where.push(`at >= ${param(filter.from.toISOString())}::timestamptz`);
  if (filter.to) where.push(`at < ${param(filter.to.toISOString())}::timestamptz`);
  if (cursor) {
    const millisecond = param(new Date(cursor.at).toISOString());
    const next = param(new Date(cursor.at + 1).toISOString());
    // After a view: every event of its millisecond; after an event: those of smaller id.
    where.push(
      `(at < ${millisecond}::timestamptz or (at < ${next}::timestamptz and ${
        cursor.event === null ? 'true' : `id < ${param(String(cursor.event))}::bigint`
      }))`,
    );
  }
  const wantViews = !filter.kinds || filter.kinds.length === 0 || filter.kinds.includes('page.view');
  const [events, views] = await Promise.all([
    db.query<RawRow>(
      `select * from audit_events ${where.length > 0 ? `where ${where.join(' and ')}` : ''} order by at desc, id desc limit ${limit}`,
      params,
    ),
    wantViews
      ? queryPageViews(db, {
          reader: filter.reader || undefined,
          from: filter.from,
          to: filter.to,
          after: cursor ? { at: cursor.at, view: cursor.view } : undefined,
          limit,
        })
      : Promise.resolve([]),
  ]);
  // Both lists are in the trail's order: merged, the first `limit`.
  const rows: AuditRow[] = [];
  let e = 0;
  let v = 0;
  while (rows.length < limit && (e < events.length || v < views.length)) {
    const event = events[e];
    const view = views[v];
    if (view && (!event || view.firstAt >= new Date(event.at).getTime())) {
      rows.push(viewRow(view));
      v++;
    } else if (event) {
      rows.push(toRow(event));
      e++;
    }
  }
  return rows;
}

/** Deletes what is older than the retention; returns how many rows went. */
export async function deleteOlderThan(db: Database, cutoff: Date): Promise<{ audit: number; searches: number }> {
  const at = cutoff.toISOString();
  const audit = await db.query<{ n: number }>(
    'with gone as (delete from audit_events where at < $1::timestamptz returning 1) select count(*)::int as n from gone',
    [at],
  );
  const views = await deletePageViewsBefore(db, cutoff);
  const searches = await db.query<{ n: number }>(
    'with gone as (delete from search_events where at < $1::timestamptz returning 1) select count(*)::int as n from gone',
    [at],
  );
  return { audit: (audit[0]?.n ?? 0) + views, searches: searches[0]?.n ?? 0 };
}
