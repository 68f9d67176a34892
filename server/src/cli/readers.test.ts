import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { openDatabase } from '../db/database.js';
import { queryAudit, type AuditRow } from '../db/audit.js';
import { signInCookie, testApp } from '../test/harness.js';
import { EmulatorReaders } from '../test/readers.js';
import { makeTestSite } from '../test/test-site.js';
import { runReadersCommand } from './readers.js';

const ACTOR = `cli:${userInfo().username}`;
let dataDir: string;

/** Runs the command against the test run's emulator; returns its exit code and output. */
async function readersWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const port = inject('emulatorHost').split(':')[1] ?? '';
  const code = await runReadersCommand(
    args,
    { AUTH_EMULATOR_PORT: port, FIREBASE_PROJECT_ID: inject('emulatorProjectId'), ...env },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The command with the PGlite data folder of this test file (its audit inbox beside it). */
const readers = (...args: string[]) => readersWith({ DATA_DIR: dataDir }, ...args);

const address = (): string => `cli-${randomUUID().slice(0, 8)}@partner.example`;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'readers-cli-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('npm run readers', () => {
  let directory: EmulatorReaders;
  beforeAll(() => {
    directory = new EmulatorReaders(inject('emulatorHost'), inject('emulatorProjectId'));
  });

  it('adds a reader in groups and prints a link to set the password, never a token', async () => {
    const email = address();
    const added = await readers('add', email, '--groups', 'partner');
    expect(added.code).toBe(0);
    expect(added.out).toContain(`Created ${email} in partner.`);
    // The portal's own page, as the invitation mail links it.
    expect(added.out).toMatch(/http:\/\/localhost:3000\/login\/action\?mode=resetPassword&oobCode=\S+&invite=1/);
    expect(added.out).not.toMatch(/eyJ[\w-]{20,}/); // no JWT
    const shown = await readers('show', email);
    expect(shown.out).toMatch(/groups: +partner/);
    expect(shown.out).toContain('set by an administrator: partner');
    // Its code sets a password, as the page spends it (the SDK's confirmPasswordReset), and the reader signs in.
    const link = new URL(/(http:\S+oobCode=\S+)/.exec(added.out)?.[1] ?? 'http://none');
    await directory.setPasswordWithCode(link.searchParams.get('oobCode') ?? '', 'first-light-42');
    await expect(directory.signIn(email, 'first-light-42')).resolves.toMatch(/\./);
  });

  it('grants and revokes groups, lists by group, disables, enables and removes', async () => {
    const email = address();
    await readers('add', email, '--groups', 'partner');
    expect((await readers('grant', email, 'staff')).out).toContain('groups partner → staff, partner');
    expect((await readers('list', '--group', 'staff')).out).toContain(email);
    expect((await readers('revoke', email, 'partner')).out).toContain('groups staff, partner → staff');
    expect((await readers('list', '--group', 'partner')).out).not.toContain(email);
    expect((await readers('revoke', email, 'partner')).out).toContain('was not in partner; nothing changed');
    expect((await readers('disable', email)).out).toContain('is disabled');
    expect((await readers('show', email)).out).toMatch(/status: +disabled/);
    expect((await readers('enable', email)).out).toContain('is enabled');
    const removed = await readers('remove', email);
    expect(removed.code).toBe(0);
    expect(removed.out).toContain(`${email} is removed`);
    expect(await readers('show', email)).toMatchObject({
      code: 2,
      err: `readers: no reader has the e-mail address ${email}`,
    });
  });

  it('answers every command in JSON with --json, errors included', async () => {
    const email = address();
    const added = await readers('add', email, '--groups', 'partner', '--json');
    expect(added.code).toBe(0);
    const addedJson = JSON.parse(added.out) as { reader: { email: string; groups: string[] }; passwordLink: string };
    expect(addedJson.reader).toMatchObject({ email, groups: ['partner'] });
    expect(addedJson.passwordLink).toMatch(/oobCode=/);
    const shown = JSON.parse((await readers('show', email, '--json')).out) as { reader: { uid: string } };
    expect(shown.reader.uid).toBeTruthy();
    const listed = JSON.parse((await readers('--json', 'list', '--group', 'partner')).out) as {
      readers: { email: string }[];
    };
    expect(listed.readers.map((reader) => reader.email)).toContain(email);
    const granted = JSON.parse((await readers('grant', email, 'staff', '--json')).out) as Record<string, unknown>;
    expect(granted).toMatchObject({
      changed: true,
      before: { groups: ['partner'] },
      after: { groups: ['staff', 'partner'] },
      audit: { to: 'inbox' },
    });
    const again = JSON.parse((await readers('grant', email, 'staff', '--json')).out) as Record<string, unknown>;
    expect(again).toMatchObject({ changed: false, audit: null });
    const revoked = JSON.parse((await readers('revoke', email, 'staff', '--json')).out) as Record<string, unknown>;
    expect(revoked).toMatchObject({ changed: true, after: { groups: ['partner'] } });
    for (const command of ['disable', 'enable']) {
      const answer = JSON.parse((await readers(command, email, '--json')).out) as { after: { disabled: boolean } };
      expect(answer.after.disabled, command).toBe(command === 'disable');
    }
    const removed = JSON.parse((await readers('remove', email, '--json')).out) as { removed: { email: string } };
    expect(removed.removed.email).toBe(email);
    const unknown = await readers('show', email, '--json');
    expect(unknown).toEqual({
      code: 2,
      out: '',
      err: JSON.stringify({ error: `no reader has the e-mail address ${email}` }),
    });
    const wrong = await readers('frobnicate', '--json');
    expect(wrong.code).toBe(2);
    expect(JSON.parse(wrong.err)).toEqual({ error: 'unknown command "frobnicate"' });
  });

  it('answers an unknown e-mail, an unknown group and a wrong command with one line and exit code 2', async () => {
    const unknownReader = await readers('show', 'nobody-here@partner.example');
    expect(unknownReader).toEqual({
      code: 2,
      out: '',
      err: 'readers: no reader has the e-mail address nobody-here@partner.example',
    });
    const unknownGroup = await readers('add', address(), '--groups', 'partner,wizards');
    expect(unknownGroup.code).toBe(2);
    expect(unknownGroup.err).toBe(
      'readers: "wizards" is not a group of the access policy (groups: staff, partner, admin)',
    );
    const noGroups = await readers('add', address());
    expect(noGroups.code).toBe(2);
    expect(noGroups.err.split('\n')[0]).toBe('readers: add needs --groups, such as --groups partner');
    expect((await readers('frobnicate')).code).toBe(2);
    // Flags parsed by node:util parseArgs: unknown or misplaced ones are named, not ignored.
    const misspelt = await readers('add', address(), '--grups', 'partner');
    expect(misspelt.code).toBe(2);
    expect(misspelt.err.split('\n')[0]).toBe("readers: Unknown option '--grups'");
    expect((await readers('show', address(), '--groups', 'partner')).err.split('\n')[0]).toBe(
      'readers: show takes no --groups',
    );
    expect((await readers('grant', address())).err.split('\n')[0]).toBe('readers: missing GROUP');
  });

  it('will not disable, remove or demote the last administrator, and changes nothing', async () => {
    // A project of its own in the emulator: its only administrator is this test's.
    const project = `demo-last-admin-${randomUUID().slice(0, 8)}`;
    const own = new EmulatorReaders(inject('emulatorHost'), project);
    const only = await own.create({ groups: ['admin'], email: address() });
    const inProject = (...args: string[]) => readersWith({ DATA_DIR: dataDir, FIREBASE_PROJECT_ID: project }, ...args);
    for (const args of [
      ['disable', only.email],
      ['remove', only.email],
      ['revoke', only.email, 'admin'],
    ]) {
      const refused = await inProject(...args);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.err).toBe(
        `readers: ${only.email} is the last administrator; make another reader an administrator first`,
      );
    }
    expect((await inProject('show', only.email)).out).toMatch(/status: +active.*groups: +admin\n/s);
    // With a second administrator, the first may go.
    const second = await own.create({ groups: ['admin'], email: address() });
    expect((await inProject('revoke', only.email, 'admin')).code).toBe(0);
    expect((await inProject('disable', second.email)).err).toContain('is the last administrator');
  });

  it('will not revoke a group that the e-mail domain gives, and says why', async () => {
    const result = await readers('revoke', 'reader@norigin.example', 'staff');
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/in staff by the e-mail domain rule for norigin\.example/);
  });

  it('names a missing production setting or an unreachable emulator, with exit code 2', async () => {
    const err: string[] = [];
    const io = { out: () => undefined, err: (line: string) => err.push(line) };
    expect(await runReadersCommand(['list'], { NODE_ENV: 'production' }, io)).toBe(2);
    expect(err[0]).toMatch(/^readers: FIREBASE_PROJECT_ID is required in production; /);
    expect(err[0]).not.toMatch(/\n/);
    expect(await runReadersCommand(['list'], { AUTH_EMULATOR_PORT: '1' }, io)).toBe(2);
    expect(err[1]).toBe(
      'readers: cannot reach the Auth Emulator at 127.0.0.1:1; start the portal with "npm start" first, or set AUTH_EMULATOR_PORT to its port',
    );
  });
});

