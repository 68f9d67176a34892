import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freshDatabase, type DatabaseKind } from '../test/databases.js';
import type { Database } from './database.js';
import { migrate } from './migrations.js';
import {
  connectedApps,
  markGrantUsed,
  OAuthRecords,
  pruneOAuthRecords,
  pruneUnauthorisedClients,
  revokeConnectedApp,
  UNAUTHORISED_CLIENT_LIFETIME_MS,
} from './oauth.js';

describe.each<DatabaseKind>(['pglite', 'postgres'])('the OAuth records on %s', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await freshDatabase(kind);
    await migrate(db);
  });
  afterAll(() => db.close());

  const records = (model: string) => new OAuthRecords(model, () => db);

  it('keeps a token only under a hash of its value, and gives its value back to whoever has it', async () => {
    const tokens = records('AccessToken');
    await tokens.upsert('secret-token-value', { jti: 'secret-token-value', grantId: 'g1', accountId: 'u1' }, 60);
    const [row] = await db.query<{ id: string; payload: Record<string, unknown> }>(
      `select id, payload from oauth_records where kind = 'AccessToken'`,
    );
    expect(JSON.stringify(row)).not.toContain('secret-token-value');
    expect(await tokens.find('secret-token-value')).toMatchObject({ jti: 'secret-token-value', grantId: 'g1' });
    expect(await tokens.find('another-value')).toBeUndefined();
    await tokens.consume('secret-token-value');
    expect((await tokens.find('secret-token-value'))?.consumed).toBeGreaterThan(0);
    await tokens.revokeByGrantId('g1');
    expect(await tokens.find('secret-token-value')).toBeUndefined();
  });

  it('finds nothing past its expiry, and prunes it', async () => {
    const codes = records('AuthorizationCode');
    await codes.upsert('short-code', { jti: 'short-code' }, 1);
    await db.query(
      `update oauth_records set expires_at = now() - interval '1 second' where kind = 'AuthorizationCode'`,
    );
    expect(await codes.find('short-code')).toBeUndefined();
    expect(await pruneOAuthRecords(db)).toBeGreaterThanOrEqual(1);
  });

  it("lists a reader's connected apps with their client's name, and revokes one with its tokens, the reader's own only", async () => {
    await records('Client').upsert('client-a', { client_id: 'client-a', client_name: 'Claude Code' });
    await records('Grant').upsert('grant-a', { jti: 'grant-a', accountId: 'reader-1', clientId: 'client-a' }, 3600);
    await records('RefreshToken').upsert('refresh-a', { jti: 'refresh-a', grantId: 'grant-a' }, 3600);
    await markGrantUsed(db, 'grant-a');
    const [app] = await connectedApps(db, 'reader-1');
    expect(app).toMatchObject({ id: 'grant-a', clientName: 'Claude Code', clientId: 'client-a', uid: 'reader-1' });
    expect(app?.lastUsedAt).not.toBeNull();
    expect(await connectedApps(db, 'reader-2')).toEqual([]);
    expect(await revokeConnectedApp(db, 'grant-a', 'reader-2')).toBeNull();
    expect(await revokeConnectedApp(db, 'grant-a', 'reader-1')).toMatchObject({ id: 'grant-a' });
    expect(await records('RefreshToken').find('refresh-a')).toBeUndefined();
    expect(await connectedApps(db, 'reader-1')).toEqual([]);
  });

  it('prunes a client no reader authorised once a day has passed, and keeps one authorised even after its grant is gone', async () => {
    const clients = records('Client');
    for (const id of ['never-allowed', 'allowed', 'allowed-then-revoked'])
      await clients.upsert(id, { client_id: id, client_name: id });
    await records('Grant').upsert('grant-allowed', { jti: 'grant-allowed', accountId: 'r', clientId: 'allowed' }, 60);
    await records('Grant').upsert(
      'grant-gone',
      { jti: 'grant-gone', accountId: 'r', clientId: 'allowed-then-revoked' },
      60,
    );
    expect(await revokeConnectedApp(db, 'grant-gone', 'r')).toMatchObject({ id: 'grant-gone' });
    const registered = Date.now();
    // The injected clock, a minute short of a day: nothing goes yet.
    await pruneUnauthorisedClients(db, new Date(registered + UNAUTHORISED_CLIENT_LIFETIME_MS - 60_000));
    expect(await clients.find('never-allowed')).toBeDefined();
    // A minute past a day: the client never authorised goes, the other two stay.
    expect(
      await pruneUnauthorisedClients(db, new Date(registered + UNAUTHORISED_CLIENT_LIFETIME_MS + 60_000)),
    ).toBeGreaterThanOrEqual(1);
    expect(await clients.find('never-allowed')).toBeUndefined();
    expect(await clients.find('allowed')).toMatchObject({ client_name: 'allowed' });
    expect(await clients.find('allowed-then-revoked')).toMatchObject({ client_name: 'allowed-then-revoked' });
  });
});

describe.each<DatabaseKind>(['pglite', 'postgres'])('the step that marks authorised OAuth clients, on %s', (kind) => {
  let db: Database;
  beforeAll(async () => {
    db = await freshDatabase(kind);
    await migrate(db, 12);
  });
  afterAll(() => db.close());

  it('counts a client registered before it as authorised if it has a grant or an authorisation in the audit trail', async () => {
    await db.query(
      `insert into oauth_records (kind, id, payload) values
         ('Client', 'with-grant', '{}'), ('Client', 'in-the-trail', '{}'), ('Client', 'never', '{}'),
         ('Grant', 'g1', '{"clientId": "with-grant", "accountId": "r"}')`,
    );
    await db.query(
      `insert into audit_events (kind, actor_uid, detail) values ('oauth.authorised', 'r', '{"client": "in-the-trail"}')`,
    );
    await migrate(db);
    const rows = await db.query<{ id: string; marked: boolean }>(
      `select id, authorised_at is not null as marked from oauth_records where kind = 'Client' order by id`,
    );
    expect(rows).toEqual([
      { id: 'in-the-trail', marked: true },
      { id: 'never', marked: false },
      { id: 'with-grant', marked: true },
    ]);
  });
});
