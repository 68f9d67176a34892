-- Licence notices (issue 62): the mails announcing that a licence ends, each sent once. A
-- notice is the licence, the end it announces and its kind: `ahead` (LICENCE_NOTICE_DAYS
-- before) or `day` (on the day it ends). The replica whose insert takes the row sends the mail,
-- so several replicas checking at once send it once; a licence given a new end date is
-- announced again for that date.
create table licence_notices (
  licence_id text not null references licences (id) on delete cascade,
  ends_at timestamptz not null,
  kind text not null check (kind in ('ahead', 'day')),
  sent_at timestamptz not null default now(),
  primary key (licence_id, ends_at, kind)
);
