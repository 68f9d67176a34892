import type { Database } from './database.js';

/**
 * The schema, one step at a time, for PGlite and PostgreSQL alike. Applied in order at
 * start, each in a transaction; a step, once released, is never edited: add the next one.
 */
export const MIGRATIONS: readonly { version: number; name: string; sql: string }[] = [
  {
    version: 1,
    name: 'audit trail',
    sql: `
      create table audit_events (
        id bigserial primary key,
        at timestamptz not null default now(),
        -- session.started, session.refused, session.logout, session.ended, admin.*, page.view, …
        kind text not null,
        actor_uid text,
        actor_email text,
        -- On whom an administrator acted.
        subject_uid text,
        subject_email text,
        -- The page of a page view.
        path text,
        -- The reader's groups at the time.
        groups text[] not null default '{}',
        detail jsonb not null default '{}',
        -- Stored only when AUDIT_STORE_IP says so.
        client_ip text,
        demo boolean not null default false
      );
      create index audit_events_at on audit_events (at);
      create index audit_events_kind_at on audit_events (kind, at);
      create index audit_events_actor_at on audit_events (actor_email, at);
      create index audit_events_subject_at on audit_events (subject_email, at);
    `,
  },
  {
    version: 2,
    name: 'searches and page feedback',
    sql: `
      create table search_events (
        id bigserial primary key,
        at timestamptz not null default now(),
        uid text not null,
        groups text[] not null default '{}',
        query text not null,
        results integer not null,
        demo boolean not null default false
      );
      create index search_events_at on search_events (at);
      create table page_feedback (
        uid text not null,
        path text not null,
        groups text[] not null default '{}',
        helpful boolean not null,
        comment text,
        updated_at timestamptz not null default now(),
        demo boolean not null default false,
        primary key (uid, path)
      );
      create index page_feedback_path on page_feedback (path);
    `,
  },
  {
    version: 3,
    name: 'invitations',
    sql: `
      -- A reader invited by e-mail gets these groups at their first sign-in with that
      -- e-mail (a GitHub account, say), unless an administrator withdraws it first.
      create table invitations (
        email text primary key,
        groups text[] not null,
        invited_by text not null,
        created_at timestamptz not null default now(),
        accepted_at timestamptz
      );
    `,
  },
  {
    version: 4,
    name: 'personal access tokens',
    sql: `
      -- A reader's tokens for their coding assistants. Only a hash of the secret is kept.
      create table access_tokens (
        id text primary key,
        uid text not null,
        email text not null,
        name text not null,
        -- The start of the token (its recognisable prefix and a few characters), to tell tokens apart.
        hint text not null,
        secret_hash text not null unique,
        created_at timestamptz not null default now(),
        expires_at timestamptz not null,
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      create index access_tokens_uid on access_tokens (uid);
    `,
  },
  {
    version: 5,
    name: 'page views cheaper to record',
    sql: `
      -- Page views are most of the trail and are written in bursts; each index on them is
      -- paid per view. Time is indexed with BRIN (rows arrive in time order; a few pages
      -- of index instead of a B-tree per row), and the indexes that serve the trail's
      -- filters by kind and by actor or subject leave page views out: a reader's views are
      -- found by the time range, the insights read them all.
      drop index audit_events_at;
      create index audit_events_at on audit_events using brin (at);
      drop index audit_events_kind_at;
      create index audit_events_kind_at on audit_events (kind, at) where kind <> 'page.view';
      drop index audit_events_actor_at;
      create index audit_events_actor_at on audit_events (actor_email, at) where kind <> 'page.view';
      drop index audit_events_subject_at;
      create index audit_events_subject_at on audit_events (subject_email, at) where subject_email is not null;
    `,
  },
  {
    version: 6,
    name: 'page views in blocks',
    sql: `
      -- A session's page views, in blocks of up to 4,096 (page-views.ts): the block's
      -- readers ([uid, e-mail, groups]) and pages once, and 8 bytes per view (milliseconds
      -- after first_at, the reader's and the page's place in those lists, little-endian).
      -- Stored uncompressed: writing them is the gate's busiest write. Views with more to
      -- them (an agent's token, a client address) and those written before stay rows of
      -- audit_events.
      create table page_view_blocks (
        id bigserial primary key,
        first_at timestamptz not null,
        last_at timestamptz not null,
        count integer not null check (count > 0),
        readers jsonb not null,
        pages jsonb not null,
        views bytea not null
      );
      alter table page_view_blocks alter column views set storage external;
      create index page_view_blocks_last_at on page_view_blocks (last_at, id);
      create index page_view_blocks_first_at on page_view_blocks (first_at);
      -- The trail is read newest first by time, then id, across audit_events and the blocks.
      create index audit_events_at_id on audit_events (at, id);
    `,
  },
];

export interface MigrationReport {
  from: number;
  to: number;
  applied: string[];
}

/** Brings the schema up to the newest step (or `upTo`); returns what it did. */
export async function migrate(db: Database, upTo = Number.POSITIVE_INFINITY): Promise<MigrationReport> {
  await db.query(
    'create table if not exists schema_migrations (version integer primary key, name text not null, applied_at timestamptz not null default now())',
  );
  const [row] = await db.query<{ version: number | null }>('select max(version) as version from schema_migrations');
  const from = row?.version ?? 0;
  const applied: string[] = [];
  for (const step of MIGRATIONS) {
    if (step.version <= from || step.version > upTo) continue;
    await db.transaction(async (tx) => {
      for (const statement of step.sql
        .split(/;\s*$/m)
        .map((part) => part.trim())
        .filter(Boolean))
        await tx.query(statement);
      await tx.query('insert into schema_migrations (version, name) values ($1, $2)', [step.version, step.name]);
    });
    applied.push(`${step.version} ${step.name}`);
  }
  return { from, to: Math.max(from, ...MIGRATIONS.filter((m) => m.version <= upTo).map((m) => m.version)), applied };
}
