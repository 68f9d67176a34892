import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { REQUEST_ACCESS } from '@portal/access';

import { startMailCatcher, type MailCatcher } from '../../../../tools/lib/mail-catcher.mjs';
import { ORIGIN, readyTestApp, signInCookie } from '../../test/harness.js';
import type { EmulatorReaders } from '../../test/readers.js';
import { makeTestSite, miniSite, PRIVATE_CANARY } from '../../test/test-site.js';

interface Json {
  [key: string]: unknown;
}

const REFUSAL_MARK = 'The refusal page of the site';

/**
 * Asking for access, through the gate as readers and administrators meet it: the real
 * identity emulator, the test run's database, and MailDev as the mail server. A reader
 * refused a page learns its unit and why, asks once, and reads it on their next request
 * after an administrator approves it (for them, or for their whole organisation).
 */
describe('access requests', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let mail: MailCatcher;
  let admin: string;
  let member: string;
  let colleague: string;
  const suffix = randomUUID().slice(0, 8);
  const organisation = `req-${suffix}`;
  const domain = `asking-${suffix}.example`;

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie, origin: ORIGIN },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
  const read = (cookie: string, path: string) => app.inject({ method: 'GET', url: path, headers: { cookie } });
  const caught = async (to: string, subject: string) =>
    (await mail.messages()).find(
      (message) => message.to.some((address) => address.address === to) && message.subject.includes(subject),
    );

  beforeAll(async () => {
    mail = await startMailCatcher();
    const site = await makeTestSite({
      ...miniSite,
      'account/refused/index.html': `<!doctype html><html><head><title>No access</title></head><body><p>${REFUSAL_MARK}</p>${' '.repeat(300)}</body></html>`,
    });
    ({ app, readers } = await readyTestApp(site, { SMTP_URL: mail.smtpUrl }));
    const account = await readers.create({ groups: ['admin'] });
    admin = await signInCookie(app, await readers.signIn(account.email, account.password));
    expect(
      (
        await call('POST', '/api/admin/organisations', admin, {
          id: organisation,
          name: 'Asking Studio',
          domains: [domain],
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (await call('POST', `/api/admin/organisations/${organisation}/licences`, admin, { units: ['blog'] })).statusCode,
    ).toBe(201);
    const one = await readers.create({ groups: [], email: `dev-${suffix}@${domain}` });
    const two = await readers.create({ groups: [], email: `lead-${suffix}@${domain}` });
    member = await signInCookie(app, await readers.signIn(one.email, one.password));
    colleague = await signInCookie(app, await readers.signIn(two.email, two.password));
  });
  afterAll(async () => {
    await app?.close();
    await mail?.stop();
  });

  it("answers a refused page with the site's refusal page, and says which unit and why", async () => {
    const page = await read(member, '/docs/layout-engine/');
    expect(page.statusCode).toBe(403);
    expect(page.body).toContain(REFUSAL_MARK);
    expect(page.body).not.toContain(PRIVATE_CANARY);
    expect(page.headers['cache-control']).toContain('no-store');

    const why = await call('GET', '/api/access/refusal?path=/docs/layout-engine/', member);
    expect(why.statusCode, why.body).toBe(200);
    expect(why.json()).toMatchObject({
      unit: 'layout',
      unitLabel: 'Layout Engine',
      reason: 'not-licensed',
      organisation: 'Asking Studio',
      canAsk: true,
      request: null,
    });
    const internal = (await call('GET', '/api/access/refusal?path=/docs/frontend-guidelines/GitFlow/', member)).json();
    expect(internal).toMatchObject({ unit: 'internal', reason: 'internal', canAsk: false });
    const readable = (await call('GET', '/api/access/refusal?path=/blog', member)).json();
    expect(readable).toMatchObject({ reason: 'readable', canAsk: false });
    expect((await call('GET', '/api/access/refusal?path=/docs', member)).statusCode).toBe(404);
    // Signed out: no answer at all.
    expect((await call('GET', '/api/access/refusal?path=/docs/layout-engine/', '')).statusCode).toBe(401);
  });

  it('takes one request per unit, refuses what cannot be asked for, and tells the team', async () => {
    const internal = await call('POST', '/api/access-requests', member, {
      path: '/docs/frontend-guidelines/GitFlow/',
      reason: '',
    });
    expect(internal.statusCode).toBe(400);
    expect(internal.json().error).toContain('cannot be asked for');
    expect((await call('POST', '/api/access-requests', member, { path: '/blog', reason: '' })).statusCode).toBe(409);
    expect(
      (await call('POST', '/api/access-requests', member, { path: '/docs/layout-engine/', reason: 'x'.repeat(501) }))
        .statusCode,
    ).toBe(400);
    // From another site: refused before anything is written.
    const forged = await app.inject({
      method: 'POST',
      url: '/api/access-requests',
      headers: { cookie: member, origin: 'https://evil.example' },
      payload: { path: '/docs/layout-engine/', reason: '' },
    });
    expect(forged.statusCode).toBe(403);

    const asked = await call('POST', '/api/access-requests', member, {
      path: '/docs/layout-engine/',
      reason: 'We build our programme guide on it',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    expect(asked.json()).toMatchObject({ unit: 'layout', status: 'pending' });
    const again = await call('POST', '/api/access-requests', member, {
      path: '/docs/layout-engine/CHANGELOG/',
      reason: '',
    });
    expect(again.statusCode).toBe(409);
    expect((await call('GET', '/api/access/refusal?path=/docs/layout-engine/', member)).json()).toMatchObject({
      canAsk: false,
      request: { status: 'pending' },
    });
    await expect.poll(() => caught(REQUEST_ACCESS.email, 'Layout Engine'), { timeout: 5000 }).toBeTruthy();
  });

  it('lets only administrators see and answer the queue', async () => {
    expect((await call('GET', '/api/admin/access-requests', member)).statusCode).toBe(403);
    const queue = (await call('GET', '/api/admin/access-requests', admin)).json() as {
      requests: (Json & { organisation: Json | null })[];
    };
    const mine = queue.requests.find((request) => request.email === `dev-${suffix}@${domain}`);
    expect(mine).toMatchObject({
      unit: 'layout',
      status: 'pending',
      reason: 'We build our programme guide on it',
      organisation: { id: organisation, name: 'Asking Studio' },
    });
    expect(
      (await call('POST', `/api/admin/access-requests/${String(mine?.id)}/approve`, member, { for: 'reader' }))
        .statusCode,
    ).toBe(403);
  });

  it('approved for the organisation, the reader and a colleague read it on their next request', async () => {
    const queue = (await call('GET', '/api/admin/access-requests', admin)).json() as { requests: Json[] };
    const id = String(queue.requests.find((request) => request.email === `dev-${suffix}@${domain}`)?.id);
    expect(
      (
        await call('POST', `/api/admin/access-requests/${id}/approve`, admin, {
          for: 'organisation',
          endsOn: '2026-02-30',
        })
      ).statusCode,
    ).toBe(400);
    expect((await read(member, '/docs/layout-engine/')).statusCode).toBe(403);

    const approvedAt = Date.now();
    const approved = await call('POST', `/api/admin/access-requests/${id}/approve`, admin, {
      for: 'organisation',
      endsOn: '2099-12-31',
    });
    expect(approved.statusCode, approved.body).toBe(204);
    for (const cookie of [member, colleague]) {
      const page = await read(cookie, '/docs/layout-engine/');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(PRIVATE_CANARY);
    }
    expect(Date.now() - approvedAt).toBeLessThan(1000);
    // Answered once.
    expect((await call('POST', `/api/admin/access-requests/${id}/approve`, admin, { for: 'reader' })).statusCode).toBe(
      409,
    );

    const mine = (await call('GET', '/api/access-requests', member)).json() as { requests: Json[] };
    expect(mine.requests[0]).toMatchObject({ status: 'approved', grantedTo: 'organisation' });
    expect(String(mine.requests[0]?.endsAt)).toMatch(/^2099-12-31T23:59:59/);
    const access = (await call('GET', '/api/admin/access', admin)).json() as {
      organisations: { id: string; licences: { units: string[] }[] }[];
    };
    expect(access.organisations.find((o) => o.id === organisation)?.licences.map((l) => l.units)).toContainEqual([
      'layout',
    ]);
    const trail = (await call('GET', '/api/admin/audit?kind=admin.access-request', admin)).json() as { events: Json[] };
    expect(trail.events.find((event) => (event.detail as Json).request === id)?.detail).toMatchObject({
      action: 'approved',
      unit: 'layout',
      for: 'organisation',
      organisation,
      endsOn: '2099-12-31',
    });
    await expect
      .poll(() => caught(`dev-${suffix}@${domain}`, 'You can now read Layout Engine'), { timeout: 5000 })
      .toBeTruthy();
  });

  it('approves for the reader alone, and declines with a reason the reader sees', async () => {
    const other = await readers.create({ groups: [], email: `solo-${suffix}@${domain}` });
    const solo = await signInCookie(app, await readers.signIn(other.email, other.password));
    const path = '/docs/player-manager-mono/packages/player-adapter-dash.js/';
    expect((await read(solo, path)).statusCode).toBe(403);
    const request = (
      await call('POST', '/api/access-requests', solo, { path, reason: 'DASH on our set-top box' })
    ).json() as Json;
    expect(request.unit).toBe('player-adapter-dash');
    const approval = await call('POST', `/api/admin/access-requests/${String(request.id)}/approve`, admin, {
      for: 'reader',
    });
    expect(approval.statusCode, approval.body).toBe(204);
    expect((await read(solo, path)).statusCode).toBe(200);
    // Their colleagues do not get it.
    expect((await read(member, path)).statusCode).toBe(403);

    const declined = (await call('POST', '/api/access-requests', member, { path, reason: '' })).json() as Json;
    const empty = await call('POST', `/api/admin/access-requests/${String(declined.id)}/decline`, admin, {
      reason: ' ',
    });
    expect(empty.statusCode).toBe(400);
    const answer = 'Your contract covers the Shaka adapter only';
    expect(
      (await call('POST', `/api/admin/access-requests/${String(declined.id)}/decline`, admin, { reason: answer }))
        .statusCode,
    ).toBe(204);
    const mine = (await call('GET', '/api/access-requests', member)).json() as { requests: Json[] };
    expect(mine.requests.find((r) => r.id === declined.id)).toMatchObject({ status: 'declined', answer });
    expect((await read(member, path)).statusCode).toBe(403);
    // Declined, they may ask again.
    expect((await call('GET', `/api/access/refusal?path=${path}`, member)).json()).toMatchObject({ canAsk: true });
    await expect
      .poll(() => caught(`dev-${suffix}@${domain}`, 'Your request for DASH adapter'), { timeout: 5000 })
      .toBeTruthy();
  });

  it("lets an administrator revoke a reader's own grant where the reader is managed: it stops at their next request, audited", async () => {
    const other = await readers.create({ groups: [], email: `granted-${suffix}@${domain}` });
    const granted = await signInCookie(app, await readers.signIn(other.email, other.password));
    const path = '/docs/player-manager-mono/packages/player-adapter-dash.js/';
    const asked = await call('POST', '/api/access-requests', granted, { path, reason: 'Our guide' });
    expect(asked.statusCode, asked.body).toBe(201);
    const request = asked.json() as Json;
    const approval = await call('POST', `/api/admin/access-requests/${String(request.id)}/approve`, admin, {
      for: 'reader',
      endsOn: '2031-01-31',
    });
    expect(approval.statusCode, approval.body).toBe(204);
    expect((await read(granted, path)).statusCode).toBe(200);
    // The readers table names the grant, with the id its revoke button sends.
    const page = (await call('GET', `/api/admin/readers?q=${encodeURIComponent(other.email)}`, admin)).json() as {
      access: Record<string, { units: { unit: string; sources: { kind: string; id?: string; endsAt?: string }[] }[] }>;
    };
    const source = page.access[other.uid]?.units
      .find((unit) => unit.unit === 'player-adapter-dash')
      ?.sources.find((candidate) => candidate.kind === 'grant');
    expect(source).toEqual({ kind: 'grant', endsAt: '2031-01-31T23:59:59.999Z', id: expect.any(String) });

    const url = `/api/admin/grants/${String(source?.id)}`;
    expect((await app.inject({ method: 'DELETE', url, headers: { cookie: member, origin: ORIGIN } })).statusCode).toBe(
      403,
    );
    expect((await read(granted, path)).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url, headers: { cookie: admin, origin: ORIGIN } })).statusCode).toBe(
      204,
    );
    expect((await read(granted, path)).statusCode).toBe(403);
    const again = await app.inject({ method: 'DELETE', url, headers: { cookie: admin, origin: ORIGIN } });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ error: `No grant "${String(source?.id)}"; it may have been revoked already` });
    const trail = (await call('GET', '/api/admin/audit?kind=admin.grant', admin)).json() as { events: Json[] };
    expect(trail.events.find((event) => event.subjectEmail === other.email)).toMatchObject({
      detail: {
        grant: source?.id,
        action: 'revoked',
        units: ['player-adapter-dash'],
        endsAt: '2031-01-31T23:59:59.999Z',
      },
    });
  });

  it('refuses an approval for the organisation of a reader who has none, and changes nothing', async () => {
    const group = `readers-${suffix}`;
    expect(
      (await call('PUT', `/api/admin/access-groups/${group}`, admin, { label: 'Blog readers', units: ['blog'] }))
        .statusCode,
    ).toBe(204);
    const account = await readers.create({ groups: [], email: `free-${suffix}@nowhere-${suffix}.example` });
    expect(
      (
        await call('PUT', `/api/admin/memberships/${encodeURIComponent(account.email)}`, admin, {
          organisation: null,
          groups: [group],
        })
      ).statusCode,
    ).toBe(204);
    const cookie = await signInCookie(app, await readers.signIn(account.email, account.password));
    expect((await call('GET', '/api/access/refusal?path=/docs/layout-engine/', cookie)).json()).toMatchObject({
      reason: 'not-licensed',
      organisation: null,
    });
    const request = (
      await call('POST', '/api/access-requests', cookie, { path: '/docs/layout-engine/', reason: '' })
    ).json() as Json;
    const refused = await call('POST', `/api/admin/access-requests/${String(request.id)}/approve`, admin, {
      for: 'organisation',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toContain('belongs to no organisation');
    // Nothing was written: the request still waits, and the page is still refused.
    expect((await call('GET', '/api/access-requests', cookie)).json()).toMatchObject({
      requests: [{ status: 'pending' }],
    });
    expect((await read(cookie, '/docs/layout-engine/')).statusCode).toBe(403);
  });
});
