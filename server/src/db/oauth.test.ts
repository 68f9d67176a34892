import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freshDatabase, type DatabaseKind } from '../test/databases.js';
import type { Database } from './database.js';
import { migrate } from './migrations.js';
import { connectedApps, markGrantUsed, OAuthRecords, pruneOAuthRecords, revokeConnectedApp } from './oauth.js';

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
});
