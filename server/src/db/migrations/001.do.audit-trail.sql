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
