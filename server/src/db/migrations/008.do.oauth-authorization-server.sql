-- What the OAuth authorization server for /mcp keeps (oidc-provider's models, one row each):
-- registered clients, grants (a reader's authorisation of a client), authorization codes,
-- access and refresh tokens, interactions and sessions. A record whose id is a bearer credential
-- (an authorization code, an access or refresh token) is kept under a SHA-256 of it, never the value.
create table oauth_records (
  kind text not null,
  id text not null,
  payload jsonb not null,
  -- The grant a code or token belongs to: revoking the grant deletes them all.
  grant_id text,
  -- The reader (Firebase uid) of a grant: a reader's connected apps.
  account_id text,
  -- A session's uid (oidc-provider looks sessions up by it).
  session_uid text,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  consumed_at timestamptz,
  -- A grant's last use by one of its access tokens, to the token cache's TTL.
  last_used_at timestamptz,
  primary key (kind, id)
);
create index oauth_records_grant on oauth_records (grant_id) where grant_id is not null;
create index oauth_records_account on oauth_records (account_id) where account_id is not null;
create index oauth_records_session_uid on oauth_records (session_uid) where session_uid is not null;
create index oauth_records_expires on oauth_records (expires_at) where expires_at is not null;
