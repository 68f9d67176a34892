-- What's new for you (issue 64).
--
-- Each page's text as each build served it: a row per page and hash of its Markdown, with the
-- time a gate first served that text. A page changed for a reader when its newest text came
-- after the reader last read it; it is new when its first text came after the date asked.
-- The first build a database sees is its baseline (seen at -infinity): nothing is new then.
create table page_texts (
  path text not null,
  hash text not null,
  seen_at timestamptz not null,
  primary key (path, hash)
);
create index page_texts_seen_at on page_texts (seen_at);

-- What a reader watches, or stops watching, beyond the default (the packages they read in the
-- last 90 days): a package by its section's path, or a page by its path.
create table reader_watches (
  uid text not null,
  kind text not null check (kind in ('package', 'page')),
  target text not null,
  watching boolean not null,
  at timestamptz not null default now(),
  primary key (uid, kind, target)
);

-- A reader's choices: the digest mail (off by default), and whether their reading orders
-- what is new for them. `digest_from` is where the next digest starts (the last one's end).
create table reader_settings (
  uid text primary key,
  email text not null,
  digest text not null default 'off' check (digest in ('off', 'release', 'weekly')),
  personal_order boolean not null default true,
  digest_from timestamptz,
  updated_at timestamptz not null default now()
);

-- Feed tokens: each reads one feed of one reader (their "what's new", or one package's
-- releases) and nothing else. Only a SHA-256 of the secret is kept.
create table feed_tokens (
  id text primary key,
  uid text not null,
  email text not null,
  feed text not null,
  hint text not null,
  secret_hash text not null unique,
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index feed_tokens_uid on feed_tokens (uid, created_at);

-- The digests sent: one per reader and release (or week). The replica whose insert takes the
-- row sends the mail; a mail that could not be sent leaves its row unsent, and the next round
-- sends it, once.
create table digest_mails (
  uid text not null,
  occasion text not null,
  made_at timestamptz not null default now(),
  sent_at timestamptz,
  attempts integer not null default 0,
  primary key (uid, occasion)
);
