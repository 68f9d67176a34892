-- Site releases (issue 61): each build of the site published as an immutable bundle in the
-- object store (server/src/releases/bundle.ts), named by the SHA-256 of its manifest. One is
-- live: every gate serves it, and a gate started later boots from it. Making another live
-- (a new build, or a rollback) is one transaction, seen by every replica through the change
-- feed and by each one's own check every few seconds.
create table site_releases (
  id bigserial primary key,
  bundle text not null unique check (bundle ~ '^[0-9a-f]{64}$'),
  files integer not null,
  bytes bigint not null,
  -- What it was built from: each synced source's published versions.
  sources jsonb not null default '{}',
  -- What made it: "rebuild 12 (navigation)", "npm start".
  job text not null,
  built_at timestamptz not null default now(),
  -- live: served everywhere; kept: in the store, ready for a rollback; collected: deleted from it.
  state text not null default 'kept' check (state in ('live', 'kept', 'collected')),
  live_since timestamptz,
  made_live_by text
);
create unique index site_releases_one_live on site_releases ((true)) where state = 'live';

create function change_events_release() returns trigger language plpgsql as $$
begin
  insert into change_events (subject) values ('{"release": "live"}'::jsonb);
  return null;
end
$$;

create trigger site_releases_changed after insert or update on site_releases
  for each statement execute function change_events_release();
