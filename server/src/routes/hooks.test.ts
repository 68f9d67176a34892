// Release hooks with real signatures (@octokit/webhooks signs as GitHub does), the rebuild
// they queue, and the swap of the served build on this replica and on another that shares
// Redis, without a restart. The rebuild command here is a script that puts another
// prepared build in place of the served folder, as scripts/rebuild.mjs does after its build.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Webhooks } from '@octokit/webhooks';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startRedis, type RunningRedis } from '../../../tools/lib/redis.mjs';
import { ORIGIN, signInCookie, storeReady, testApp } from '../test/harness.js';
import type { EmulatorReaders } from '../test/readers.js';
import { makeTestSite, miniSite } from '../test/test-site.js';

const SECRET = 'a-hook-secret-for-the-tests';
const signer = new Webhooks({ secret: SECRET });

const page = (title: string, script = "document.documentElement.dataset.theme='light'") =>
  `<!doctype html><html><head><title>${title}</title><script>${script}</script></head><body><h1>${title}</h1>${' '.repeat(400)}</body></html>`;
const NAV = 'docs/Norigin-Spatial-Navigation/index.html';

/** The content cache's state as `npm run sync` writes it: one npm source, one git source. */
async function cacheWithSources(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-cache-'));
  await writeFile(
    join(dir, 'state.json'),
    JSON.stringify({
      sourcesHash: 'x',
      syncedAt: '2026-11-26T10:00:00.000Z',
      offline: false,
      sources: {
        nav: {
          kind: 'npm',
          package: '@noriginmedia/norigin-spatial-navigation',
          fetchedAt: '2026-11-26T10:00:00.000Z',
          releases: [{ version: '3.3.0' }, { version: '2.3.0' }, { version: '2.2.3' }],
          versions: [
            {
              version: '3.3.0',
              manifest: { repository: 'git+https://github.com/NoriginMedia/Norigin-Spatial-Navigation.git' },
            },
            { version: '2.3.0', manifest: {} },
          ],
        },
        kit: { kind: 'git', repository: 'git@github.com:tvco/player-kit.git', releases: [], versions: [] },
      },
    }),
  );
  return dir;
}

/**
 * A rebuild command: a script that checks it was asked for `--only=<source>`, then swaps the
 * served folder for `next` (or fails, printing a reason, when `next` is "fail").
 */
async function rebuildScript(served: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-rebuild-'));
  const file = join(dir, 'rebuild.mjs');
  await writeFile(
    file,
    `import { cpSync, readFileSync, renameSync, rmSync } from 'node:fs';
const next = readFileSync(${JSON.stringify(join(dir, 'next'))}, 'utf8');
const only = process.argv.find((arg) => arg.startsWith('--only='));
if (next === 'fail') { console.error('The site build failed: a broken link in ' + only); process.exit(1); }
rmSync(${JSON.stringify(served)} + '.previous', { recursive: true, force: true });
renameSync(${JSON.stringify(served)}, ${JSON.stringify(served)} + '.previous');
cpSync(next, ${JSON.stringify(served)}, { recursive: true });
console.log('rebuilt ' + only);
`,
  );
  return file;
}

/** An archive command: appends a line to `file`. */
async function archiveScript(file: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-archive-'));
  const script = join(dir, 'archive.mjs');
  await writeFile(
    script,
    `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(file)}, 'archived\\n');\n`,
  );
  return script;
}

