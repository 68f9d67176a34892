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
  {
    version: 7,
    name: 'page views counted per reader, page and hour',
    sql: `
      -- Page views once per reader, page, way of reading (page, token, mcp), client address
      -- ('' unless AUDIT_STORE_IP) and hour, with a count beside (page-views.ts): reloads and
      -- agents' loops add to a count, never rows.
      create table page_views (
        id bigserial primary key,
        period timestamptz not null,
        uid text not null,
        email text,
        groups text[] not null default '{}',
        path text not null,
        via text not null default 'page',
        client_ip text not null default '',
        first_at timestamptz not null,
        last_at timestamptz not null,
        count integer not null check (count > 0),
        demo boolean not null default false,
        unique (period, uid, path, via, client_ip)
      );
      create index page_views_first_at on page_views (first_at, id);
      create index page_views_last_at on page_views (last_at);
      create index page_views_uid on page_views (uid, first_at);
      create index page_views_email on page_views (lower(email), first_at);
      -- The views kept as rows of the trail (agents' tokens, client addresses, demo data,
      -- views from before the blocks), counted into the new rows.
      insert into page_views (period, uid, email, groups, path, via, client_ip, first_at, last_at, count, demo)
      select period, uid, email, groups, path, via, client_ip, first_at, last_at, count, demo from (
        select date_trunc('hour', at) as period, coalesce(actor_uid, '') as uid, coalesce(path, '') as path,
          coalesce(detail->>'via', 'page') as via, coalesce(client_ip, '') as client_ip,
          first_value(actor_email) over w as email, first_value(groups) over w as groups,
          min(at) over w as first_at, max(at) over w as last_at, count(*) over w as count,
          bool_or(demo) over w as demo, row_number() over w as n
        from audit_events where kind = 'page.view'
        window w as (partition by date_trunc('hour', at), coalesce(actor_uid, ''), coalesce(path, ''),
          coalesce(detail->>'via', 'page'), coalesce(client_ip, '') order by at, id
          rows between unbounded preceding and unbounded following)
      ) views where n = 1;
      delete from audit_events where kind = 'page.view';
      -- The views of the blocks of version 6: per view, little-endian, uint32 milliseconds after
      -- first_at, uint16 reader and uint16 page (places in the block's readers and pages).
      insert into page_views (period, uid, email, groups, path, via, client_ip, first_at, last_at, count)
      select date_trunc('hour', at), reader->>0, min(reader->>1),
        array(select jsonb_array_elements_text((array_agg(reader->2))[1])), path, 'page', '', min(at), max(at), count(*)
      from (
        select b.first_at + (get_byte(b.views, i * 8) + get_byte(b.views, i * 8 + 1) * 256
            + get_byte(b.views, i * 8 + 2) * 65536 + get_byte(b.views, i * 8 + 3)::bigint * 16777216) * interval '1 millisecond' as at,
          b.readers->(get_byte(b.views, i * 8 + 4) + get_byte(b.views, i * 8 + 5) * 256) as reader,
          b.pages->>(get_byte(b.views, i * 8 + 6) + get_byte(b.views, i * 8 + 7) * 256) as path
        from page_view_blocks b cross join lateral generate_series(0, least(b.count, length(b.views) / 8) - 1) as i
      ) views
      group by date_trunc('hour', at), reader->>0, path
      on conflict (period, uid, path, via, client_ip) do update set
        count = page_views.count + excluded.count,
        first_at = least(page_views.first_at, excluded.first_at),
        last_at = greatest(page_views.last_at, excluded.last_at);
      drop table page_view_blocks;
      -- The administrators' token list, filtered by reader and paged in SQL.
      create index access_tokens_email on access_tokens (lower(email), created_at);
      create index access_tokens_created_at on access_tokens (created_at, id);
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
