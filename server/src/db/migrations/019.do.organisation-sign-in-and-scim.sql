-- Partner organisations bring their own sign-in and provisioning (issue 65).

-- An organisation's identity provider: an OIDC or SAML provider of Firebase Authentication
-- (`oidc.…`, `saml.…`) with the name the sign-in page shows; when `sign_in_required`, readers
-- at its domains cannot sign in with a password or another provider.
alter table organisations
  add column sign_in_provider text,
  add column sign_in_name text,
  add column sign_in_required boolean not null default false;

-- The administrators' groups an organisation's provisioning client may put its readers in:
-- SCIM's Groups of that organisation. Any other group is unknown to its client.
create table organisation_groups (
  organisation_id text not null references organisations (id) on delete cascade,
  group_name text not null references access_groups (name) on delete cascade,
  primary key (organisation_id, group_name)
);

-- The bearer tokens of an organisation's SCIM client, as SHA-256 hashes; shown once. No
-- reference to organisations on purpose: a removed organisation's token is then refused by name.
create table scim_tokens (
  id text primary key,
  organisation_id text not null,
  name text not null,
  hint text not null,
  secret_hash text not null unique,
  created_at timestamptz not null default now(),
  created_by text not null,
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index scim_tokens_organisation on scim_tokens (organisation_id, created_at);

-- What SCIM says of a reader beyond their Firebase account: userName, externalId and names,
-- per organisation (a userName is unique in its organisation). `active` is the account's own.
create table scim_users (
  uid text primary key,
  organisation_id text not null,
  user_name text not null,
  -- The account's e-mail (lower case), as the account has it: group memberships are by e-mail.
  email text not null,
  external_id text,
  given_name text,
  family_name text,
  display_name text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organisation_id, user_name)
);
create unique index scim_users_user_name on scim_users (organisation_id, lower(user_name));

-- The last provisioning calls of each organisation, for /admin: kept 30 days.
create table scim_calls (
  id bigserial primary key,
  organisation_id text not null,
  token_id text,
  at timestamptz not null default now(),
  method text not null,
  path text not null,
  status integer not null,
  detail text
);
create index scim_calls_organisation on scim_calls (organisation_id, at desc);

create trigger organisation_groups_changed after insert or update or delete or truncate on organisation_groups
  for each statement execute function change_events_access();
