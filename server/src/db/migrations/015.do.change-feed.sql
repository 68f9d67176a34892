-- What every replica must hear (issue 61): each change of the access data and each reader,
-- token or OAuth grant to forget, as a row in order. Redis pub/sub, when set, only tells the
-- replicas to look now; each also looks on its own twice a second (server/src/changes.ts),
-- so a lost message or Redis down delays a change by a poll, never for good.
create table change_events (
  seq bigserial primary key,
  -- The writing transaction: a replica reads in (tx, seq) order and only below the oldest
  -- transaction still running, so an event committed after a later one is never skipped.
  tx xid8 not null default pg_current_xact_id(),
  -- {"access": table}, {"reader": uid}, {"token": id}, {"grant": id} or {"site": id}
  subject jsonb not null,
  at timestamptz not null default now()
);
create index change_events_order on change_events (tx, seq);
create index change_events_at on change_events (at);

-- A change of organisations, licences, groups, memberships or grants writes its event in its
-- own transaction, whatever made it (the admin API, the readers command, SQL by hand): it is
-- seen by every replica exactly when it is committed, and never when it is rolled back.
create function change_events_access() returns trigger language plpgsql as $$
begin
  insert into change_events (subject) values (jsonb_build_object('access', tg_table_name));
  return null;
end
$$;

create trigger organisations_changed after insert or update or delete or truncate on organisations
  for each statement execute function change_events_access();
create trigger licences_changed after insert or update or delete or truncate on licences
  for each statement execute function change_events_access();
create trigger access_groups_changed after insert or update or delete or truncate on access_groups
  for each statement execute function change_events_access();
create trigger reader_memberships_changed after insert or update or delete or truncate on reader_memberships
  for each statement execute function change_events_access();
create trigger reader_grants_changed after insert or update or delete or truncate on reader_grants
  for each statement execute function change_events_access();
