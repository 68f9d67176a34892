import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { policy } from '@portal/access';
import type { SessionAnswer } from '@portal/contract';

import { startMailCatcher, type MailCatcher } from '../../tools/lib/mail-catcher.mjs';
import { Licences } from './auth/licences.js';
import type { Database } from './db/database.js';
import { emptyAccessData, insertLicence, insertOrganisation, loadAccessData, type AccessData } from './db/licences.js';
import { migrate } from './db/migrations.js';
import { dueNotices, endingSoon, noticeMail, sendDueNotices } from './licence-notices.js';
import { Mailer } from './mail.js';
import { sharedState } from './shared.js';
import { freshDatabase } from './test/databases.js';
import { ORIGIN, readyTestApp, signInCookie } from './test/harness.js';
import type { EmulatorReaders } from './test/readers.js';
import { makeTestSite } from './test/test-site.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-12-03T10:00:00Z');
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

const organisation = (id: string, contact: string | null = `tv@${id}.example`) => ({
  id,
  name: `${id[0]?.toUpperCase()}${id.slice(1)} Media`,
  domains: [`${id}.example`],
  contact,
  createdAt: new Date(NOW - 100 * DAY),
  signIn: null,
});
const licence = (id: string, organisationId: string, endsAt: Date | null, units = ['layout']) => ({
  id,
  organisationId,
  units,
  endsAt,
  createdAt: new Date(NOW - 100 * DAY),
  createdBy: 'admin@norigin.example',
});

describe('which licence notices are due', () => {
  const data: AccessData = {
    ...emptyAccessData(),
    organisations: [organisation('lumen'), organisation('halcyon')],
    licences: [
      licence('open-ended', 'lumen', null),
      licence('ended', 'lumen', new Date(NOW - 1)),
      licence('in-20-days', 'lumen', new Date(NOW + 20 * DAY)),
      licence('in-10-days', 'lumen', new Date(NOW + 10 * DAY)),
      licence('tonight', 'halcyon', new Date('2026-12-03T23:59:59.999Z')),
      licence('of-nobody', 'removed', new Date(NOW + DAY)),
    ],
  };

  it('announces a licence within the notice days ahead, and one ending today on the day; never one without an end, ended, or later', () => {
    expect(dueNotices(data, NOW, 14).map((notice) => [notice.licence.id, notice.kind])).toEqual([
      ['in-10-days', 'ahead'],
      ['tonight', 'day'],
    ]);
    expect(dueNotices(data, NOW, 30).map((notice) => notice.licence.id)).toEqual([
      'in-20-days',
      'in-10-days',
      'tonight',
    ]);
    expect(dueNotices(data, NOW, 1).map((notice) => notice.licence.id)).toEqual(['tonight']);
  });

  it("tells the contact what ends and whom to write to, the team where to renew it, with the organisation's name as text", () => {
    const hostile = { ...organisation('lumen'), name: '<img src=x onerror=alert(1)>' };
    const [notice] = dueNotices(
      { ...data, organisations: [hostile], licences: [licence('l', 'lumen', new Date(NOW + 9.5 * DAY), ['layout'])] },
      NOW,
      14,
    );
    if (!notice) throw new Error('no notice');
    const toContact = noticeMail(notice, 'tv@lumen.example', 'https://docs.example.com', NOW);
    expect(toContact.subject).toBe(
      '<img src=x onerror=alert(1)>’s licence of the Norigin Developer Docs ends on 12 December 2026',
    );
    expect(toContact.text).toContain('ends on 12 December 2026, in 9 days');
    expect(toContact.text).toContain(policy.requestAccess.email);
    expect(toContact.html).not.toContain('<img');
    expect(toContact.html).toContain('&#60;img');
    const toTeam = noticeMail(notice, policy.requestAccess.email, 'https://docs.example.com', NOW);
    expect(toTeam.text).toContain('https://docs.example.com/admin/organisations');
    const onTheDay = noticeMail({ ...notice, kind: 'day' }, 'tv@lumen.example', null, NOW);
    expect(onTheDay.subject).toMatch(/ends today$/);
    expect(onTheDay.text).toContain('ends today');
  });
});

describe('what a reader stops reading soon', () => {
  const licences = new Licences({
    db: () => null,
    shared: sharedState(null, quiet),
    log: quiet,
    clock: () => NOW,
  });
  afterAll(() => licences.close());
  licences.use({
    ...emptyAccessData(),
    organisations: [organisation('lumen')],
    licences: [
      licence('soon', 'lumen', new Date(NOW + 5 * DAY), ['layout', 'whitelabel', 'conventions']),
      licence('later', 'lumen', new Date(NOW + 60 * DAY), ['whitelabel']),
    ],
    grants: [
      { id: 'g', email: 'dev@lumen.example', units: ['conventions'], endsAt: null, requestId: null },
      { id: 'h', email: 'lead@lumen.example', units: ['layout'], endsAt: new Date(NOW + 3 * DAY), requestId: null },
    ],
  });
  const reader = (email: string, groups: string[] = []) => ({ email, emailVerified: true, groups });

  it('names each package only the ending licence gives, with the day it stops; a longer licence, a grant or a group keeps the rest', () => {
    expect(endingSoon(licences, reader('dev@lumen.example'), NOW, 14)).toEqual({
      organisation: 'Lumen Media',
      units: [{ unit: 'layout', unitLabel: expect.any(String), endsAt: new Date(NOW + 5 * DAY).toISOString() }],
    });
    // A grant that ends before the licence: the package stops with the later of the two.
    expect(endingSoon(licences, reader('lead@lumen.example'), NOW, 14)?.units.map((unit) => unit.unit)).toEqual([
      'layout',
      'conventions',
    ]);
    expect(endingSoon(licences, reader('dev@lumen.example'), NOW, 3)).toBeNull();
    expect(endingSoon(licences, reader('staff@lumen.example', ['staff']), NOW, 14)).toBeNull();
    expect(endingSoon(licences, reader('someone@elsewhere.example'), NOW, 14)).toBeNull();
  });
});

