-- Page views are most of the trail and are written in bursts; each index on them is
-- paid per view. Time is indexed with BRIN (rows arrive in time order; a few pages
-- of index instead of a B-tree per row), and the indexes that serve the trail's
-- filters by kind and by actor or subject leave page views out: a reader's views are
-- found by the time range, the insights read them all.
drop index audit_events_at;
create index audit_events_at on audit_events using brin (at);
drop index audit_events_kind_at;
create index audit_events_kind_at on audit_events (kind, at) where kind <> 'page.view';
drop index audit_events_actor_at;
create index audit_events_actor_at on audit_events (actor_email, at) where kind <> 'page.view';
drop index audit_events_subject_at;
create index audit_events_subject_at on audit_events (subject_email, at) where subject_email is not null;
