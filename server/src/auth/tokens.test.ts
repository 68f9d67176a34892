import { unitsOfGroups } from '@portal/access';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { loadConfig } from '../config.js';
import { sqlTokenStore } from '../db/tokens.js';
import { sharedStore } from '../test/harness.js';
import { EmulatorReaders } from '../test/readers.js';
import { makeTestSite } from '../test/test-site.js';
import { Identity } from './identity.js';
import { TokenService } from './tokens.js';

describe('a personal access token', () => {
  let identity: Identity;
  let readers: EmulatorReaders;
  let now = Date.now();
  let tokens: TokenService;

  beforeAll(async () => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('emulatorHost');
    const config = loadConfig({
      SITE_DIR: await makeTestSite(),
      FIREBASE_AUTH_EMULATOR_HOST: inject('emulatorHost'),
      FIREBASE_PROJECT_ID: inject('emulatorProjectId'),
    });
    identity = new Identity({
      config: config.identity,
      secret: 'test-secret-for-every-gate-server-in-this-run',
      sessionMaxAgeSeconds: 3600,
      cacheTtlSeconds: 60,
    });
    const store = await sharedStore();
    await store.whenReady();
    const tokenStore = sqlTokenStore(() => store.db);
    tokens = new TokenService(
      () => tokenStore,
      identity,
      60,
      () => now,
    );
    readers = new EmulatorReaders(inject('emulatorHost'), inject('emulatorProjectId'));
  });
  afterAll(() => identity.close());

  it('works until it expires, by the clock, and never past 90 days', async () => {
    const account = await readers.create({ groups: ['partner'] });
    const reader = { uid: account.uid, email: account.email, groups: ['partner'], units: unitsOfGroups(['partner']) };
    const { token, record } = await tokens.create(reader, 'CI bot', 7);
    expect(Date.parse(record.expiresAt) - now).toBe(7 * 86_400_000);
    expect(await tokens.check(token)).toMatchObject({ ok: true, reader: { uid: account.uid, groups: ['partner'] } });
    now += 7 * 86_400_000 - 1000;
    expect((await tokens.check(token)).ok).toBe(true);
    now += 2000;
    expect(await tokens.check(token)).toEqual({ ok: false, reason: 'expired' });
    const long = await tokens.create(reader, 'too long', 365);
    expect(Date.parse(long.record.expiresAt) - now).toBe(90 * 86_400_000);
  });

  it('counts its first use of each day, and only that one', async () => {
    const account = await readers.create({ groups: ['staff'] });
    const { token } = await tokens.create(
      { uid: account.uid, email: account.email, groups: ['staff'], units: unitsOfGroups(['staff']) },
      'laptop',
      30,
    );
    const first = await tokens.check(token);
    const second = await tokens.check(token);
    expect(first).toMatchObject({ ok: true, firstUseToday: true });
    expect(second).toMatchObject({ ok: true, firstUseToday: false });
    now += 86_400_000;
    expect(await tokens.check(token)).toMatchObject({ ok: true, firstUseToday: true });
  });

  it('is refused when malformed or unknown, and at once when revoked', async () => {
    expect(await tokens.check('norigin_pat_short')).toEqual({ ok: false, reason: 'malformed' });
    expect(await tokens.check(`norigin_pat_${'x'.repeat(43)}`)).toEqual({ ok: false, reason: 'unknown' });
    const account = await readers.create({ groups: ['staff'] });
    const { token, record } = await tokens.create(
      { uid: account.uid, email: account.email, groups: ['staff'], units: unitsOfGroups(['staff']) },
      'x',
      1,
    );
    expect((await tokens.check(token)).ok).toBe(true);
    expect(await tokens.revoke(record.id, 'someone-else')).toBeNull();
    expect((await tokens.revoke(record.id, account.uid))?.revokedAt).not.toBeNull();
    expect(await tokens.check(token)).toEqual({ ok: false, reason: 'revoked' });
  });
});