describe('npm run readers writes the audit trail', () => {
  it('with PostgreSQL: every change, by the command line and the user who ran it', async () => {
    const base = inject('postgresUrl');
    const name = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = base.replace(/\/[^/]+$/, `/${name}`);
    const run = (...args: string[]) => readersWith({ DATABASE_URL: url }, ...args);
    const email = address();
    expect((await run('add', email, '--groups', 'partner')).out).toContain('Written to the audit trail.');
    await run('grant', email, 'staff');
    await run('grant', email, 'staff'); // no change, no event
    await run('revoke', email, 'staff');
    await run('disable', email);
    await run('enable', email);
    await run('remove', email);
    await run('show', email); // reading changes nothing
    const db = await openDatabase({ kind: 'postgres', url });
    let rows: AuditRow[];
    try {
      rows = (await queryAudit(db, { reader: email, limit: 100 })).reverse();
    } finally {
      await db.close();
    }
    expect(rows.map((row) => row.kind)).toEqual([
      'admin.invite',
      'admin.groups',
      'admin.groups',
      'admin.disable',
      'admin.enable',
      'admin.remove',
    ]);
    for (const row of rows) {
      expect(row).toMatchObject({ actorEmail: ACTOR, actorUid: null, subjectEmail: email });
      expect(row.detail).toMatchObject({ via: 'readers command', user: userInfo().username });
    }
    expect(rows[1]?.detail).toMatchObject({
      command: `readers grant ${email} staff`,
      before: { groups: ['partner'] },
      after: { groups: ['staff', 'partner'] },
    });
  });

  it('makes no change when the trail cannot be written', async () => {
    const email = address();
    await readers('add', email, '--groups', 'partner');
    const refused = await readersWith(
      { DATABASE_URL: 'postgres://portal@127.0.0.1:1/portal' },
      'grant',
      email,
      'staff',
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^readers: cannot reach the database of the audit trail: /);
    expect((await readers('show', email)).out).toMatch(/groups: +partner$/m);
  });

  // A PGlite folder of its own, opened and migrated: a few seconds, more on a busy machine.
  it(
    'with PGlite: through the inbox, which the running portal writes into its trail',
    { timeout: 120_000 },
    async () => {
      const own = await mkdtemp(join(tmpdir(), 'readers-gate-'));
      const { app, readers: accounts } = await testApp(await makeTestSite(), { DATA_DIR: own });
      try {
        const run = (...args: string[]) => readersWith({ DATA_DIR: own }, ...args);
        const email = address();
        const granted = await run('add', email, '--groups', 'partner');
        expect(granted.code).toBe(0);
        expect(granted.out).toMatch(/Left for the audit trail in .*audit-inbox/);
        await run('disable', email);
        const administrator = await accounts.create({ groups: ['admin'] });
        const cookie = await signInCookie(app, await accounts.signIn(administrator.email, administrator.password));
        const trail = async (): Promise<AuditRow[]> =>
          (
            (
              await app.inject({ url: `/api/admin/audit?reader=${encodeURIComponent(email)}`, headers: { cookie } })
            ).json() as { events: AuditRow[] }
          ).events;
        await expect
          .poll(async () => (await trail()).map((row) => `${row.kind} ${row.actorEmail}`), { timeout: 5000 })
          .toEqual([`admin.disable ${ACTOR}`, `admin.invite ${ACTOR}`]);
        // Written once: the inbox is empty after.
        expect((await readdir(join(own, 'audit-inbox'))).filter((file) => file.endsWith('.json'))).toEqual([]);
        // A file that is not the command's event (a page view, here) is set aside, never written.
        await writeFile(
          join(own, 'audit-inbox', '0-forged.json'),
          JSON.stringify({ kind: 'page.view', at: new Date().toISOString(), actorEmail: email, path: '/docs/' }),
        );
        await expect
          .poll(async () => readdir(join(own, 'audit-inbox')), { timeout: 5000 })
          .toEqual(['0-forged.json.rejected']);
        expect(await trail()).toHaveLength(2);
      } finally {
        await app.close();
        await rm(own, { recursive: true, force: true });
      }
    },
  );
});
