-- Release hooks that cannot be replayed (issue 59): each signed delivery that queued rebuilds,
-- by the SHA-256 of its signed body (a replay with a fresh delivery id, a header no signature
-- covers, is still the same body) and by its delivery id when the sender gave one. The gate
-- sweeps rows past SOURCES_HOOK_MEMORY_DAYS.
create table hook_deliveries (
  digest text primary key,
  delivery_id text unique,
  event text not null,
  -- The sources whose rebuild it started: the rate per source counts these (joining a
  -- rebuild already queued starts none).
  counted text[] not null default '{}',
  received_at timestamptz not null
);
create index hook_deliveries_received_at on hook_deliveries (received_at);
