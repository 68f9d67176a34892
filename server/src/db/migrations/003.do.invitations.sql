-- A reader invited by e-mail gets these groups at their first sign-in with that
-- e-mail (a GitHub account, say), unless an administrator withdraws it first.
create table invitations (
  email text primary key,
  groups text[] not null,
  invited_by text not null,
  created_at timestamptz not null default now(),
  accepted_at timestamptz
);
