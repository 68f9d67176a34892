import { createHash, randomBytes, randomUUID } from 'node:crypto';

import type { Database, Transaction } from './database.js';

type Query = Pick<Database, 'query'>;

/** A SCIM client's bearer token as /admin lists it; the secret itself is shown once, at minting. */
export interface ScimToken {
  id: string;
  organisationId: string;
  name: string;
  /** The secret's last four characters, to tell tokens apart. */
  hint: string;
  createdAt: string;
  createdBy: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** What SCIM keeps of a reader beyond their account. */
export interface ScimUserRow {
  uid: string;
  organisationId: string;
  userName: string;
  email: string;
  externalId: string | null;
  givenName: string | null;
  familyName: string | null;
  displayName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One provisioning call, for /admin. */
export interface ScimCall {
  at: string;
  method: string;
  path: string;
  status: number;
  detail: string | null;
  token: string | null;
}

/** The prefix of every SCIM token, so a leaked one is recognisable (secret scanners, logs). */
export const SCIM_TOKEN_PREFIX = 'ndp_scim_';

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());
export const hashOf = (secret: string): string => createHash('sha256').update(secret).digest('hex');

interface RawToken {
  id: string;
  organisation_id: string;
  name: string;
  hint: string;
  created_at: Date;
  created_by: string;
  last_used_at: Date | null;
  revoked_at: Date | null;
}
const tokenOf = (row: RawToken): ScimToken => ({
  id: row.id,
  organisationId: row.organisation_id,
  name: row.name,
  hint: row.hint,
  createdAt: iso(row.created_at) as string,
  createdBy: row.created_by,
  lastUsedAt: iso(row.last_used_at),
  revokedAt: iso(row.revoked_at),
});

/** Mints a token for an organisation's SCIM client: the record and the secret, which is kept only as its hash. */
export async function mintScimToken(
  db: Query,
  token: { organisationId: string; name: string; createdBy: string },
): Promise<{ token: ScimToken; secret: string }> {
  const secret = `${SCIM_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const [row] = await db.query<RawToken>(
    `insert into scim_tokens (id, organisation_id, name, hint, secret_hash, created_by)
     values ($1, $2, $3, $4, $5, $6) returning *`,
    [randomUUID(), token.organisationId, token.name, secret.slice(-4), hashOf(secret), token.createdBy],
  );
  return { token: tokenOf(row as RawToken), secret };
}

/** The token of a secret, revoked or not (the caller says which refusal), marked used now when it is live. */
export async function scimTokenBySecret(db: Query, secret: string): Promise<ScimToken | null> {
  const [row] = await db.query<RawToken>(
    `update scim_tokens set last_used_at = case when revoked_at is null then now() else last_used_at end
     where secret_hash = $1 returning *`,
    [hashOf(secret)],
  );
  return row ? tokenOf(row) : null;
}

export async function listScimTokens(db: Query, organisationId: string): Promise<ScimToken[]> {
  const rows = await db.query<RawToken>(
    'select * from scim_tokens where organisation_id = $1 order by created_at desc, id desc limit 100',
    [organisationId],
  );
  return rows.map(tokenOf);
}

export async function revokeScimToken(db: Query, organisationId: string, id: string): Promise<ScimToken | null> {
  const [row] = await db.query<RawToken>(
    `update scim_tokens set revoked_at = now() where id = $1 and organisation_id = $2 and revoked_at is null returning *`,
    [id, organisationId],
  );
  return row ? tokenOf(row) : null;
}

interface RawUser {
  uid: string;
  organisation_id: string;
  user_name: string;
  email: string;
  external_id: string | null;
  given_name: string | null;
  family_name: string | null;
  display_name: string | null;
  created_at: Date;
  updated_at: Date;
}
const userOf = (row: RawUser): ScimUserRow => ({
  uid: row.uid,
  organisationId: row.organisation_id,
  userName: row.user_name,
  email: row.email,
  externalId: row.external_id,
  givenName: row.given_name,
  familyName: row.family_name,
  displayName: row.display_name,
  createdAt: iso(row.created_at) as string,
  updatedAt: iso(row.updated_at) as string,
});

export async function scimUser(db: Query, organisationId: string, uid: string): Promise<ScimUserRow | null> {
  const [row] = await db.query<RawUser>('select * from scim_users where uid = $1 and organisation_id = $2', [
    uid,
    organisationId,
  ]);
  return row ? userOf(row) : null;
}

/** The organisation's users in the order they were made, filtered by userName or externalId (case-insensitive for userName). */
export async function scimUsers(
  db: Query,
  organisationId: string,
  filter: { attribute: string; value: string } | null,
  page: { start: number; count: number },
): Promise<{ users: ScimUserRow[]; total: number }> {
  const where =
    filter === null
      ? ''
      : filter.attribute === 'username'
        ? 'and lower(user_name) = lower($2)'
        : filter.attribute === 'externalid'
          ? 'and external_id = $2'
          : 'and uid = $2';
  const args = filter === null ? [organisationId] : [organisationId, filter.value];
  const [count] = await db.query<{ n: number }>(
    `select count(*)::int as n from scim_users where organisation_id = $1 ${where}`,
    args,
  );
  const rows = await db.query<RawUser>(
    `select * from scim_users where organisation_id = $1 ${where} order by created_at, uid
     offset ${page.start - 1} limit ${page.count}`,
    args,
  );
  return { users: rows.map(userOf), total: count?.n ?? 0 };
}

/** The uid of the user with this userName in the organisation (case-insensitive), if any. */
export async function scimUserNamed(db: Query, organisationId: string, userName: string): Promise<string | null> {
  const [row] = await db.query<{ uid: string }>(
    'select uid from scim_users where organisation_id = $1 and lower(user_name) = lower($2)',
    [organisationId, userName],
  );
  return row?.uid ?? null;
}

export async function saveScimUser(
  tx: Query,
  user: Omit<ScimUserRow, 'createdAt' | 'updatedAt'>,
): Promise<ScimUserRow> {
  const [row] = await tx.query<RawUser>(
    `insert into scim_users (uid, organisation_id, user_name, email, external_id, given_name, family_name, display_name)
     values ($1, $2, $3, $8, $4, $5, $6, $7)
     on conflict (uid) do update set user_name = excluded.user_name, email = excluded.email,
       external_id = excluded.external_id,
       given_name = excluded.given_name, family_name = excluded.family_name, display_name = excluded.display_name,
       updated_at = now()
     returning *`,
    [
      user.uid,
      user.organisationId,
      user.userName,
      user.externalId,
      user.givenName,
      user.familyName,
      user.displayName,
      user.email,
    ],
  );
  return userOf(row as RawUser);
}

export async function deleteScimUser(tx: Query, uid: string): Promise<void> {
  await tx.query('delete from scim_users where uid = $1', [uid]);
}

/** The organisation's users in a group (by their membership's groups), in the order they were made. */
export async function scimGroupMembers(db: Query, organisationId: string, group: string): Promise<ScimUserRow[]> {
  const rows = await db.query<RawUser>(
    `select s.* from scim_users s join reader_memberships m on m.email = s.email
     where s.organisation_id = $1 and $2 = any(m.groups) order by s.created_at, s.uid`,
    [organisationId, group],
  );
  return rows.map(userOf);
}

/** Adds `add` to and takes `remove` from the groups of each reader by e-mail (their organisation placement stays). */
export async function changeGroupMembers(
  tx: Query,
  group: string,
  change: { add: readonly string[]; remove: readonly string[] },
): Promise<void> {
  if (change.add.length > 0)
    await tx.query(
      `insert into reader_memberships (email, organisation_id, groups, updated_at)
       select email, null, array[$2], now() from unnest($1::text[]) as email
       on conflict (email) do update set groups = array_append(array_remove(reader_memberships.groups, $2), $2),
         updated_at = now()`,
      [[...change.add], group],
    );
  if (change.remove.length > 0)
    await tx.query(
      `update reader_memberships set groups = array_remove(groups, $2), updated_at = now()
       where email = any($1::text[]) and $2 = any(groups)`,
      [[...change.remove], group],
    );
}

/** The administrators' groups an organisation's client may use. */
export async function organisationGroups(db: Query, organisationId: string): Promise<string[]> {
  const rows = await db.query<{ group_name: string }>(
    'select group_name from organisation_groups where organisation_id = $1 order by group_name',
    [organisationId],
  );
  return rows.map((row) => row.group_name);
}

export async function setOrganisationGroups(
  tx: Transaction | Query,
  organisationId: string,
  groups: readonly string[],
): Promise<void> {
  await tx.query('delete from organisation_groups where organisation_id = $1', [organisationId]);
  if (groups.length > 0)
    await tx.query('insert into organisation_groups (organisation_id, group_name) select $1, unnest($2::text[])', [
      organisationId,
      [...groups],
    ]);
}

/** Keeps one call for /admin (and forgets the organisation's calls older than 30 days now and then). */
export async function recordScimCall(
  db: Query,
  call: Omit<ScimCall, 'at'> & { organisationId: string },
): Promise<void> {
  await db.query(
    'insert into scim_calls (organisation_id, token_id, method, path, status, detail) values ($1, $2, $3, $4, $5, $6)',
    [
      call.organisationId,
      call.token,
      call.method,
      call.path.slice(0, 500),
      call.status,
      call.detail?.slice(0, 500) ?? null,
    ],
  );
  if (Math.random() < 0.01) await db.query(`delete from scim_calls where at < now() - interval '30 days'`);
}

export async function recentScimCalls(db: Query, organisationId: string, limit = 50): Promise<ScimCall[]> {
  const rows = await db.query<{
    at: Date;
    method: string;
    path: string;
    status: number;
    detail: string | null;
    token_id: string | null;
  }>(
    'select at, method, path, status, detail, token_id from scim_calls where organisation_id = $1 order by at desc, id desc limit $2',
    [organisationId, limit],
  );
  return rows.map((row) => ({
    at: iso(row.at) as string,
    method: row.method,
    path: row.path,
    status: row.status,
    detail: row.detail,
    token: row.token_id,
  }));
}

/**
 * Ends everything a reader holds besides their account, in one transaction: personal tokens,
 * feed tokens and OAuth grants revoked, grants of their own and groups taken away (their
 * organisation's licences are what a reactivation gives back). The ids of the revoked tokens
 * and grants, for every replica to forget.
 */
export async function endReaderHoldings(
  tx: Query,
  uid: string,
  email: string,
): Promise<{ tokens: string[]; feedTokens: number; grants: string[]; readerGrants: number }> {
  const tokens = await tx.query<{ id: string }>(
    'update access_tokens set revoked_at = now() where uid = $1 and revoked_at is null returning id',
    [uid],
  );
  const feedTokens = await tx.query<{ id: string }>(
    'update feed_tokens set revoked_at = now() where uid = $1 and revoked_at is null returning id',
    [uid],
  );
  const grants = await tx.query<{ id: string }>(
    `select id from oauth_records where kind = 'Grant' and account_id = $1`,
    [uid],
  );
  if (grants.length > 0)
    await tx.query(
      `delete from oauth_records where grant_id = any($1::text[]) or (kind = 'Grant' and id = any($1::text[]))`,
      [grants.map((grant) => grant.id)],
    );
  const readerGrants = await tx.query<{ id: string }>('delete from reader_grants where email = $1 returning id', [
    email,
  ]);
  await tx.query(`update reader_memberships set groups = '{}' where email = $1 and groups <> '{}'`, [email]);
  return {
    tokens: tokens.map((row) => row.id),
    feedTokens: feedTokens.length,
    grants: grants.map((grant) => grant.id),
    readerGrants: readerGrants.length,
  };
}
