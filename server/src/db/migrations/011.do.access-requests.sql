-- Readers ask for a unit they cannot read; administrators answer. An approval for the reader
-- alone is a grant of their own (below); one for their organisation is a licence.
create table access_requests (
  id text primary key,
  -- The reader, by e-mail (lower case) and account.
  email text not null,
  uid text not null,
  unit text not null,
  -- The page they asked from.
  path text not null,
  reason text not null default '',
  -- Their organisation when they asked, if any.
  organisation_id text references organisations (id) on delete set null,
  status text not null check (status in ('pending', 'approved', 'declined')),
  created_at timestamptz not null default now(),
  answered_at timestamptz,
  answered_by text,
  -- Approved for the reader alone, or for their whole organisation.
  granted_to text check (granted_to in ('reader', 'organisation')),
  ends_at timestamptz,
  -- A decline's reason, in the administrator's words.
  answer text
);
-- One open request per reader and unit.
create unique index access_requests_one_open on access_requests (email, unit) where status = 'pending';
create index access_requests_by_status on access_requests (status, created_at);
create index access_requests_by_email on access_requests (email, created_at);

-- Units given to one reader (an approved request for the reader alone), until `ends_at`
-- when it has one: part of a reader's units beside their organisation's and groups'.
create table reader_grants (
  id text primary key,
  email text not null,
  units text[] not null,
  ends_at timestamptz,
  request_id text references access_requests (id) on delete set null,
  created_at timestamptz not null default now(),
  created_by text not null
);
create index reader_grants_email on reader_grants (email);
