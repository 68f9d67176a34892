import { createHash, randomBytes, randomUUID } from 'node:crypto';

import type { Database } from './database.js';

/** A reader's digest choice: none (the default), a mail per release of a watched package, or one a week. */
export type DigestChoice = 'off' | 'release' | 'weekly';

export interface ReaderSettings {
  digest: DigestChoice;
  personalOrder: boolean;
  digestFrom: string | null;
}

export const DEFAULT_SETTINGS: ReaderSettings = { digest: 'off', personalOrder: true, digestFrom: null };

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/**
 * Records the text of each page a build serves (its Markdown's hash): a page whose text is
 * new gets a row seen now. The first build a database sees is the baseline, seen at
 * -infinity, so that a new portal has nothing "new". Several replicas loading the same build
 * add each row once.
 */
export async function recordPageTexts(
  db: Database,
  pages: readonly { path: string; hash: string }[],
  now: Date,
): Promise<number> {
  if (pages.length === 0) return 0;
  return db.transaction(async (tx) => {
    const [{ any } = { any: false }] = await tx.query<{ any: boolean }>(
      'select exists (select 1 from page_texts) as any',
    );
    const rows = await tx.query<{ path: string }>(
      `insert into page_texts (path, hash, seen_at)
       select path, hash, $3::timestamptz from unnest($1::text[], $2::text[]) as p (path, hash)
       on conflict do nothing returning path`,
      [pages.map((page) => page.path), pages.map((page) => page.hash), any ? now.toISOString() : '-infinity'],
    );
    return rows.length;
  });
}

/** Each page's (path starting `prefix`) first text and its newest text, as milliseconds (-Infinity for the baseline). */
export async function pageTextTimes(
  db: Database,
  prefix: string,
): Promise<Map<string, { first: number; newest: number }>> {
  // As milliseconds in SQL: the baseline's -infinity is a float there, whatever the driver makes of a timestamp.
  const rows = await db.query<{ path: string; first: string | number; newest: string | number }>(
    `select path, extract(epoch from min(seen_at)) * 1000 as first, extract(epoch from max(seen_at)) * 1000 as newest
     from page_texts where starts_with(path, $1) group by path`,
    [prefix],
  );
  return new Map(rows.map((row) => [row.path, { first: Number(row.first), newest: Number(row.newest) }]));
}

/** Each page the reader read (any way: their browser, a token, MCP), with its last time. */
export async function lastReadPages(db: Database, uid: string): Promise<Map<string, number>> {
  const rows = await db.query<{ path: string; at: Date | string }>(
    `select path, max(last_at) as at from page_views where uid = $1 group by path`,
    [uid],
  );
  return new Map(rows.map((row) => [row.path, new Date(row.at).getTime()]));
}

/**
 * The reader's last visit before the one under way: the latest view that ended more than an
 * hour before `now` (a visit is reading with no hour-long pause). Null for a first visit.
 */
export async function lastVisit(db: Database, uid: string, now: Date): Promise<Date | null> {
  const [row] = await db.query<{ at: Date | string | null }>(
    `select max(last_at) as at from page_views where uid = $1 and last_at < $2::timestamptz - interval '1 hour'`,
    [uid, now.toISOString()],
  );
  return row?.at ? new Date(row.at) : null;
}

export async function readerSettings(db: Database, uid: string): Promise<ReaderSettings> {
  const [row] = await db.query<{ digest: DigestChoice; personal_order: boolean; digest_from: Date | string | null }>(
    'select digest, personal_order, digest_from from reader_settings where uid = $1',
    [uid],
  );
  return row
    ? { digest: row.digest, personalOrder: row.personal_order, digestFrom: iso(row.digest_from) }
    : { ...DEFAULT_SETTINGS };
}

