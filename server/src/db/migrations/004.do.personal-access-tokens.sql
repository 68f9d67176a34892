-- A reader's tokens for their coding assistants. Only a hash of the secret is kept.
create table access_tokens (
  id text primary key,
  uid text not null,
  email text not null,
  name text not null,
  -- The start of the token (its recognisable prefix and a few characters), to tell tokens apart.
  hint text not null,
  secret_hash text not null unique,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index access_tokens_uid on access_tokens (uid);
