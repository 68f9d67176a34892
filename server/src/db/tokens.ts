import type { Database } from './database.js';

/** A personal access token as stored: never its secret, only a hash of it. */
export interface TokenRecord {
  id: string;
  uid: string;
  email: string;
  name: string;
  hint: string;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

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
  };
}

export async function insertToken(
  db: Database,
  token: { id: string; uid: string; email: string; name: string; hint: string; secretHash: string; expiresAt: Date },
): Promise<TokenRecord> {
  const [row] = await db.query<RawToken>(
    `insert into access_tokens (id, uid, email, name, hint, secret_hash, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7::timestamptz) returning *`,
    [token.id, token.uid, token.email, token.name, token.hint, token.secretHash, token.expiresAt.toISOString()],
  );
  if (!row) throw new Error('the token was not stored');
  return toRecord(row);
}

export async function tokenByHash(db: Database, secretHash: string): Promise<TokenRecord | null> {
  const [row] = await db.query<RawToken>('select * from access_tokens where secret_hash = $1', [secretHash]);
  return row ? toRecord(row) : null;
}

/** Tokens of one reader, or of everyone (`uid` null), newest first. */
export async function listTokens(db: Database, uid: string | null): Promise<TokenRecord[]> {
  const rows = await db.query<RawToken>(
    `select * from access_tokens where ($1::text is null or uid = $1) order by created_at desc limit 1000`,
    [uid],
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
