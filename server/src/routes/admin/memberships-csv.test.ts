import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ImportReport } from '@portal/contract';

import { REFUSALS } from '../../plugins/app/refusals.js';

import { ORIGIN, makeToken, readyTestApp, signInCookie } from '../../test/harness.js';
import type { EmulatorReaders } from '../../test/readers.js';
import { makeTestSite } from '../../test/test-site.js';

interface Json {
  [key: string]: unknown;
}

/**
 * Readers' memberships from and to CSV through the administration API, on the test run's
 * database and the real identity emulator: a preview changes nothing, applying changes every
 * row or none, takes effect on a reader's next request and is audited once; a bad file
 * gets a 4xx with its reason. And the personal tokens that let automation call the API.
 */
describe('importing and exporting readers as CSV', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let admin: string;
  const suffix = randomUUID().slice(0, 8);
  const organisation = `csv-${suffix}`;
  const other = `csv-other-${suffix}`;
  const group = `csv-group-${suffix}`;

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(await makeTestSite()));
    const account = await readers.create({ groups: ['admin'] });
    admin = await signInCookie(app, await readers.signIn(account.email, account.password));
    const setUp = [
      ['POST', '/api/admin/organisations', { id: organisation, name: 'CSV Studio', domains: [] }],
      ['POST', '/api/admin/organisations', { id: other, name: 'CSV Other', domains: [] }],
      ['POST', `/api/admin/organisations/${organisation}/licences`, { units: ['layout'] }],
      ['PUT', `/api/admin/access-groups/${group}`, { label: 'CSV group', units: ['blog'] }],
    ] as const;
    for (const [method, url, payload] of setUp) {
      const answer = await app.inject({ method, url, headers: { cookie: admin, origin: ORIGIN }, payload });
      expect(answer.statusCode, answer.body).toBeLessThan(300);
    }
  });
  afterAll(async () => {
    await app.close();
  });

  const importCsv = (csv: string | Buffer, apply = false, headers: Record<string, string> = { cookie: admin }) =>
    app.inject({
      method: 'POST',
      url: `/api/admin/readers/import${apply ? '?apply=true' : ''}`,
      headers: { origin: ORIGIN, 'content-type': 'text/csv', ...headers },
      payload: csv,
    });
  const exported = async (): Promise<string> => {
    const answer = await app.inject({ method: 'GET', url: '/api/admin/readers/export', headers: { cookie: admin } });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/csv/);
    return answer.body;
  };
  const rowOf = (csv: string, email: string) => csv.split('\n').find((line) => line.startsWith(`${email},`));

  it('previews without changing anything, then applies every row at once, live and audited once', async () => {
    const reader = await readers.create({ groups: [], email: `dev-${suffix}@csv.example` });
    const moved = `moved-${suffix}@csv.example`;
    expect(
      (
        await app.inject({
          method: 'PUT',
          url: `/api/admin/memberships/${moved}`,
          headers: { cookie: admin, origin: ORIGIN },
          payload: { organisation: other, groups: [] },
        })
      ).statusCode,
    ).toBe(204);
    const csv = [
      'email,organisation,groups',
      `${reader.email},${organisation},${group}`,
      `${moved},${organisation},`,
      `later-${suffix}@csv.example,,${group}`,
    ].join('\n');

    const preview = await importCsv(csv);
    expect(preview.statusCode, preview.body).toBe(200);
    const planned = preview.json() as ImportReport;
    expect(planned.applied).toBe(false);
    expect(planned.counts).toEqual({ new: 2, moved: 1, groups: 0, removed: 0, unchanged: 0, refused: 0 });
    expect(planned.changes[1]).toMatchObject({
      line: 3,
      email: moved,
      change: 'moved',
      organisation: { before: other, after: organisation },
    });
    // Nothing changed yet: the reader has no unit, so no session.
    expect(rowOf(await exported(), reader.email)).toBeUndefined();
    const refused = await app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { origin: ORIGIN },
      payload: { idToken: await readers.signIn(reader.email, reader.password) },
    });
    expect(refused.statusCode).toBe(403);

    const applied = await importCsv(csv, true);
    expect(applied.statusCode, applied.body).toBe(200);
    expect((applied.json() as ImportReport).applied).toBe(true);
    const cookie = await signInCookie(app, await readers.signIn(reader.email, reader.password));
    expect((await app.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/blog/rss.xml', headers: { cookie } })).statusCode).toBe(200);

    const csvNow = await exported();
    expect(rowOf(csvNow, reader.email)).toBe(`${reader.email},${organisation},${group}`);
    expect(rowOf(csvNow, moved)).toBe(`${moved},${organisation},`);
    // The same file again changes nothing.
    expect(((await importCsv(csv)).json() as ImportReport).counts.unchanged).toBe(3);

    const trail = (
      await app.inject({ url: '/api/admin/audit?kind=admin.import', headers: { cookie: admin } })
    ).json() as { events: { detail: Json }[] };
    const event = trail.events.find((entry) =>
      (entry.detail.changes as Json[]).some((change) => change.email === moved),
    );
    expect(event?.detail).toMatchObject({ action: 'imported', rows: 3, counts: { new: 2, moved: 1 } });
  });

  it('refuses the whole file when one row is refused, says why per row, and changes nothing', async () => {
    const before = await exported();
    const csv = [
      'email,organisation,groups',
      `fine-${suffix}@csv.example,${organisation},`,
      `not an address,${organisation},`,
      `fine-${suffix}@csv.example,${other},`,
      `x-${suffix}@csv.example,nowhere,`,
      `y-${suffix}@csv.example,,ghosts`,
      `z-${suffix}@csv.example,${organisation},,surplus`,
    ].join('\n');
    const answer = await importCsv(csv, true);
    expect(answer.statusCode).toBe(422);
    const report = answer.json() as ImportReport;
    expect(report.applied).toBe(false);
    expect(report.refused.map((row) => [row.line, row.reason])).toEqual([
      [3, '"not an address" is not an e-mail address'],
      [4, 'the same e-mail as line 2: one row per reader'],
      [5, expect.stringContaining('no organisation "nowhere"')],
      [6, 'no group "ghosts"'],
      [7, expect.stringContaining('too many columns')],
    ]);
    expect(await exported()).toBe(before);
  });

  it.each([
    ['a binary file', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0xff, 0xfe]), 400, /not CSV text/],
    ['a file without its header', 'a@b.example,x,\n', 400, /header email,organisation,groups/],
    ['semicolons for commas', 'email;organisation;groups\na@b.example;x;\n', 400, /with commas/],
    ['a quote left open', 'email,organisation,groups\n"a@b.example,x,\n', 400, /never closed/],
    ['an empty file', '', 400, /.+/],
  ])('answers %s with a clear 4xx and changes nothing', async (_name, csv, status, reason) => {
    const before = await exported();
    const answer = await importCsv(csv, true);
    expect(answer.statusCode, answer.body).toBe(status);
    expect((answer.json() as { error: string }).error).toMatch(reason);
    expect(await exported()).toBe(before);
  });

  it('refuses a file over the size limit, one of more than 10,000 rows, and one that is not sent as CSV', async () => {
    const huge = `email,organisation,groups\n${'x'.repeat(4 * 1024 * 1024)}\n`;
    const tooLarge = await importCsv(huge, true);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({ error: 'The file is larger than 4 MiB; split it into smaller files' });
    const rows = Array.from({ length: 10_001 }, (_, i) => `r${i}-${suffix}@csv.example,,`).join('\n');
    const tooMany = await importCsv(`email,organisation,groups\n${rows}\n`, true);
    expect(tooMany.statusCode).toBe(400);
    expect((tooMany.json() as { error: string }).error).toMatch(/at most 10,000/);
    const json = await app.inject({
      method: 'POST',
      url: '/api/admin/readers/import',
      headers: { cookie: admin, origin: ORIGIN },
      payload: { email: 'a@b.example' },
    });
    expect(json.statusCode).toBe(415);
  });

  it('refuses a row of more than 10 cells and a cell of more than 1,000 characters, naming the limit and the line', async () => {
    const before = await exported();
    const wide = await importCsv(
      `email,organisation,groups\na-${suffix}@csv.example,,\n${','.repeat(4_000_000)}\n`,
      true,
    );
    expect(wide.statusCode).toBe(400);
    expect(wide.json()).toEqual({
      error: 'Line 3 has more than 10 cells; a row has 3: email,organisation,groups',
    });
    const long = await importCsv(
      `email,organisation,groups\nb-${suffix}@csv.example,"${'o'.repeat(3_000_000)}",\n`,
      true,
    );
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ error: 'Line 2: a cell is longer than 1,000 characters' });
    expect(await exported()).toBe(before);
  });

  it('exports an address that starts like a formula with a leading quote, and takes the export back unchanged', async () => {
    const email = `=hyperlink-${suffix}@csv.example`;
    const imported = await importCsv(`email,organisation,groups\n${email},${organisation},\n`, true);
    expect(imported.statusCode, imported.body).toBe(200);
    const csv = await exported();
    expect(rowOf(csv, `'${email}`)).toBe(`'${email},${organisation},`);
    expect(rowOf(csv, email)).toBeUndefined();
    const again = (await importCsv(csv)).json() as ImportReport;
    expect(again.refused).toEqual([]);
    expect(again.changes.find((change) => change.email === email)?.change).toBe('unchanged');
  });

  it('imports 10,000 rows in one go within 10 s', async () => {
    const rows = Array.from(
      { length: 10_000 },
      (_, i) =>
        `bulk-${String(i).padStart(5, '0')}-${suffix}@csv.example,${i % 2 ? organisation : other},${i % 3 ? group : ''}`,
    );
    const started = performance.now();
    const answer = await importCsv(['email,organisation,groups', ...rows].join('\n'), true);
    const ms = performance.now() - started;
    expect(answer.statusCode, answer.body.slice(0, 300)).toBe(200);
    expect((answer.json() as ImportReport).counts.new).toBe(10_000);
    console.log(`import of 10,000 rows (apply): ${Math.round(ms)} ms`);
    expect(ms).toBeLessThan(10_000);
    expect(rowOf(await exported(), `bulk-00001-${suffix}@csv.example`)).toBe(
      `bulk-00001-${suffix}@csv.example,${organisation},${group}`,
    );
  });

  it('is described in the OpenAPI document: a CSV body, the report on 200 and 422, CSV out', async () => {
    const document = (await app.inject({ url: '/api/openapi.json', headers: { cookie: admin } })).json() as {
      paths: Record<string, Record<string, { requestBody?: { content: Json }; responses: Record<string, Json> }>>;
    };
    const importing = document.paths['/api/admin/readers/import']?.post;
    expect(Object.keys(importing?.requestBody?.content ?? {})).toEqual(['text/csv']);
    expect(Object.keys(importing?.responses ?? {})).toEqual(expect.arrayContaining(['200', '400', '413', '422']));
    expect(JSON.stringify(importing?.responses['422'])).toContain('refused');
    const exporting = document.paths['/api/admin/readers/export']?.get;
    expect(Object.keys((exporting?.responses['200'] as { content: Json }).content)).toEqual(['text/csv']);
  });

  it('is for administrators only', async () => {
    const partner = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(app, await readers.signIn(partner.email, partner.password));
    expect((await importCsv('email,organisation,groups\n', false, { cookie })).statusCode).toBe(403);
    expect((await app.inject({ url: '/api/admin/readers/export', headers: { cookie } })).statusCode).toBe(403);
    expect((await importCsv('email,organisation,groups\n', false, {})).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/admin/readers/export' })).statusCode).toBe(401);
  });
});

