import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { MyAccessAnswer } from '@portal/contract';

import { ORIGIN, readyTestApp, signInCookie } from '../../test/harness.js';
import type { EmulatorReaders } from '../../test/readers.js';
import { makeTestSite } from '../../test/test-site.js';

/**
 * `GET /api/access`, the reader's own view of what they read and why, on the real emulator
 * and the test run's database: a partner sees their organisation's licence with its end
 * date, a company developer their group, and nobody anything of another organisation.
 */
describe("a reader's own access", () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let admin: string;
  const suffix = randomUUID().slice(0, 8);
  const studio = { id: `studio-${suffix}`, name: `Lumen Studio ${suffix}`, domain: `lumen-${suffix}.example` };
  const rival = { id: `rival-${suffix}`, name: `Rival Canary ${suffix}`, domain: `rival-${suffix}.example` };

  const call = (method: 'GET' | 'POST', url: string, cookie: string, payload?: object) =>
    app.inject({ method, url, headers: { cookie, origin: ORIGIN }, ...(payload === undefined ? {} : { payload }) });
  const accessOf = async (cookie: string) => {
    const answer = await call('GET', '/api/access', cookie);
    expect(answer.statusCode, answer.body).toBe(200);
    return { json: answer.json() as MyAccessAnswer, body: answer.body };
  };

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(await makeTestSite()));
    const account = await readers.create({ groups: ['admin'] });
    admin = await signInCookie(app, await readers.signIn(account.email, account.password));
    for (const organisation of [studio, rival]) {
      const made = await call('POST', '/api/admin/organisations', admin, {
        id: organisation.id,
        name: organisation.name,
        domains: [organisation.domain],
      });
      expect(made.statusCode, made.body).toBe(201);
    }
    for (const [id, licence] of [
      [studio.id, { units: ['layout'], endsOn: '2027-01-31' }],
      [studio.id, { units: ['blog'] }],
      [rival.id, { units: ['whitelabel'] }],
    ] as const) {
      const granted = await call('POST', `/api/admin/organisations/${id}/licences`, admin, licence);
      expect(granted.statusCode, granted.body).toBe(201);
    }
  });
  afterAll(async () => {
    await app?.close();
  });

  it("shows a partner their organisation and each licensed package with its end, and nothing of another's", async () => {
    const partner = await readers.create({ groups: [], email: `dev-${suffix}@${studio.domain}` });
    const { json, body } = await accessOf(
      await signInCookie(app, await readers.signIn(partner.email, partner.password)),
    );
    expect(json.organisation).toEqual({ id: studio.id, name: studio.name });
    expect(json.units.map((unit) => [unit.unit, unit.sources])).toEqual([
      ['layout', [{ kind: 'licence', organisation: studio.name, endsAt: '2027-01-31T23:59:59.999Z' }]],
      ['blog', [{ kind: 'licence', organisation: studio.name, endsAt: null }]],
    ]);
    expect(json.units.every((unit) => unit.unitLabel.length > 0 && unit.unitLabel !== unit.unit)).toBe(true);
    expect(body).not.toContain(rival.name);
    expect(body).not.toContain('whitelabel');
  });

  it('shows a company developer the group every package comes from, and no organisation', async () => {
    const staff = await readers.create({ groups: ['staff'] });
    const { json } = await accessOf(await signInCookie(app, await readers.signIn(staff.email, staff.password)));
    expect(json.organisation).toBeNull();
    expect(json.units.length).toBeGreaterThan(10);
    for (const unit of json.units) expect(unit.sources).toEqual([{ kind: 'group', group: 'staff' }]);
  });

  it('does not count a domain whose address is not verified', async () => {
    const unverified = await readers.create({
      groups: ['partner'],
      email: `new-${suffix}@${studio.domain}`,
      emailVerified: false,
    });
    const { json } = await accessOf(
      await signInCookie(app, await readers.signIn(unverified.email, unverified.password)),
    );
    expect(json.organisation).toBeNull();
    expect(json.units.flatMap((unit) => unit.sources.map((source) => source.kind))).not.toContain('licence');
  });

  it("gives administrators an organisation's access report as CSV: its readers by domain and by name, nobody of another", async () => {
    const member = await readers.create({ groups: [], email: `lead-${suffix}@${studio.domain}` });
    await signInCookie(app, await readers.signIn(member.email, member.password));
    const canary = await readers.create({ groups: [], email: `canary-${suffix}@${rival.domain}` });
    await signInCookie(app, await readers.signIn(canary.email, canary.password));
    const consultant = `consultant-${suffix}@freelance.example`;
    const placed = await app.inject({
      method: 'PUT',
      url: `/api/admin/memberships/${encodeURIComponent(consultant)}`,
      headers: { cookie: admin, origin: ORIGIN },
      payload: { organisation: studio.id, groups: [] },
    });
    expect(placed.statusCode, placed.body).toBe(204);
    // A membership that gives a group and places nowhere leaves the reader with their domain's organisation.
    const group = `reviewers-${suffix}`;
    const made = await app.inject({
      method: 'PUT',
      url: `/api/admin/access-groups/${group}`,
      headers: { cookie: admin, origin: ORIGIN },
      payload: { label: 'Reviewers', units: ['conventions'] },
    });
    expect(made.statusCode, made.body).toBe(204);
    const grouped = await app.inject({
      method: 'PUT',
      url: `/api/admin/memberships/${encodeURIComponent(member.email)}`,
      headers: { cookie: admin, origin: ORIGIN },
      payload: { organisation: null, groups: [group] },
    });
    expect(grouped.statusCode, grouped.body).toBe(204);

    const report = await app.inject({
      url: `/api/admin/organisations/${studio.id}/access.csv`,
      headers: { cookie: admin },
    });
    expect(report.statusCode, report.body).toBe(200);
    expect(report.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(report.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="access-${studio.id}-`));
    const lines = report.body.trim().split('\n');
    expect(lines[0]).toBe('email,member_by,package,unit,from,ends_on');
    expect(lines).toContain(`${consultant},added by name,Layout Engine,layout,licence,2027-01-31`);
    expect(lines).toContain(`${member.email},e-mail domain,Layout Engine,layout,licence,2027-01-31`);
    expect(lines).toContain(`${member.email},e-mail domain,Blog,blog,licence,`);
    expect(lines).toContain(`${member.email},e-mail domain,Portal conventions,conventions,group ${group},`);
    expect(report.body).not.toContain(canary.email);
    expect(report.body).not.toContain('whitelabel');

    const partner = await readers.create({ groups: ['partner'] });
    const refused = await app.inject({
      url: `/api/admin/organisations/${studio.id}/access.csv`,
      headers: { cookie: await signInCookie(app, await readers.signIn(partner.email, partner.password)) },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain(member.email);
    const missing = await app.inject({
      url: '/api/admin/organisations/nobody-here/access.csv',
      headers: { cookie: admin },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'No organisation "nobody-here"' });
  });

  it('answers nobody who is not signed in', async () => {
    const anonymous = await app.inject({ url: '/api/access' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain(studio.name);
    const report = await app.inject({ url: `/api/admin/organisations/${studio.id}/access.csv` });
    expect(report.statusCode).toBe(401);
    expect(report.body).not.toContain(studio.domain);
  });
});