describe.each(['pglite', 'postgres'] as const)('licence notices sent once (%s)', (kind) => {
  let db: Database;
  let catcher: MailCatcher;
  let mailer: Mailer;
  beforeAll(async () => {
    db = await freshDatabase(kind);
    await migrate(db);
    catcher = await startMailCatcher();
    mailer = new Mailer({ smtpUrl: catcher.smtpUrl, from: 'docs@norigin.example', log: quiet });
  });
  afterAll(async () => {
    mailer?.close();
    await catcher?.stop();
    await db?.close();
  });

  it('sends each notice once when replicas look at the same moment, and again for a new end date', async () => {
    const id = `org-${randomUUID().slice(0, 8)}`;
    await insertOrganisation(db, { id, name: 'Kestrel TV', domains: [`${id}.example`], contact: `apps@${id}.example` });
    const licenceId = await insertLicence(db, {
      organisationId: id,
      units: ['layout'],
      endsAt: new Date(NOW + 6 * DAY),
      createdBy: 'admin@norigin.example',
    });
    const send = async () =>
      sendDueNotices({ db, data: await loadAccessData(db), mailer, now: NOW, days: 14, origin: null });
    const [first, second, third] = await Promise.all([send(), send(), send()]);
    expect([first, second, third].map((sent) => sent.length).sort()).toEqual([0, 0, 1]);
    expect(await send()).toEqual([]);
    await mailer.sent();
    const mails = (await catcher.messages()).filter((mail) => mail.subject.startsWith('Kestrel TV'));
    expect(mails.flatMap((mail) => mail.to.map((to) => to.address)).sort()).toEqual(
      [`apps@${id}.example`, policy.requestAccess.email].sort(),
    );

    await db.query('update licences set ends_at = $1 where id = $2', [new Date(NOW + 8 * DAY), licenceId]);
    expect((await send()).map((notice) => notice.licence.endsAt.toISOString())).toEqual([
      new Date(NOW + 8 * DAY).toISOString(),
    ]);
  });
});

/**
 * The gate as it runs: an administrator gives an organisation a licence that ends in five
 * days; its contact and the team get one mail each (two replicas on one database), and the
 * organisation's reader sees the ending in their session answer, which the banner shows.
 */
describe('licence notices in the running gate', () => {
  let catcher: MailCatcher;
  let apps: FastifyInstance[] = [];
  let readers: EmulatorReaders;
  beforeAll(async () => {
    catcher = await startMailCatcher();
    const site = await makeTestSite();
    const env = { SMTP_URL: catcher.smtpUrl, LICENCE_NOTICE_DAYS: '14' };
    const first = await readyTestApp(site, env);
    readers = first.readers;
    apps = [first.app, (await readyTestApp(site, env)).app];
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await catcher?.stop();
  });

  it("mails the contact and the team once, and shows the organisation's reader what stops and when", async () => {
    const [app] = apps as [FastifyInstance];
    const suffix = randomUUID().slice(0, 8);
    const domain = `osprey-${suffix}.example`;
    const admin = await readers.create({ groups: ['admin'] });
    const cookie = await signInCookie(app, await readers.signIn(admin.email, admin.password));
    const call = (url: string, payload: object) =>
      app.inject({ method: 'POST', url, headers: { cookie, origin: ORIGIN }, payload });
    const id = `osprey-${suffix}`;
    const name = `Osprey ${suffix}`;
    expect(
      (await call('/api/admin/organisations', { id, name, domains: [domain], contact: `tv@${domain}` })).statusCode,
    ).toBe(201);
    const endsOn = new Date(Date.now() + 5 * DAY).toISOString().slice(0, 10);
    expect((await call(`/api/admin/organisations/${id}/licences`, { units: ['layout'], endsOn })).statusCode).toBe(201);

    let mails: Awaited<ReturnType<MailCatcher['messages']>> = [];
    for (let tries = 0; tries < 100 && mails.length < 2; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      mails = (await catcher.messages()).filter((mail) => mail.subject.startsWith(name));
    }
    expect(mails.flatMap((mail) => mail.to.map((to) => to.address)).sort()).toEqual(
      [`tv@${domain}`, policy.requestAccess.email].sort(),
    );
    for (const app of apps) await app.licenceNotices.check();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await catcher.messages()).filter((mail) => mail.subject.startsWith(name))).toHaveLength(2);

    const partner = await readers.create({ groups: [], email: `dev-${suffix}@${domain}` });
    const session = await app.inject({
      url: '/api/session',
      headers: { cookie: await signInCookie(app, await readers.signIn(partner.email, partner.password)) },
    });
    expect((session.json() as SessionAnswer).licenceEnding).toEqual({
      organisation: name,
      units: [{ unit: 'layout', unitLabel: expect.any(String), endsAt: `${endsOn}T23:59:59.999Z` }],
    });
    const staff = await app.inject({ url: '/api/session', headers: { cookie } });
    expect(staff.json()).not.toHaveProperty('licenceEnding');
  });
});
