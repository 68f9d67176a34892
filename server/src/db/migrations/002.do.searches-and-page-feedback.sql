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
