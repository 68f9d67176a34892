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