/** Saves a reader's choices; turning the digest on starts it at `now` (nothing older is mailed). */
export async function saveReaderSettings(
  db: Database,
  reader: { uid: string; email: string },
  settings: Partial<Pick<ReaderSettings, 'digest' | 'personalOrder'>>,
  now: Date,
): Promise<ReaderSettings> {
  const [row] = await db.query<{ digest: DigestChoice; personal_order: boolean; digest_from: Date | string | null }>(
    `insert into reader_settings (uid, email, digest, personal_order, digest_from, updated_at)
     values ($1, $2, coalesce($3, 'off'), coalesce($4, true), case when coalesce($3, 'off') <> 'off' then $5::timestamptz end, $5)
     on conflict (uid) do update set
       email = excluded.email,
       digest = coalesce($3, reader_settings.digest),
       personal_order = coalesce($4, reader_settings.personal_order),
       digest_from = case
         when coalesce($3, reader_settings.digest) = 'off' then null
         when reader_settings.digest = 'off' then $5::timestamptz
         else reader_settings.digest_from end,
       updated_at = $5
     returning digest, personal_order, digest_from`,
    [reader.uid, reader.email, settings.digest ?? null, settings.personalOrder ?? null, now.toISOString()],
  );
  if (!row) throw new Error('the settings were not saved');
  return { digest: row.digest, personalOrder: row.personal_order, digestFrom: iso(row.digest_from) };
}

export interface Watch {
  kind: 'package' | 'page';
  target: string;
  watching: boolean;
  at: string;
}

export async function watchesOf(db: Database, uid: string): Promise<Watch[]> {
  const rows = await db.query<{ kind: Watch['kind']; target: string; watching: boolean; at: Date | string }>(
    'select kind, target, watching, at from reader_watches where uid = $1 order by kind, target',
    [uid],
  );
  return rows.map((row) => ({ kind: row.kind, target: row.target, watching: row.watching, at: iso(row.at) as string }));
}

export async function setWatch(
  db: Database,
  uid: string,
  watch: Pick<Watch, 'kind' | 'target' | 'watching'>,
): Promise<void> {
  await db.query(
    `insert into reader_watches (uid, kind, target, watching) values ($1, $2, $3, $4)
     on conflict (uid, kind, target) do update set watching = excluded.watching, at = now()`,
    [uid, watch.kind, watch.target, watch.watching],
  );
}

/** What the portal keeps of a reader's reading: their page views (rows and views) and first and last times. */
export async function readingKept(
  db: Database,
  uid: string,
): Promise<{ pages: number; views: number; from: string | null; to: string | null; watches: number }> {
  const [row] = await db.query<{
    pages: string | number;
    views: string | number | null;
    first: Date | string | null;
    last: Date | string | null;
  }>(
    `select count(distinct path) as pages, sum(count) as views, min(first_at) as first, max(last_at) as last
     from page_views where uid = $1`,
    [uid],
  );
  const [watches] = await db.query<{ n: string | number }>('select count(*) as n from reader_watches where uid = $1', [
    uid,
  ]);
  return {
    pages: Number(row?.pages ?? 0),
    views: Number(row?.views ?? 0),
    from: iso(row?.first ?? null),
    to: iso(row?.last ?? null),
    watches: Number(watches?.n ?? 0),
  };
}

/** Clears a reader's reading: their page views and watch choices, in one transaction. */
export async function clearReading(db: Database, uid: string): Promise<{ views: number }> {
  return db.transaction(async (tx) => {
    const views = await tx.query('delete from page_views where uid = $1 returning 1', [uid]);
    await tx.query('delete from reader_watches where uid = $1', [uid]);
    return { views: views.length };
  });
}

// Feed tokens.

export const FEED_TOKEN_PREFIX = 'ndf_';
export const FEED_TOKEN_PATTERN = /^ndf_[A-Za-z0-9_-]{43}$/;
/** Live feed tokens a reader may hold at once. */
export const MAX_FEED_TOKENS = 20;

