import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AccessOverview } from '@portal/contract';

import { freshPostgresUrl } from '../../test/databases.js';
import { ORIGIN, readyTestApp, signInCookie } from '../../test/harness.js';
import { makeTestSite } from '../../test/test-site.js';

const READERS = 10_000;

/**
 * An organisation of 10,000 readers, added by name from one CSV import (on a database of the
 * test's own, so the other tests' access data stays small): its access report lists every
 * reader and package in one answer, and its overview counts them all.
 */
describe(`the access report of an organisation of ${READERS.toLocaleString('en')} readers`, () => {
  let app: FastifyInstance;
  let admin: string;
  const id = `big-${randomUUID().slice(0, 8)}`;
  const call = (method: 'GET' | 'POST', url: string, payload?: object | string, type?: string) =>
    app.inject({
      method,
      url,
      headers: { cookie: admin, origin: ORIGIN, ...(type ? { 'content-type': type } : {}) },
      ...(payload === undefined ? {} : { payload }),
    });

  beforeAll(async () => {
    const made = await readyTestApp(await makeTestSite(), { DATABASE_URL: await freshPostgresUrl() });
    app = made.app;
    const account = await made.readers.create({ groups: ['admin'] });
    admin = await signInCookie(app, await made.readers.signIn(account.email, account.password));
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists every reader and package, and the overview counts every member', async () => {
    expect(
      (await call('POST', '/api/admin/organisations', { id, name: 'Big Screen Co', domains: [] })).statusCode,
    ).toBe(201);
    const licence = await call('POST', `/api/admin/organisations/${id}/licences`, {
      units: ['layout', 'blog'],
      endsOn: '2030-06-30',
    });
    expect(licence.statusCode, licence.body).toBe(201);
    const emails = Array.from({ length: READERS }, (_, n) => `dev-${String(n).padStart(5, '0')}@big-screen.example`);
    const csv = ['email,organisation,groups', ...emails.map((email) => `${email},${id},`)].join('\n');
    const imported = await call('POST', '/api/admin/readers/import?apply=true', csv, 'text/csv');
    expect(imported.statusCode, imported.body.slice(0, 300)).toBe(200);

    const report = await call('GET', `/api/admin/organisations/${id}/access.csv`);
    expect(report.statusCode, report.body.slice(0, 300)).toBe(200);
    expect(report.headers['content-type']).toMatch(/^text\/csv/);
    const lines = report.body.trim().split('\n');
    expect(lines[0]).toBe('email,member_by,package,unit,from,ends_on');
    expect(lines).toHaveLength(1 + READERS * 2);
    expect(new Set(lines.slice(1).map((line) => line.split(',')[0]))).toEqual(new Set(emails));
    expect(lines[1]).toBe(`${emails[0]},added by name,${lines[1]?.split(',')[2]},layout,licence,2030-06-30`);

    const overview = await call('GET', '/api/admin/access');
    expect(overview.statusCode).toBe(200);
    const organisation = (overview.json() as AccessOverview).organisations.find((candidate) => candidate.id === id);
    expect(organisation?.members).toHaveLength(READERS);
  });
});
