// The builder beside two gates, as they are deployed: one PostgreSQL server, a store of site
// releases, and no disk in common. A release hook to a gate only queues the build; the
// builder (startBuilder, what `npm run builder` runs) builds into its own folder and
// publishes a site release, which both gates fetch and serve. A failed build is reported and
// changes nothing served.
import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Webhooks } from '@octokit/webhooks';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startBuilder, type RunningBuilder } from './builder.js';
import { ConfigError, loadBuilderConfig } from './config.js';
import { freshPostgresUrl } from './test/databases.js';
import { ORIGIN, signInCookie, storeReady, testApp } from './test/harness.js';
import { makeTestSite, miniSite } from './test/test-site.js';

const SECRET = 'a-hook-secret-for-the-builder-tests';
const signer = new Webhooks({ secret: SECRET });
const NAV = 'docs/Norigin-Spatial-Navigation/index.html';
const page = (title: string) =>
  `<!doctype html><html><head><title>${title}</title><script>document.documentElement.dataset.theme='light'</script></head><body><h1>${title}</h1>${' '.repeat(400)}</body></html>`;

/** The content cache's state with the one npm source the hooks name. */
function contentCache(): string {
  const dir = mkdtempSync(join(tmpdir(), 'portal-builder-cache-'));
  writeFileSync(
    join(dir, 'state.json'),
    JSON.stringify({
      syncedAt: '2026-12-01T10:00:00.000Z',
      sources: {
        nav: {
          kind: 'npm',
          package: '@noriginmedia/norigin-spatial-navigation',
          releases: [{ version: '3.3.0' }],
          versions: [
            {
              version: '3.3.0',
              manifest: { repository: 'git+https://github.com/NoriginMedia/Norigin-Spatial-Navigation.git' },
            },
          ],
        },
      },
    }),
  );
  return dir;
}

let delivered = 0;
async function releaseHook(gate: FastifyInstance, tag: string) {
  const body = JSON.stringify({
    action: 'published',
    release: { id: (delivered += 1), tag_name: tag, published_at: new Date().toISOString() },
    repository: { full_name: 'NoriginMedia/Norigin-Spatial-Navigation' },
  });
  return gate.inject({
    method: 'POST',
    url: '/api/hooks/sync',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'release',
      'x-hub-signature-256': await signer.sign(body),
    },
    payload: body,
  });
}

