import { createHash } from 'node:crypto';

import type { ConnectedApp as ContractApp } from '@portal/contract';

import type { Database } from './database.js';

/*
 * The OAuth authorization server's records (oidc-provider's models) in the portal's database,
 * and the reader's view of them: connected apps (grants) listed and revoked.
 */

/** The shape oidc-provider gives and takes for a record (its `AdapterPayload`). */
export type OAuthPayload = Record<string, unknown> & {
  grantId?: string;
  accountId?: string;
  uid?: string;
  jti?: string;
  consumed?: number;
};

/** Models whose ids are bearer credentials, kept only as hashes: codes and tokens. */
const SECRET_IDS = new Set([
  'AuthorizationCode',
  'AccessToken',
  'RefreshToken',
  'RegistrationAccessToken',
  'ClientCredentials',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
]);

const hashOf = (id: string): string => createHash('sha256').update(id).digest('base64url');

interface RawRecord {
  payload: OAuthPayload;
  consumed_at: Date | string | null;
}

/**
 * oidc-provider's adapter interface over `oauth_records`, one instance per model. The
 * value of a code or a token is never stored: its row is
 * found by a hash of the value, and the value (`jti`) is given back from the caller's own.
 */
export class OAuthRecords {
  private readonly plain: boolean;

  constructor(
    private readonly kind: string,
    private readonly db: () => Database,
  ) {
    this.plain = !SECRET_IDS.has(kind);
  }

  private key(id: string): string {
    return this.plain ? id : hashOf(id);
  }

  async upsert(id: string, payload: OAuthPayload, expiresIn?: number): Promise<void> {
    const stored: OAuthPayload = { ...payload };
    if (!this.plain) delete stored.jti;
    const expiresAt = expiresIn ? new Date(Date.now() + expiresIn * 1000).toISOString() : null;
    const upsert = `insert into oauth_records (kind, id, payload, grant_id, account_id, session_uid, expires_at)
       values ($1, $2, $3::jsonb, $4, $5, $6, $7::timestamptz)
       on conflict (kind, id) do update set payload = excluded.payload, grant_id = excluded.grant_id,
         account_id = excluded.account_id, session_uid = excluded.session_uid, expires_at = excluded.expires_at`;
    const values = [
      this.kind,
      this.key(id),
      JSON.stringify(stored),
      typeof payload.grantId === 'string' ? payload.grantId : null,
      this.kind === 'Grant' && typeof payload.accountId === 'string' ? payload.accountId : null,
      this.kind === 'Session' && typeof payload.uid === 'string' ? payload.uid : null,
      expiresAt,
    ];
    if (this.kind !== 'Grant') {
      await this.db().query(upsert, values);
      return;
    }
    // A grant marks its client authorised in the same statement: the client is never pruned after it.
    await this.db().query(
      `with saved as (${upsert} returning 1)
       update oauth_records set authorised_at = now() where kind = 'Client' and id = $8 and authorised_at is null`,
      [...values, typeof payload.clientId === 'string' ? payload.clientId : null],
    );
  }

  private async one(where: string, value: string): Promise<RawRecord | undefined> {
    const [row] = await this.db().query<RawRecord>(
      `select payload, consumed_at from oauth_records
       where kind = $1 and ${where} = $2 and (expires_at is null or expires_at > now())`,
      [this.kind, value],
    );
    return row;
  }

  private payloadOf(row: RawRecord | undefined, id?: string): OAuthPayload | undefined {
    if (!row) return undefined;
    const payload: OAuthPayload = { ...row.payload };
    if (id !== undefined && !this.plain) payload.jti = id;
    if (row.consumed_at !== null) payload.consumed = Math.floor(new Date(row.consumed_at).getTime() / 1000);
    return payload;
  }

  async find(id: string): Promise<OAuthPayload | undefined> {
    return this.payloadOf(await this.one('id', this.key(id)), id);
  }

  async findByUid(uid: string): Promise<OAuthPayload | undefined> {
    return this.payloadOf(await this.one('session_uid', uid));
  }

  async findByUserCode(): Promise<undefined> {
    // The device flow is off: there are no user codes.
    return undefined;
  }

