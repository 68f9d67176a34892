-- Who reads which access unit, as data (the policy file says which pages form each unit).
-- A reader's units are the union of their organisation's live licences, the units of the
-- groups they are a member of here, and the units of the policy's own groups (staff, admin…).

-- A partner company. Readers whose verified e-mail is at one of its domains belong to it,
-- unless a membership below puts them elsewhere.
create table organisations (
  id text primary key,
  name text not null,
  domains text[] not null default '{}',
  contact text,
  created_at timestamptz not null default now()
);

-- An organisation reads these units, until `ends_at` when it has one. A unit the policy no
-- longer has stays here (an orphaned grant) and reads nothing.
create table licences (
  id text primary key,
  organisation_id text not null references organisations (id) on delete cascade,
  units text[] not null,
  ends_at timestamptz,
  created_at timestamptz not null default now(),
  created_by text not null
);
create index licences_organisation on licences (organisation_id);

-- Named sets of units that administrators make ("player-basic"); the policy's own groups
-- (staff, partner, admin) are not repeated here.
create table access_groups (
  name text primary key,
  label text not null,
  units text[] not null,
  created_at timestamptz not null default now()
);

-- A reader's organisation (at most one) and groups, by e-mail address (lower case), so an
-- administrator can place a reader before their first sign-in.
create table reader_memberships (
  email text primary key,
  organisation_id text references organisations (id) on delete set null,
  groups text[] not null default '{}',
  updated_at timestamptz not null default now()
);
create index reader_memberships_organisation on reader_memberships (organisation_id);