describe('personal tokens for the administration API', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;

  beforeAll(async () => {
    ({ app, readers } = await readyTestApp(await makeTestSite()));
  });
  afterAll(async () => {
    await app.close();
  });

  const withToken = (token: string, url = '/api/admin/access', method: 'GET' | 'POST' = 'GET', payload?: Json) =>
    app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });

  it('lets an admin token call the admin API (writes too, with no origin), refuses a read token there and an admin token on agent surfaces', async () => {
    const account = await readers.create({ groups: ['admin'] });
    const cookie = await signInCookie(app, await readers.signIn(account.email, account.password));
    const adminToken = await makeToken(app, cookie, 'automation', 1, 'admin');
    const readToken = await makeToken(app, cookie, 'assistant', 1, 'read');

    const access = await withToken(adminToken);
    expect(access.statusCode, access.body).toBe(200);
    expect((access.json() as Json).units).toBeInstanceOf(Array);
    const id = `token-org-${randomUUID().slice(0, 8)}`;
    expect(
      (await withToken(adminToken, '/api/admin/organisations', 'POST', { id, name: 'By token', domains: [] }))
        .statusCode,
    ).toBe(201);

    // The API's description, for the automation's own client: the admin token reads it too.
    const described = await withToken(adminToken, '/api/openapi.json');
    expect(described.statusCode, described.body.slice(0, 200)).toBe(200);
    expect(Object.keys((described.json() as { paths: Json }).paths)).toContain('/api/admin/readers/import');
    expect((await withToken(readToken, '/api/openapi.json')).statusCode).toBe(403);

    const refused = await withToken(readToken);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: REFUSALS.scope });
    expect((await withToken(readToken, '/api/search?q=layout')).statusCode).toBe(200);
    // The other way round, the same refusal in the same words.
    const agent = await withToken(adminToken, '/api/search?q=layout');
    expect(agent.statusCode).toBe(403);
    expect(agent.json()).toEqual({ error: REFUSALS.scope });
  });

  it('lets only administrators make an admin token', async () => {
    const staff = await readers.create({ groups: ['staff'] });
    const cookie = await signInCookie(app, await readers.signIn(staff.email, staff.password));
    const answer = await app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { cookie, origin: ORIGIN },
      payload: { name: 'automation', days: 1, scope: 'admin' },
    });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual({ error: 'Only administrators may make a token for the administration API' });
  });

  it('refuses the admin token of an administrator who is one no more', async () => {
    const demoted = await readers.create({ groups: ['admin'] });
    const other = await readers.create({ groups: ['admin'] });
    const cookie = await signInCookie(app, await readers.signIn(demoted.email, demoted.password));
    const otherCookie = await signInCookie(app, await readers.signIn(other.email, other.password));
    const token = await makeToken(app, cookie, 'automation', 1, 'admin');
    expect((await withToken(token)).statusCode).toBe(200);
    const change = await app.inject({
      method: 'PUT',
      url: `/api/admin/readers/${demoted.uid}/groups`,
      headers: { cookie: otherCookie, origin: ORIGIN },
      payload: { groups: ['staff'] },
    });
    expect(change.statusCode, change.body).toBe(200);
    const after = await withToken(token);
    expect(after.statusCode).toBe(403);
    expect(after.json()).toEqual({ error: REFUSALS['no-access'] });
  });
});