export interface FeedToken {
  id: string;
  feed: string;
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

interface RawFeedToken {
  id: string;
  uid: string;
  email: string;
  feed: string;
  hint: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
}

const feedTokenOf = (raw: RawFeedToken): FeedToken => ({
  id: raw.id,
  feed: raw.feed,
  hint: raw.hint,
  createdAt: iso(raw.created_at) as string,
  lastUsedAt: iso(raw.last_used_at),
  revokedAt: iso(raw.revoked_at),
});

export const feedSecretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export class TooManyFeedTokensError extends Error {
  constructor() {
    super(`You hold ${MAX_FEED_TOKENS} live feed tokens, the most a reader may; revoke one first`);
  }
}

/** Makes a feed token for one feed of a reader; the secret is returned this once. */
export async function createFeedToken(
  db: Database,
  reader: { uid: string; email: string },
  feed: string,
): Promise<{ token: string; record: FeedToken }> {
  const secret = `${FEED_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`feed-tokens:${reader.uid}`]);
    const [{ n } = { n: 0 }] = await tx.query<{ n: string | number }>(
      'select count(*) as n from feed_tokens where uid = $1 and revoked_at is null',
      [reader.uid],
    );
    if (Number(n) >= MAX_FEED_TOKENS) throw new TooManyFeedTokensError();
    const [row] = await tx.query<RawFeedToken>(
      `insert into feed_tokens (id, uid, email, feed, hint, secret_hash) values ($1, $2, $3, $4, $5, $6) returning *`,
      [randomUUID(), reader.uid, reader.email, feed, `${secret.slice(0, 8)}…`, feedSecretHash(secret)],
    );
    if (!row) throw new Error('the feed token was not stored');
    return { token: secret, record: feedTokenOf(row) };
  });
}

/** The live feed token of a secret: whose it is and which feed it reads; null for an unknown or revoked one. */
export async function feedTokenBySecret(
  db: Database,
  secret: string,
): Promise<(FeedToken & { uid: string; email: string }) | null> {
  if (!FEED_TOKEN_PATTERN.test(secret)) return null;
  const [row] = await db.query<RawFeedToken>(
    `update feed_tokens set last_used_at = now() where secret_hash = $1 and revoked_at is null returning *`,
    [feedSecretHash(secret)],
  );
  return row ? { ...feedTokenOf(row), uid: row.uid, email: row.email } : null;
}

export async function listFeedTokens(db: Database, uid: string): Promise<FeedToken[]> {
  const rows = await db.query<RawFeedToken>(
    'select * from feed_tokens where uid = $1 order by created_at desc, id desc limit 200',
    [uid],
  );
  return rows.map(feedTokenOf);
}

export async function revokeFeedToken(db: Database, uid: string, id: string): Promise<FeedToken | null> {
  const [row] = await db.query<RawFeedToken>(
    'update feed_tokens set revoked_at = now() where id = $1 and uid = $2 and revoked_at is null returning *',
    [id, uid],
  );
  return row ? feedTokenOf(row) : null;
}

// Digests.

/** The readers whose digest is on, with where their next one starts. */
export async function digestReaders(
  db: Database,
  choice: Exclude<DigestChoice, 'off'>,
): Promise<{ uid: string; email: string; from: Date }[]> {
  const rows = await db.query<{ uid: string; email: string; digest_from: Date | string }>(
    `select uid, email, digest_from from reader_settings where digest = $1 and digest_from is not null`,
    [choice],
  );
  return rows.map((row) => ({ uid: row.uid, email: row.email, from: new Date(row.digest_from) }));
}

/**
 * Takes the digest of `occasion` for a reader: true when this replica is to send it (no
 * other took it, or it was taken and not sent). A mail that fails is `releaseDigest`d and
 * sent at the next round, never twice.
 */
export async function takeDigest(db: Database, uid: string, occasion: string): Promise<boolean> {
  const rows = await db.query(
    `insert into digest_mails (uid, occasion, attempts) values ($1, $2, 1)
     on conflict (uid, occasion) do update set attempts = digest_mails.attempts + 1, made_at = now()
       where digest_mails.sent_at is null and digest_mails.made_at < now() - interval '1 minute'
     returning 1`,
    [uid, occasion],
  );
  return rows.length > 0;
}

/** A digest was sent: its row says so, and the reader's next digest starts at `to`. */
export async function digestSent(db: Database, uid: string, occasion: string, to: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('update digest_mails set sent_at = now() where uid = $1 and occasion = $2', [uid, occasion]);
    await tx.query('update reader_settings set digest_from = greatest(digest_from, $2::timestamptz) where uid = $1', [
      uid,
      to.toISOString(),
    ]);
  });
}

/** A digest could not be sent: the next round may take it again at once. */
export async function releaseDigest(db: Database, uid: string, occasion: string): Promise<void> {
  await db.query(`update digest_mails set made_at = '-infinity' where uid = $1 and occasion = $2 and sent_at is null`, [
    uid,
    occasion,
  ]);
}

/** Turns a reader's digest off (the one-click unsubscribe). */
export async function unsubscribe(db: Database, uid: string): Promise<boolean> {
  const rows = await db.query(
    `update reader_settings set digest = 'off', digest_from = null, updated_at = now() where uid = $1 and digest <> 'off' returning 1`,
    [uid],
  );
  return rows.length > 0;
}
