import type { NewToken, TokenRecord, TokenStore } from '../auth/tokens.js';
import type { Database } from './database.js';

interface RawToken {
  id: string;
  uid: string;
  email: string;
  name: string;
  hint: string;
  created_at: Date | string;
  expires_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
  scope: 'read' | 'admin';
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

function toRecord(raw: RawToken): TokenRecord {
  return {
    id: raw.id,
    uid: raw.uid,
    email: raw.email,
    name: raw.name,
    hint: raw.hint,
    createdAt: iso(raw.created_at) as string,
    expiresAt: iso(raw.expires_at) as string,
    lastUsedAt: iso(raw.last_used_at),
    revokedAt: iso(raw.revoked_at),
    scope: raw.scope,
  };
}

/**
 * Stores a token unless its reader already holds `most` live ones (unrevoked, unexpired at
 * `now`); null then. The reader's tokens are locked while counting, so two requests at once
 * cannot both take the last place.
 */
export async function insertTokenWithin(
  db: Pick<Database, 'transaction'>,
  most: number,
  now: Date,
  token: NewToken,
): Promise<TokenRecord | null> {
  return db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock(hashtext($1))', [`access_tokens:${token.uid}`]);
    const [live] = await tx.query<{ n: number }>(
      'select count(*)::int as n from access_tokens where uid = $1 and revoked_at is null and expires_at > $2::timestamptz',
      [token.uid, now.toISOString()],
    );
    if ((live?.n ?? 0) >= most) return null;
    const [row] = await tx.query<RawToken>(
      `insert into access_tokens (id, uid, email, name, hint, secret_hash, expires_at, scope)
       values ($1, $2, $3, $4, $5, $6, $7::timestamptz, $8) returning *`,
      [
        token.id,
        token.uid,
        token.email,
        token.name,
        token.hint,
        token.secretHash,
        token.expiresAt.toISOString(),
        token.scope,
      ],
    );
    if (!row) throw new Error('the token was not stored');
    return toRecord(row);
  });
}

export async function tokenByHash(db: Database, secretHash: string): Promise<TokenRecord | null> {
  const [row] = await db.query<RawToken>('select * from access_tokens where secret_hash = $1', [secretHash]);
  return row ? toRecord(row) : null;
}

/** A reader's own tokens, newest first. */
export async function listTokens(db: Database, uid: string): Promise<TokenRecord[]> {
  const rows = await db.query<RawToken>(
    `select * from access_tokens where uid = $1 order by created_at desc, id desc limit 1000`,
    [uid],
  );
  return rows.map(toRecord);
}

/** Where a page of the administrators' token list goes on from (the contract's TOKEN_CURSOR_PATTERN). */
export const tokenCursorOf = (token: Pick<TokenRecord, 'createdAt' | 'id'>): string =>
  `${Date.parse(token.createdAt)}.${token.id}`;

/**
 * A page of every reader's tokens for administrators, newest first, filtered and paged in
 * SQL: by a reader (their e-mail in any case, or uid), after a cursor (`tokenCursorOf`; times
 * compared to the millisecond, as the cursor carries them).
 */
export async function queryTokens(
  db: Database,
  filter: { reader?: string; before?: string; limit: number },
): Promise<TokenRecord[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  const param = (value: unknown): string => `$${params.push(value)}`;
  const reader = filter.reader?.trim();
  if (reader) where.push(`(lower(email) = ${param(reader.toLowerCase())} or uid = ${param(reader)})`);
  if (filter.before) {
    const dot = filter.before.indexOf('.');
    const at = new Date(Number(filter.before.slice(0, dot))).toISOString();
    where.push(
      `(date_trunc('milliseconds', created_at), id) < (${param(at)}::timestamptz, ${param(filter.before.slice(dot + 1))})`,
    );
  }
  const rows = await db.query<RawToken>(
    `select * from access_tokens ${where.length > 0 ? `where ${where.join(' and ')}` : ''}
     order by date_trunc('milliseconds', created_at) desc, id desc limit ${param(filter.limit)}`,
    params,
  );
  return rows.map(toRecord);
}

/** Revokes a token (of `uid` only, unless null); returns it, or null when there is none to revoke. */
export async function revokeToken(db: Database, id: string, uid: string | null): Promise<TokenRecord | null> {
  const [row] = await db.query<RawToken>(
    `update access_tokens set revoked_at = now() where id = $1 and ($2::text is null or uid = $2) and revoked_at is null returning *`,
    [id, uid],
  );
  return row ? toRecord(row) : null;
}

/** Marks a use at `at`; true when it is the token's first use of that day (UTC). */
export async function markTokenUsed(db: Database, id: string, at: Date): Promise<boolean> {
  // The subquery sees the row as it was before this update: the previous use.
  const [row] = await db.query<{ first: boolean }>(
    `update access_tokens set last_used_at = $2::timestamptz where id = $1
     returning (select last_used_at is null or (last_used_at at time zone 'UTC')::date <> ($2::timestamptz at time zone 'UTC')::date
                from access_tokens where id = $1) as first`,
    [id, at.toISOString()],
  );
  return row?.first ?? false;
}

/** The token store of auth/tokens.ts in the portal's database (`db()` throws while it is not open). */
export const sqlTokenStore = (db: () => Database): TokenStore => ({
  insertWithin: (most, now, token) => insertTokenWithin(db(), most, now, token),
  byHash: (secretHash) => tokenByHash(db(), secretHash),
  markUsed: (id, at) => markTokenUsed(db(), id, at),
  revoke: (id, uid) => revokeToken(db(), id, uid),
});