describe('release hooks', () => {
  let redis: RunningRedis;
  let one: FastifyInstance;
  let two: FastifyInstance;
  let readers: EmulatorReaders;
  let served: string;
  let script: string;
  let admin: string;
  /** A line for each run of the archive command. */
  let archived: string;
  const archiveRuns = async () => (await readFile(archived, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;

  /** What the next rebuild puts in place: a prepared build's folder, or "fail". */
  const nextBuild = (what: string) => writeFile(join(script, '..', 'next'), what);

  beforeAll(async () => {
    archived = join(await mkdtemp(join(tmpdir(), 'portal-archived-')), 'runs');
    redis = await startRedis();
    served = await makeTestSite({ ...miniSite, [NAV]: page('Spatial Navigation 3.3.0') });
    script = await rebuildScript(served);
    const env = {
      REDIS_URL: redis.url,
      SOURCES_HOOK_SECRET: SECRET,
      PORTAL_SOURCES_CACHE: await cacheWithSources(),
      SOURCES_REBUILD_COMMAND: `${process.execPath} ${script}`,
      // Stands in for `docusaurus archive-releases`: notes each run in a file.
      SOURCES_ARCHIVE_COMMAND: `${process.execPath} ${await archiveScript(archived)}`,
    };
    ({ app: one, readers } = await testApp(served, env));
    ({ app: two } = await testApp(served, env));
    await storeReady(one);
    const account = await readers.create({ groups: ['admin'] });
    admin = await signInCookie(one, await readers.signIn(account.email, account.password));
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await redis?.stop();
  });

  const hook = async (event: string, payload: unknown, options: { signature?: string; url?: string } = {}) => {
    const body = JSON.stringify(payload);
    return one.inject({
      method: 'POST',
      url: options.url ?? '/api/hooks/sync',
      headers: {
        'content-type': 'application/json',
        'x-github-event': event,
        'x-hub-signature-256': options.signature ?? (await signer.sign(body)),
      },
      payload: body,
    });
  };
  const release = (fullName: string, tag = 'v3.4.0') => ({
    action: 'published',
    release: { tag_name: tag },
    repository: { full_name: fullName, clone_url: `https://github.com/${fullName}.git` },
  });
  const title = async (app: FastifyInstance) =>
    /<h1>([^<]*)<\/h1>/.exec((await app.inject({ url: `/${NAV.replace('index.html', '')}` })).body)?.[1];
  const overview = async () =>
    (await one.inject({ url: '/api/admin/sources', headers: { cookie: admin, origin: ORIGIN } })).json() as {
      jobs: { id: number; source: string; state: string; reason: string; error: string | null }[];
      sources: { id: string; versions: string[]; releases: number }[];
      build: { id: string };
      hooks: boolean;
    };
  const finished = async (id: number) => {
    await expect
      .poll(async () => (await overview()).jobs.find((job) => job.id === id)?.state, { timeout: 15_000 })
      .toMatch(/^(served|unchanged|failed)$/);
    return (await overview()).jobs.find((job) => job.id === id);
  };

  it('refuses hooks that are not signed with the secret, and says why', async () => {
    const body = release('NoriginMedia/Norigin-Spatial-Navigation');
    const unsigned = await one.inject({
      method: 'POST',
      url: '/api/hooks/sync',
      headers: { 'content-type': 'application/json', 'x-github-event': 'release' },
      payload: JSON.stringify(body),
    });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json().error).toMatch(/No X-Hub-Signature-256 header/);
    const other = new Webhooks({ secret: 'another-secret-of-16-chars' });
    const forged = await hook('release', body, { signature: await other.sign(JSON.stringify(body)) });
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error).toMatch(/does not match/);
    // Signed, but a byte of the body changed on the way.
    const signature = await signer.sign(JSON.stringify(body));
    const changed = await hook('release', { ...body, action: 'created' }, { signature });
    expect(changed.statusCode).toBe(401);
    expect(await title(one)).toBe('Spatial Navigation 3.3.0');
  });

  it('answers events that name no release without rebuilding, and names what it could not match', async () => {
    expect((await hook('ping', { zen: 'Keep it logically awesome.' })).json()).toEqual({
      jobs: [],
      ignored: 'ping: the hook is set up',
    });
    const branch = await hook('push', { ref: 'refs/heads/main', repository: { full_name: 'tvco/player-kit' } });
    expect(branch.json().ignored).toMatch(/a push to a branch/);
    const stranger = await hook('release', release('someone/else'));
    expect(stranger.statusCode).toBe(422);
    expect(stranger.json().error).toMatch(
      /No source of site\/sources.yaml comes from this release \(release v3.4.0 of someone\/else\)/,
    );
    const unknown = await hook('release', release('someone/else'), { url: '/api/hooks/sync?source=nope' });
    expect(unknown.statusCode).toBe(404);
    expect((await overview()).jobs).toEqual([]);
  });

  it('rebuilds on a release and serves the new build on both replicas, without a restart', async () => {
    await nextBuild(await makeTestSite({ ...miniSite, [NAV]: page('Spatial Navigation 3.4.0') }));
    const before = (await overview()).build.id;
    const answer = await hook('release', release('NoriginMedia/Norigin-Spatial-Navigation'));
    expect(answer.statusCode).toBe(202);
    const [job] = answer.json().jobs as { id: number; source: string; reason: string }[];
    expect(job).toMatchObject({ source: 'nav', reason: 'release v3.4.0 of NoriginMedia/Norigin-Spatial-Navigation' });
    expect(await finished(job?.id as number)).toMatchObject({ state: 'served', error: null });
    expect(await title(one)).toBe('Spatial Navigation 3.4.0');
    await expect.poll(() => title(two), { timeout: 1000, interval: 50 }).toBe('Spatial Navigation 3.4.0');
    expect((await overview()).build.id).not.toBe(before);
    // The new build keeps the gate: its private page still refuses the signed-out reader.
    expect((await two.inject({ url: '/docs/layout-engine/' })).statusCode).toBe(302);
    // Once served, the newest releases are archived ahead of the next release, on this replica.
    await expect.poll(archiveRuns, { timeout: 5000 }).toBe(1);
  });

  it('rebuilds on a registry publish and on a pushed tag, matched by package and repository', async () => {
    await nextBuild(await makeTestSite({ ...miniSite, [NAV]: page('Spatial Navigation 3.4.1') }));
    const published = await hook('package', {
      action: 'published',
      package: {
        name: 'norigin-spatial-navigation',
        namespace: 'noriginmedia',
        package_type: 'npm',
        package_version: { version: '3.4.1' },
      },
    });
    expect(published.statusCode).toBe(202);
    const [job] = published.json().jobs as { id: number; reason: string }[];
    expect(job?.reason).toBe('publish of @noriginmedia/norigin-spatial-navigation@3.4.1');
    expect(await finished(job?.id as number)).toMatchObject({ state: 'served' });
    await expect.poll(() => title(two), { timeout: 1000, interval: 50 }).toBe('Spatial Navigation 3.4.1');

    const tag = await hook('push', { ref: 'refs/tags/v1.2.0', repository: { full_name: 'tvco/player-kit' } });
    expect(tag.statusCode).toBe(202);
    expect(tag.json().jobs[0]).toMatchObject({ source: 'kit', reason: 'tag v1.2.0 of tvco/player-kit' });
    // The same build again: nothing to swap, and nothing new to archive.
    expect(await finished(tag.json().jobs[0].id)).toMatchObject({ state: 'unchanged' });
    await expect.poll(archiveRuns, { timeout: 5000 }).toBe(2);
  });

  it('keeps serving the build it had when a rebuild fails, and shows why in the administration', async () => {
    await nextBuild('fail');
    const answer = await hook('release', release('NoriginMedia/Norigin-Spatial-Navigation', 'v3.5.0'));
    const job = await finished(answer.json().jobs[0].id);
    expect(job?.state).toBe('failed');
    expect(job?.error).toMatch(/The site build failed: a broken link in --only=nav\n\(exit code 1\)/);
    expect(await title(one)).toBe('Spatial Navigation 3.4.1');
    expect(await archiveRuns()).toBe(2);

    // A build whose inline scripts differ would be blocked by the headers built at start: refused too.
    await nextBuild(await makeTestSite({ ...miniSite, [NAV]: page('Spatial Navigation 3.6.0', 'alert(1)') }));
    const scripted = await finished(
      (await hook('release', release('NoriginMedia/Norigin-Spatial-Navigation'))).json().jobs[0].id,
    );
    expect(scripted).toMatchObject({ state: 'failed', error: expect.stringMatching(/other inline scripts/) });
    expect(await title(one)).toBe('Spatial Navigation 3.4.1');

    const view = await overview();
    expect(view.hooks).toBe(true);
    expect(view.sources.find((source) => source.id === 'nav')).toMatchObject({
      versions: ['3.3.0', '2.3.0'],
      releases: 3,
    });
  });

  it('keeps the sources view to administrators, and tells a caller without the secret nothing about the sources', async () => {
    // Canaries: the names of the sources and where they come from.
    const canaries = ['player-kit', 'norigin-spatial-navigation', '3.3.0', 'nav'];
    const anonymous = await one.inject({ url: '/api/admin/sources' });
    expect(anonymous.statusCode).toBe(401);
    const partner = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(one, await readers.signIn(partner.email, partner.password));
    const refused = await one.inject({ url: '/api/admin/sources', headers: { cookie } });
    expect(refused.statusCode).toBe(403);
    const forged = await hook('release', release('tvco/player-kit'), { signature: `sha256=${'0'.repeat(64)}` });
    const named = await one.inject({
      method: 'POST',
      url: '/api/hooks/sync?source=nav',
      headers: { 'content-type': 'application/json', 'x-github-event': 'release' },
      payload: '{}',
    });
    for (const answer of [anonymous, refused, forged, named]) {
      expect(answer.statusCode).toBeGreaterThanOrEqual(400);
      for (const canary of canaries) expect(answer.body).not.toContain(canary);
    }
  });
});

describe('release hooks without a secret', () => {
  it('are off, and say which setting turns them on', async () => {
    const { app } = await testApp(await makeTestSite());
    const answer = await app.inject({
      method: 'POST',
      url: '/api/hooks/sync',
      headers: { 'content-type': 'application/json', 'x-github-event': 'ping' },
      payload: '{}',
    });
    expect(answer.statusCode).toBe(404);
    expect(answer.json().error).toMatch(/SOURCES_HOOK_SECRET/);
    await app.close();
  });
});
