import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ORIGIN, makeToken, readyTestApp, signInCookie } from '../test/harness.js';
import { makeTestSite } from '../test/test-site.js';
import { runReadersCommand } from './readers.js';

/**
 * `npm run readers -- import|export` against a running gate (on a free port of this
 * machine), through its administration API with an administrator's token of the admin scope.
 */
describe('npm run readers -- import and export', () => {
  let app: FastifyInstance;
  let dir: string;
  let url: string;
  let adminToken: string;
  let readToken: string;
  const organisation = `cli-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    let readers;
    ({ app, readers } = await readyTestApp(await makeTestSite()));
    url = await app.listen({ host: '127.0.0.1', port: 0 });
    const account = await readers.create({ groups: ['admin'] });
    const cookie = await signInCookie(app, await readers.signIn(account.email, account.password));
    adminToken = await makeToken(app, cookie, 'cli', 1, 'admin');
    readToken = await makeToken(app, cookie, 'assistant', 1, 'read');
    const created = await app.inject({
      method: 'POST',
      url: '/api/admin/organisations',
      headers: { cookie, origin: ORIGIN },
      payload: { id: organisation, name: 'CLI Studio', domains: [] },
    });
    expect(created.statusCode).toBe(201);
    dir = await mkdtemp(join(tmpdir(), 'readers-csv-'));
  });
  afterAll(async () => {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  });

  const run = async (env: Record<string, string>, ...args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runReadersCommand(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('previews, applies and exports with an admin token; nothing without --apply', async () => {
    const email = `cli-${randomUUID().slice(0, 8)}@cli.example`;
    const file = join(dir, 'readers.csv');
    await writeFile(file, `email,organisation,groups\n${email},${organisation},\n`);
    const env = { PORTAL_URL: url, PORTAL_TOKEN: adminToken };

    const preview = await run(env, 'import', file);
    expect(preview.code, preview.err).toBe(0);
    expect(preview.out).toContain('Preview (nothing changed): 1 row(s): 1 new');
    expect(preview.out).toContain(`line 2: ${email}: new (organisation - → ${organisation})`);
    expect((await run(env, 'export')).out).not.toContain(email);

    const applied = await run(env, 'import', file, '--apply');
    expect(applied.code, applied.err).toBe(0);
    expect(applied.out).toContain('Imported: 1 row(s): 1 new');
    const exported = await run(env, 'export');
    expect(exported.code).toBe(0);
    expect(exported.out.split('\n')[0]).toBe('email,organisation,groups');
    expect(exported.out).toContain(`${email},${organisation},`);
  });

  it('says why it refuses: a refused row, a read token, no token, no portal', async () => {
    const file = join(dir, 'bad.csv');
    await writeFile(file, 'email,organisation,groups\nnobody,nowhere,\n');
    const refusedRow = await run({ PORTAL_URL: url, PORTAL_TOKEN: adminToken }, 'import', file, '--apply');
    expect(refusedRow.code).toBe(2);
    expect(refusedRow.out).toContain('line 2: refused: "nobody" is not an e-mail address');
    const readScope = await run({ PORTAL_URL: url, PORTAL_TOKEN: readToken }, 'export');
    expect(readScope.code).toBe(2);
    expect(readScope.err).toContain('the portal answered 403');
    expect((await run({ PORTAL_URL: url }, 'export')).err).toContain('set PORTAL_TOKEN');
    const unreachable = await run({ PORTAL_URL: 'http://127.0.0.1:9', PORTAL_TOKEN: adminToken }, 'export');
    expect(unreachable.code).toBe(1);
    expect(unreachable.err).toContain('cannot reach the portal at http://127.0.0.1:9');
  });
});
