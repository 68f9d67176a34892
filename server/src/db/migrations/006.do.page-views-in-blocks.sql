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
