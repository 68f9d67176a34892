import { randomUUID } from 'node:crypto';

import { beforeAll, describe, expect, inject, it } from 'vitest';

import { EmulatorReaders } from '../test/readers.js';
import { runReadersCommand } from './readers.js';

/** Runs the command against the test run's emulator; returns its exit code and output. */
async function readers(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const port = inject('emulatorHost').split(':')[1] ?? '';
  const code = await runReadersCommand(
    args,
    { AUTH_EMULATOR_PORT: port, FIREBASE_PROJECT_ID: inject('emulatorProjectId') },
    { out: (line) => out.push(line), err: (line) => err.push(line) },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('npm run readers', () => {
  let directory: EmulatorReaders;
  beforeAll(() => {
    directory = new EmulatorReaders(inject('emulatorHost'), inject('emulatorProjectId'));
  });
  const address = (): string => `cli-${randomUUID().slice(0, 8)}@partner.example`;

  it('adds a reader in groups and prints a link to set the password, never a token', async () => {
    const email = address();
    const added = await readers('add', email, '--groups', 'partner');
    expect(added.code).toBe(0);
    expect(added.out).toContain(`Created ${email} in partner.`);
    expect(added.out).toMatch(/mode=resetPassword&.*oobCode=/);
    expect(added.out).not.toMatch(/eyJ[\w-]{20,}/); // no JWT
    const shown = await readers('show', email);
    expect(shown.out).toMatch(/groups: +partner/);
    expect(shown.out).toContain('set by an administrator: partner');
    // The link sets a password (the emulator takes it as a query parameter), and the reader signs in.
    const link = /(http:\S+oobCode=\S+)/.exec(added.out)?.[1] ?? '';
    expect((await fetch(`${link}&newPassword=first-light-42`)).status).toBe(200);
    await expect(directory.signIn(email, 'first-light-42')).resolves.toMatch(/\./);
  });

  it('grants and revokes groups, lists by group, disables and enables', async () => {
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