  async consume(id: string): Promise<void> {
    await this.db().query('update oauth_records set consumed_at = now() where kind = $1 and id = $2', [
      this.kind,
      this.key(id),
    ]);
  }

  async destroy(id: string): Promise<void> {
    await this.db().query('delete from oauth_records where kind = $1 and id = $2', [this.kind, this.key(id)]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db().query('delete from oauth_records where kind = $1 and grant_id = $2', [this.kind, grantId]);
  }
}

/** A client a reader authorised, as /account sees it (the contract's), and whose it is. */
export type ConnectedApp = ContractApp & { uid: string };

interface RawApp {
  id: string;
  account_id: string;
  client_id: string;
  client_name: string | null;
  created_at: Date | string;
  last_used_at: Date | string | null;
  expires_at: Date | string | null;
}

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** A grant with its client's name, as a connected app (the grant aliased `g`). */
const APP_COLUMNS = `select g.id, g.account_id, g.payload->>'clientId' as client_id,
       coalesce(c.payload->>'client_name', g.payload->>'clientId') as client_name,
       g.created_at, g.last_used_at, g.expires_at
  from oauth_records g
  left join oauth_records c on c.kind = 'Client' and c.id = g.payload->>'clientId'`;

const appOf = (row: RawApp): ConnectedApp => ({
  id: row.id,
  uid: row.account_id,
  clientId: row.client_id,
  clientName: row.client_name ?? row.client_id,
  authorisedAt: iso(row.created_at) as string,
  lastUsedAt: iso(row.last_used_at),
  expiresAt: iso(row.expires_at),
});

/** The clients a reader authorised and has not revoked (grants not expired), newest first. */
export async function connectedApps(db: Database, uid: string): Promise<ConnectedApp[]> {
  const rows = await db.query<RawApp>(
    `${APP_COLUMNS}
     where g.kind = 'Grant' and g.account_id = $1 and (g.expires_at is null or g.expires_at > now())
     order by g.created_at desc, g.id desc limit 200`,
    [uid],
  );
  return rows.map(appOf);
}

/**
 * Revokes a grant (of `uid` only, unless null: an administrator) with every code and token
 * issued under it; the app, or null when there was none to revoke.
 */
export async function revokeConnectedApp(db: Database, id: string, uid: string | null): Promise<ConnectedApp | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<RawApp>(
      `${APP_COLUMNS} where g.kind = 'Grant' and g.id = $1 and ($2::text is null or g.account_id = $2)`,
      [id, uid],
    );
    if (!row) return null;
    await tx.query(`delete from oauth_records where grant_id = $1 or (kind = 'Grant' and id = $1)`, [id]);
    return appOf(row);
  });
}

/** Marks a grant used now (an access token of it was checked). */
export async function markGrantUsed(db: Database, grantId: string): Promise<void> {
  await db.query(`update oauth_records set last_used_at = now() where kind = 'Grant' and id = $1`, [grantId]);
}

/** How long a client no reader has authorised is kept after it registered, in ms. */
export const UNAUTHORISED_CLIENT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes the clients that no reader ever authorised and that registered more than
 * UNAUTHORISED_CLIENT_LIFETIME_MS before `now` (anyone may register one); the number deleted.
 */
export async function pruneUnauthorisedClients(db: Database, now: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with gone as (
       delete from oauth_records
       where kind = 'Client' and authorised_at is null and created_at <= $1::timestamptz
       returning 1)
     select count(*)::int as n from gone`,
    [new Date(now.getTime() - UNAUTHORISED_CLIENT_LIFETIME_MS).toISOString()],
  );
  return rows[0]?.n ?? 0;
}

/** Deletes what has expired (codes, tokens, interactions, sessions, grants); the number of rows. */
export async function pruneOAuthRecords(db: Database): Promise<number> {
  const rows = await db.query<{ n: number }>(
    `with gone as (delete from oauth_records where expires_at is not null and expires_at <= now() returning 1)
     select count(*)::int as n from gone`,
  );
  return rows[0]?.n ?? 0;
}
