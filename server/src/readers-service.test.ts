import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';

import { firebaseAuth } from './auth/firebase.js';
import { ReaderDirectory, ReaderError } from './auth/readers.js';
import type { AuditEvent } from './db/audit.js';
import { ReaderService, type Actor } from './readers-service.js';
import { EmulatorReaders } from './test/readers.js';

/**
 * The guards of the readers service against the real Auth Emulator, in a project of their
 * own: its administrators are this file's alone, so "the last administrator" is known.
 */
describe('the readers service keeps one administrator', () => {
  const project = `demo-last-admin-${randomUUID().slice(0, 8)}`;
  let readers: EmulatorReaders;
  let directory: ReaderDirectory;
  let close: () => Promise<void>;
  const recorded: AuditEvent[] = [];
  const actor = (uid: string | null, email: string): Actor => ({
    uid,
    email,
    record: (event) => void recorded.push(event),
  });

  beforeAll(() => {
    process.env.FIREBASE_AUTH_EMULATOR_HOST = inject('emulatorHost');
    const made = firebaseAuth({
      projectId: project,
      apiKey: 'demo-api-key',
      authDomain: 'localhost',
      emulatorHost: inject('emulatorHost'),
      serviceAccountJson: null,
    });
    directory = new ReaderDirectory(made.auth);
    close = made.close;
    readers = new EmulatorReaders(inject('emulatorHost'), project);
  });
  afterAll(() => close());

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => (error instanceof ReaderError ? `${error.code}: ${error.message}` : String(error)),
    );

  it("refuses to disable, remove or demote the last administrator or one's own account, and changes nothing", async () => {
    const only = await readers.create({ groups: ['admin'], email: `only-${randomUUID().slice(0, 8)}@readers.example` });
    onTestFinished(() => readers.remove(only.uid));
    const service = new ReaderService({ directory });
    const cli = actor(null, 'cli:tester');
    const last = `guarded: ${only.email} is the last administrator; make another reader an administrator first`;
    expect(await refusal(service.setDisabled(cli, only.uid, true))).toBe(last);
    expect(await refusal(service.remove(cli, only.uid))).toBe(last);
    expect(await refusal(service.setGroups(cli, only.uid, ['staff']))).toBe(last);
    expect(await refusal(service.revoke(cli, only.email, 'admin'))).toBe(last);
    const self = actor(only.uid, only.email);
    expect(await refusal(service.setDisabled(self, only.uid, true))).toBe(
      'guarded: You cannot disable your own account; another administrator can',
    );
    expect(await directory.get(only.uid)).toMatchObject({ disabled: false, groups: ['admin'] });
    expect(recorded).toEqual([]);
    // Enabling, and changing groups that keep admin, are no threat.
    expect(await refusal(service.setGroups(cli, only.uid, ['admin', 'staff']))).toBeNull();
    expect(await refusal(service.setDisabled(cli, only.uid, false))).toBeNull();
  });

  it('of two administrators demoting each other at the same moment, one stays an administrator', async () => {
    const service = new ReaderService({ directory });
    const [first, second] = await Promise.all(
      ['first', 'second'].map((name) =>
        readers.create({ groups: ['admin'], email: `${name}-${randomUUID().slice(0, 8)}@readers.example` }),
      ),
    );
    if (!first || !second) throw new Error('two administrators were not made');
    const outcomes = await Promise.all([
      refusal(service.setGroups(actor(first.uid, first.email), second.uid, ['staff'])),
      refusal(service.setGroups(actor(second.uid, second.email), first.uid, ['staff'])),
    ]);
    expect(outcomes.filter((outcome) => outcome === null)).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome !== null)).toMatch(/^guarded: .* is the last administrator/);
    const admins = (await directory.list('admin')).map((account) => account.uid);
    expect(admins).toHaveLength(1);
  });
});
