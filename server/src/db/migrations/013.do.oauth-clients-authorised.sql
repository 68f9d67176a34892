-- Anyone may register an OAuth client (issue 59): one that no reader ever authorised is
-- removed a day after it registered. A client is marked when a reader first authorises it (a
-- grant is saved for it), and keeps the mark when its grants are later revoked or expire.
alter table oauth_records add column authorised_at timestamptz;
-- Clients registered before this step count as authorised if they have a grant now, or an
-- authorisation in the audit trail.
update oauth_records c
set authorised_at = coalesce(
  (select min(g.created_at) from oauth_records g where g.kind = 'Grant' and g.payload->>'clientId' = c.id),
  (select min(a.at) from audit_events a where a.kind = 'oauth.authorised' and a.detail->>'client' = c.id)
)
where c.kind = 'Client';
create index oauth_records_unauthorised_clients on oauth_records (created_at)
  where kind = 'Client' and authorised_at is null;
