import type { Feedback, Invitation } from '@portal/contract';

import type { Database } from './database.js';
import type { ViewClient } from './page-views.js';

/**
 * A finished search: what a reader typed in the site's search box (as the site reported it),
 * or what an assistant asked for them through the search API or MCP, with how many results.
 */
export interface SearchEvent {
  at?: Date;
  uid: string;
  groups: readonly string[];
  query: string;
  results: number;
  demo?: boolean;
  /** Where: the site's search box (the default), `/api/search`, or MCP's search_docs. */
  via?: 'site' | 'api' | 'mcp';
  /** The assistant that searched (its personal token's or OAuth client's name); none for the search box. */
  client?: ViewClient | null;
}

export async function insertSearchEvents(db: Pick<Database, 'query'>, events: readonly SearchEvent[]): Promise<void> {
  if (events.length === 0) return;
  const params: unknown[] = [];
  const rows = events.map((event, index) => {
    params.push(
      (event.at ?? new Date()).toISOString(),
      event.uid,
      [...event.groups],
      event.query,
      event.results,
      event.demo ?? false,
      event.via ?? 'site',
      event.client?.kind ?? '',
      event.client?.name ?? '',
    );
    const n = index * 9;
    return `($${n + 1}::timestamptz, $${n + 2}, $${n + 3}::text[], $${n + 4}, $${n + 5}, $${n + 6}, $${n + 7}, $${n + 8}, $${n + 9})`;
  });
  await db.query(
    `insert into search_events (at, uid, groups, query, results, demo, via, client_kind, client) values ${rows.join(', ')}`,
    params,
  );
}

/** Records or changes a reader's answer for a page: one answer per reader and page. */
export async function saveFeedback(
  db: Pick<Database, 'query'>,
  answer: {
    uid: string;
    path: string;
    groups: readonly string[];
    helpful: boolean;
    comment: string | null;
    demo?: boolean;
    at?: Date;
  },
): Promise<Feedback> {
  const [row] = await db.query<{ path: string; helpful: boolean; comment: string | null; updated_at: Date | string }>(
    `insert into page_feedback (uid, path, groups, helpful, comment, updated_at, demo)
     values ($1, $2, $3::text[], $4, $5, $6::timestamptz, $7)
     on conflict (uid, path) do update set groups = excluded.groups, helpful = excluded.helpful,
       comment = excluded.comment, updated_at = excluded.updated_at
     returning path, helpful, comment, updated_at`,
    [
      answer.uid,
      answer.path,
      [...answer.groups],
      answer.helpful,
      answer.comment,
      (answer.at ?? new Date()).toISOString(),
      answer.demo ?? false,
    ],
  );
  if (!row) throw new Error('the feedback was not saved');
  return {
    path: row.path,
    helpful: row.helpful,
    comment: row.comment,
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}

export async function feedbackOf(db: Database, uid: string, path: string): Promise<Feedback | null> {
  const [row] = await db.query<{ path: string; helpful: boolean; comment: string | null; updated_at: Date | string }>(
    'select path, helpful, comment, updated_at from page_feedback where uid = $1 and path = $2',
    [uid, path],
  );
  return row
    ? { path: row.path, helpful: row.helpful, comment: row.comment, updatedAt: new Date(row.updated_at).toISOString() }
    : null;
}

export async function saveInvitation(
  db: Pick<Database, 'query'>,
  invitation: { email: string; groups: readonly string[]; invitedBy: string },
): Promise<void> {
  await db.query(
    `insert into invitations (email, groups, invited_by) values (lower($1), $2::text[], $3)
     on conflict (email) do update set groups = excluded.groups, invited_by = excluded.invited_by,
       created_at = now(), accepted_at = null`,
    [invitation.email, [...invitation.groups], invitation.invitedBy],
  );
}

export async function openInvitations(db: Database): Promise<Invitation[]> {
  const rows = await db.query<{ email: string; groups: string[]; invited_by: string; created_at: Date | string }>(
    'select email, groups, invited_by, created_at from invitations where accepted_at is null order by created_at desc',
  );
  return rows.map((row) => ({
    email: row.email,
    groups: row.groups,
    invitedBy: row.invited_by,
    createdAt: new Date(row.created_at).toISOString(),
  }));
}

/** The groups of the open invitation of an e-mail, or null. */
export async function invitationFor(db: Database, email: string): Promise<string[] | null> {
  const [row] = await db.query<{ groups: string[] }>(
    'select groups from invitations where email = lower($1) and accepted_at is null',
    [email],
  );
  return row?.groups ?? null;
}

/** Takes the open invitation of an e-mail, once: marks it accepted and returns its groups. */
export async function acceptInvitation(db: Database, email: string): Promise<string[] | null> {
  const [row] = await db.query<{ groups: string[] }>(
    `update invitations set accepted_at = now() where email = lower($1) and accepted_at is null returning groups`,
    [email],
  );
  return row?.groups ?? null;
}

export async function withdrawInvitation(db: Database, email: string): Promise<boolean> {
  const rows = await db.query(
    'delete from invitations where email = lower($1) and accepted_at is null returning email',
    [email],
  );
  return rows.length > 0;
}
