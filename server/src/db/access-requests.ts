import { randomUUID } from 'node:crypto';

import type { Database } from './database.js';

type Query = Pick<Database, 'query'>;

/** A reader's request for a unit they cannot read, and its answer. */
export interface AccessRequest {
  id: string;
  /** Lower case. */
  email: string;
  uid: string;
  unit: string;
  /** The page they asked from. */
  path: string;
  reason: string;
  /** Their organisation when they asked. */
  organisationId: string | null;
  status: 'pending' | 'approved' | 'declined';
  createdAt: Date;
  answeredAt: Date | null;
  answeredBy: string | null;
  grantedTo: 'reader' | 'organisation' | null;
  endsAt: Date | null;
  /** A decline's reason. */
  answer: string | null;
}

interface Row {
  id: string;
  email: string;
  uid: string;
  unit: string;
  path: string;
  reason: string;
  organisation_id: string | null;
  status: AccessRequest['status'];
  created_at: Date;
  answered_at: Date | null;
  answered_by: string | null;
  granted_to: AccessRequest['grantedTo'];
  ends_at: Date | null;
  answer: string | null;
}

const COLUMNS =
  'id, email, uid, unit, path, reason, organisation_id, status, created_at, answered_at, answered_by, granted_to, ends_at, answer';

const date = (value: Date | null): Date | null => (value === null ? null : new Date(value));

const fromRow = (row: Row): AccessRequest => ({
  id: row.id,
  email: row.email,
  uid: row.uid,
  unit: row.unit,
  path: row.path,
  reason: row.reason,
  organisationId: row.organisation_id,
  status: row.status,
  createdAt: new Date(row.created_at),
  answeredAt: date(row.answered_at),
  answeredBy: row.answered_by,
  grantedTo: row.granted_to,
  endsAt: date(row.ends_at),
  answer: row.answer,
});

/**
 * Records a request; null when the reader already has one open for the unit (the unique
 * index decides, so two clicks at once make one request).
 */
export async function insertAccessRequest(
  db: Query,
  request: Pick<AccessRequest, 'email' | 'uid' | 'unit' | 'path' | 'reason' | 'organisationId'>,
): Promise<AccessRequest | null> {
  const rows = await db.query<Row>(
    `insert into access_requests (id, email, uid, unit, path, reason, organisation_id, status)
     values ($1, $2, $3, $4, $5, $6, $7, 'pending')
     on conflict (email, unit) where status = 'pending' do nothing
     returning ${COLUMNS}`,
    [randomUUID(), request.email, request.uid, request.unit, request.path, request.reason, request.organisationId],
  );
  return rows[0] ? fromRow(rows[0]) : null;
}

/** A reader's requests, newest first (their account page). */
export async function accessRequestsOf(db: Query, email: string, limit = 50): Promise<AccessRequest[]> {
  const rows = await db.query<Row>(
    `select ${COLUMNS} from access_requests where email = $1 order by created_at desc, id limit $2`,
    [email, limit],
  );
  return rows.map(fromRow);
}

/** The queue: open requests oldest first, then the latest answered ones. */
export async function accessRequestQueue(db: Query, answered = 50): Promise<AccessRequest[]> {
  const [open, done] = await Promise.all([
    db.query<Row>(`select ${COLUMNS} from access_requests where status = 'pending' order by created_at, id`),
    db.query<Row>(
      `select ${COLUMNS} from access_requests where status <> 'pending' order by answered_at desc, id limit $1`,
      [answered],
    ),
  ]);
  return [...open, ...done].map(fromRow);
}

/** One request, locked for its answer inside a transaction. */
export async function accessRequestForAnswer(db: Query, id: string): Promise<AccessRequest | null> {
  const rows = await db.query<Row>(`select ${COLUMNS} from access_requests where id = $1 for update`, [id]);
  return rows[0] ? fromRow(rows[0]) : null;
}

/** Writes an answer on an open request; false when it was answered meanwhile. */
export async function answerAccessRequest(
  db: Query,
  id: string,
  answer: Pick<AccessRequest, 'answeredBy' | 'grantedTo' | 'endsAt' | 'answer'> & {
    status: 'approved' | 'declined';
  },
): Promise<boolean> {
  const rows = await db.query<{ id: string }>(
    `update access_requests set status = $2, answered_at = now(), answered_by = $3, granted_to = $4, ends_at = $5,
       answer = $6
     where id = $1 and status = 'pending' returning id`,
    [id, answer.status, answer.answeredBy, answer.grantedTo, answer.endsAt, answer.answer],
  );
  return rows.length > 0;
}