describe('a builder beside two gates on one PostgreSQL server', () => {
  let gates: FastifyInstance[];
  let builder: RunningBuilder | undefined;
  let admin: string;
  let env: Record<string, string>;
  /** The builder's own checkout: its site folder, and the file naming what its stand-in rebuild puts there next (or "fail"). */
  const work = mkdtempSync(join(tmpdir(), 'portal-builder-'));
  const builderSite = join(work, 'site-build');
  const next = join(work, 'next');

  const title = async (gate: FastifyInstance) =>
    /<h1>([^<]*)<\/h1>/.exec((await gate.inject({ url: `/${NAV.replace('index.html', '')}` })).body)?.[1];
  const jobs = async () =>
    (
      (await gates[0]?.inject({ url: '/api/admin/sources', headers: { cookie: admin, origin: ORIGIN } }))?.json() as {
        jobs: { id: string; state: string; error: string | null }[];
      }
    ).jobs;
  const stateOf = async (id: string) => (await jobs()).find((job) => job.id === id);

  beforeAll(async () => {
    const served = await makeTestSite({ ...miniSite, [NAV]: page('Spatial Navigation 3.3.0') });
    cpSync(served, builderSite, { recursive: true });
    writeFileSync(
      join(work, 'rebuild.mjs'),
      `import { cpSync, readFileSync, rmSync } from 'node:fs';
const next = readFileSync(${JSON.stringify(next)}, 'utf8');
if (next === 'fail') { console.error('The site build failed: a broken link in ' + process.argv.at(-1)); process.exit(1); }
rmSync(${JSON.stringify(builderSite)}, { recursive: true, force: true });
cpSync(next, ${JSON.stringify(builderSite)}, { recursive: true });
`,
    );
    const cache = contentCache();
    env = {
      DATABASE_URL: await freshPostgresUrl(),
      SITE_RELEASES: await mkdtemp(join(tmpdir(), 'portal-builder-store-')),
      SOURCES_HOOK_SECRET: SECRET,
      PORTAL_SOURCES_CACHE: cache,
      SOURCES_REBUILDS_PER_HOUR: '100',
    };
    // No SOURCES_BUILDER: with DATABASE_URL the gates leave the builds to a builder.
    gates = [];
    for (const name of ['one', 'two']) {
      const { app, readers } = await testApp(served, {
        ...env,
        SITE_RELEASES_CACHE: await mkdtemp(join(tmpdir(), `portal-gate-${name}-releases-`)),
      });
      gates.push(app);
      await storeReady(app);
      if (name === 'one') {
        const account = await readers.create({ groups: ['admin'] });
        admin = await signInCookie(app, await readers.signIn(account.email, account.password));
      }
    }
  });
  afterAll(async () => {
    await builder?.close();
    for (const gate of gates ?? []) await gate.close();
  });

  it('queues the build at the gate, builds it in the builder only, and serves the release on both gates', async () => {
    writeFileSync(next, await makeTestSite({ ...miniSite, [NAV]: page('Spatial Navigation 3.4.0') }));
    const answer = await releaseHook(gates[0] as FastifyInstance, 'v3.4.0');
    expect(answer.statusCode).toBe(202);
    const id = answer.json().jobs[0].id as string;
    // No gate works the queue: the job waits, and both gates serve what they served.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await stateOf(id)).toMatchObject({ state: 'queued' });
    for (const gate of gates) expect(await title(gate)).toBe('Spatial Navigation 3.3.0');

    const config = loadBuilderConfig({
      ...env,
      PATH: process.env.PATH ?? '',
      SITE_DIR: builderSite,
      SITE_RELEASES_CACHE: join(work, 'releases'),
      SOURCES_REBUILD_COMMAND: `${process.execPath} ${join(work, 'rebuild.mjs')}`,
      SOURCES_ARCHIVE_COMMAND: '',
    });
    builder = await startBuilder(config, { log: pino({ level: 'silent' }) });
    await expect
      .poll(async () => (await stateOf(id))?.state, { timeout: 15_000, interval: 250 })
      .toMatch(/served|failed/);
    expect(await stateOf(id)).toMatchObject({ state: 'served', error: null });
    for (const gate of gates)
      await expect.poll(() => title(gate), { timeout: 5000, interval: 100 }).toBe('Spatial Navigation 3.4.0');
    const releases = (
      await (gates[1] as FastifyInstance).inject({
        url: '/api/admin/site-releases',
        headers: { cookie: admin, origin: ORIGIN },
      })
    ).json() as { releases: { job: string; state: string }[] };
    expect(releases.releases[0]).toMatchObject({ state: 'live', job: `rebuild ${id} (nav)` });
  });

  it('reports a failed build with its output, and every gate keeps serving the release it had', async () => {
    writeFileSync(next, 'fail');
    const answer = await releaseHook(gates[1] as FastifyInstance, 'v3.5.0');
    const id = answer.json().jobs[0].id as string;
    await expect.poll(async () => (await stateOf(id))?.state, { timeout: 15_000, interval: 250 }).toBe('failed');
    expect((await stateOf(id))?.error).toMatch(/The site build failed: a broken link in --only=nav\n\(exit code 1\)/);
    for (const gate of gates) expect(await title(gate)).toBe('Spatial Navigation 3.4.0');
    expect(readFileSync(join(builderSite, NAV), 'utf8')).toContain('Spatial Navigation 3.4.0');
  });

  it('reports a publish cut off midway, makes no release of it, and every gate keeps serving the release it had', async () => {
    // The store takes the new files but not the release's manifest (its folder is a file now).
    const manifests = join(env.SITE_RELEASES as string, 'releases');
    renameSync(manifests, `${manifests}.kept`);
    writeFileSync(manifests, 'not a folder');
    try {
      writeFileSync(next, await makeTestSite({ ...miniSite, [NAV]: page('Spatial Navigation 3.6.0') }));
      const answer = await releaseHook(gates[0] as FastifyInstance, 'v3.6.0');
      const id = answer.json().jobs[0].id as string;
      await expect.poll(async () => (await stateOf(id))?.state, { timeout: 15_000, interval: 250 }).toBe('failed');
      expect((await stateOf(id))?.error).toMatch(
        /^the build could not be published to the site release store .* no release was made, and the live one stays$/,
      );
      const releases = (
        await (gates[0] as FastifyInstance).inject({
          url: '/api/admin/site-releases',
          headers: { cookie: admin, origin: ORIGIN },
        })
      ).json() as { releases: { job: string; state: string }[] };
      expect(releases.releases.map((release) => release.job)).not.toContain(`rebuild ${id} (nav)`);
      for (const gate of gates) expect(await title(gate)).toBe('Spatial Navigation 3.4.0');
    } finally {
      rmSync(manifests);
      renameSync(`${manifests}.kept`, manifests);
    }
  });
});

describe('the builder’s settings', () => {
  it('name the database and the store it cannot do without, at once', () => {
    let problems: string[] = [];
    try {
      loadBuilderConfig({ SOURCES_BUILD_ENV: 'SESSION_SECRET' });
    } catch (error) {
      if (error instanceof ConfigError) problems = error.problems;
    }
    expect(problems).toEqual([
      expect.stringMatching(/^SOURCES_BUILD_ENV names SESSION_SECRET, a secret of the gate/),
      'DATABASE_URL is required: the builder takes its jobs from PostgreSQL',
      'SITE_RELEASES is required: the builder publishes each build there as a site release for the gates',
    ]);
  });
});
