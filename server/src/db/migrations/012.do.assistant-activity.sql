-- Assistants' reading and searching beside the readers' own (issue 33, item 4): each view
-- and search names the client that made it, a personal token's name or an OAuth client's
-- (client_kind 'token' or 'oauth'; both '' for a reader's own, with their session).
alter table page_views add column client_kind text not null default '';
alter table page_views add column client text not null default '';
-- Two assistants of one reader reading the same page in the same hour are two rows.
alter table page_views drop constraint page_views_period_uid_path_via_client_ip_key;
alter table page_views add constraint page_views_key unique (period, uid, path, via, client_ip, client_kind, client);
-- Where a search was made: 'site' (the search box), 'api' (/api/search) or 'mcp' (search_docs).
alter table search_events add column via text not null default 'site';
alter table search_events add column client_kind text not null default '';
alter table search_events add column client text not null default '';
create index search_events_assistants on search_events (at) where via <> 'site';
