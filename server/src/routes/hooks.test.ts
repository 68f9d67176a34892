// Release hooks with real signatures (@octokit/webhooks signs as GitHub does), the rebuild
// they queue, and the swap of the served build on this replica and on another that shares
// Redis, without a restart. The rebuild command here is a script that puts another
// prepared build in place of the served folder, as scripts/rebuild.mjs does after its build.
// Then what an attacker who captured a delivery can do with it: replay it, re-date it,
// aim it at another source, or send many.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Webhooks } from '@octokit/webhooks';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { releaseHook, signedHook } from '../../../scripts/hook.mjs';
import { startRedis, type RunningRedis } from '../../../tools/lib/redis.mjs';
import { UNCHANGED_EXIT_CODE } from '../sources/rebuilds.js';
import { freshPostgresUrl } from '../test/databases.js';
import { ORIGIN, signInCookie, storeReady, testApp } from '../test/harness.js';
import type { EmulatorReaders } from '../test/readers.js';
import { makeTestSite, miniSite } from '../test/test-site.js';

const SECRET = 'a-hook-secret-for-the-tests';
const signer = new Webhooks({ secret: SECRET });
let releases = 0;
/** A release event as GitHub sends it, dated `at` (now by default), with an id of its own. */
const release = (fullName: string, tag = 'v3.4.0', at = Date.now()) => ({
  action: 'published',
  release: { id: (releases += 1), tag_name: tag, published_at: new Date(at).toISOString() },
  repository: { full_name: fullName, clone_url: `https://github.com/${fullName}.git` },
});

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

interface HookOptions {
  signature?: string;
  url?: string;
  deliveryId?: string;
}

/** Sends `payload` as a release hook, signed with the secret unless `signature` says otherwise. */
async function sendHook(app: FastifyInstance, event: string, payload: unknown, options: HookOptions = {}) {
  const body = JSON.stringify(payload);
  return app.inject({
    method: 'POST',
    url: options.url ?? '/api/hooks/sync',
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-hub-signature-256': options.signature ?? (await signer.sign(body)),
      ...(options.deliveryId ? { 'x-github-delivery': options.deliveryId } : {}),
    },
    payload: body,
  });
}

interface SourcesView {
  jobs: { id: string; source: string; state: string; reason: string; error: string | null }[];
  sources: { id: string; versions: string[]; releases: number }[];
  build: { id: string };
  hooks: boolean;
}

/** The administration's view of the sources, as the administrator with `cookie` reads it. */
async function sourcesView(app: FastifyInstance, cookie: string): Promise<SourcesView> {
  return (await app.inject({ url: '/api/admin/sources', headers: { cookie, origin: ORIGIN } })).json() as SourcesView;
}

/** The rebuild `id` once it has ended. */
async function finishedJob(app: FastifyInstance, cookie: string, id: string) {
  await expect
    .poll(async () => (await sourcesView(app, cookie)).jobs.find((job) => job.id === id)?.state, {
      timeout: 15_000,
      interval: 250,
    })
    .toMatch(/^(served|unchanged|failed)$/);
  return (await sourcesView(app, cookie)).jobs.find((job) => job.id === id);
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
      SOURCES_REBUILDS_PER_HOUR: '100',
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

  const hook = (event: string, payload: unknown, options: HookOptions = {}) => sendHook(one, event, payload, options);
  const title = async (app: FastifyInstance) =>
    /<h1>([^<]*)<\/h1>/.exec((await app.inject({ url: `/${NAV.replace('index.html', '')}` })).body)?.[1];
  const overview = () => sourcesView(one, admin);
  const finished = (id: string) => finishedJob(one, admin, id);

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
    const unknown = await hook('release', { ...release('someone/else'), source: 'nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('No source "nope" has been synced (see site/sources.yaml)');
    expect((await overview()).jobs).toEqual([]);
  });

  it('rebuilds on a release and serves the new build on both replicas, without a restart', async () => {
    await nextBuild(await makeTestSite({ ...miniSite, [NAV]: page('Spatial Navigation 3.4.0') }));
    const before = (await overview()).build.id;
    const answer = await hook('release', release('NoriginMedia/Norigin-Spatial-Navigation'));
    expect(answer.statusCode).toBe(202);
    const [job] = answer.json().jobs as { id: string; source: string; reason: string }[];
    expect(job).toMatchObject({ source: 'nav', reason: 'release v3.4.0 of NoriginMedia/Norigin-Spatial-Navigation' });
    expect(await finished(job?.id as string)).toMatchObject({ state: 'served', error: null });
    // The replica that worked the job serves the build before it ends it; the other reads the
    // change feed when Redis hints, or within half a second, and then the new build's files:
    // within 3 s even with the test files beside it on two cores.
    for (const replica of [one, two])
      await expect.poll(() => title(replica), { timeout: 3000, interval: 50 }).toBe('Spatial Navigation 3.4.0');
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
        package_version: { version: '3.4.1', created_at: new Date().toISOString() },
      },
    });
    expect(published.statusCode).toBe(202);
    const [job] = published.json().jobs as { id: string; reason: string }[];
    expect(job?.reason).toBe('publish of @noriginmedia/norigin-spatial-navigation@3.4.1');
    expect(await finished(job?.id as string)).toMatchObject({ state: 'served' });
    for (const replica of [one, two])
      await expect.poll(() => title(replica), { timeout: 3000, interval: 50 }).toBe('Spatial Navigation 3.4.1');

    const tag = await hook('push', { ref: 'refs/tags/v1.2.0', repository: { full_name: 'tvco/player-kit' } });
    expect(tag.statusCode).toBe(202);
    expect(tag.json().jobs[0]).toMatchObject({ source: 'kit', reason: 'tag v1.2.0 of tvco/player-kit' });
    // The same build again: nothing to swap, and nothing new to archive.
    expect(await finished(tag.json().jobs[0].id)).toMatchObject({ state: 'unchanged' });
    await expect.poll(archiveRuns, { timeout: 5000 }).toBe(2);
  });

  it('takes the hooks `npm run hook` sends, for an npm source and a git source', async () => {
    const sources = [
      { id: 'nav', kind: 'npm', package: '@noriginmedia/norigin-spatial-navigation' },
      { id: 'kit', kind: 'git', repository: 'git@github.com:tvco/player-kit.git' },
    ];
    const reasons: (string | undefined)[] = [];
    for (const source of sources) {
      const { body, headers } = await signedHook(releaseHook(source), SECRET);
      const answer = await one.inject({ method: 'POST', url: '/api/hooks/sync', headers, payload: body });
      expect(answer.statusCode).toBe(202);
      const [job] = answer.json().jobs as { id: string; source: string; reason: string }[];
      expect(job?.source).toBe(source.id);
      reasons.push(job?.reason);
      // Nothing new to put in place: the rebuild ends unchanged.
      expect(await finished(job?.id as string)).toMatchObject({ state: 'unchanged' });
    }
    expect(reasons).toEqual([
      'publish of @noriginmedia/norigin-spatial-navigation',
      'release of git@github.com:tvco/player-kit.git',
    ]);
    expect(() => releaseHook({ id: 'guidelines', kind: 'local' })).toThrow(/written in this repository/);
  });

  it('keeps serving the build it had when a rebuild fails, and shows why in the administration', async () => {
    await nextBuild('fail');
    const answer = await hook('release', release('NoriginMedia/Norigin-Spatial-Navigation', 'v3.5.0'));
    const job = await finished(answer.json().jobs[0].id);
    expect(job?.state).toBe('failed');
    expect(job?.error).toMatch(/The site build failed: a broken link in --only=nav\n\(exit code 1\)/);
    expect(await title(one)).toBe('Spatial Navigation 3.4.1');
    expect(await archiveRuns()).toBe(2);

    // A build whose own inline scripts differ (the CSP takes only the portal's own pages'
    // scripts) would be blocked by the headers built at start: refused too.
    await nextBuild(
      await makeTestSite({
        ...miniSite,
        [NAV]: page('Spatial Navigation 3.6.0'),
        '404.html': page('Page Not Found', 'alert(1)'),
      }),
    );
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

describe('release hooks an attacker replays, re-dates, re-targets or floods', () => {
  let app: FastifyInstance;
  let admin: string;
  let cache: string;
  /** The stand-in rebuild's folder: it writes env.json there, waits while `hold` exists, and exits with the code in `exit`. */
  let work: string;
  /** How far the gate's clock runs ahead of this machine's. */
  let ahead = 0;
  const clock = () => Date.now() + ahead;
  const hook = (event: string, payload: unknown, options: HookOptions = {}) => sendHook(app, event, payload, options);
  const finished = (id: string) => finishedJob(app, admin, id);
  const jobs = async () => (await sourcesView(app, admin)).jobs;
  const NAV_REPOSITORY = 'NoriginMedia/Norigin-Spatial-Navigation';

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'portal-rebuild-'));
    await writeFile(join(work, 'exit'), String(UNCHANGED_EXIT_CODE));
    await writeFile(
      join(work, 'rebuild.mjs'),
      `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
const at = (name) => ${JSON.stringify(work)} + '/' + name;
writeFileSync(at('env.json'), JSON.stringify(process.env));
while (existsSync(at('hold'))) await new Promise((resolve) => setTimeout(resolve, 20));
process.exit(Number(readFileSync(at('exit'), 'utf8')));
`,
    );
    cache = await cacheWithSources();
    let readers: EmulatorReaders;
    ({ app, readers } = await testApp(
      await makeTestSite(),
      {
        // A PostgreSQL server as the replicas share, rather than the file's PGlite; this gate
        // works the build queue itself (a one-server deployment without a builder).
        DATABASE_URL: await freshPostgresUrl(),
        SOURCES_BUILDER: 'gate',
        PATH: process.env.PATH ?? '',
        SOURCES_HOOK_SECRET: SECRET,
        PORTAL_SOURCES_CACHE: cache,
        SOURCES_REBUILD_COMMAND: `${process.execPath} ${join(work, 'rebuild.mjs')}`,
        SOURCES_ARCHIVE_COMMAND: '',
        SOURCES_REBUILDS_PER_HOUR: '3',
        SOURCES_BUILD_ENV: 'NPM_TOKEN',
        NPM_TOKEN: 'a-private-registry-token',
      },
      undefined,
      clock,
    ));
    await storeReady(app);
    const account = await readers.create({ groups: ['admin'] });
    admin = await signInCookie(app, await readers.signIn(account.email, account.password));
  });
  afterAll(async () => {
    await rm(join(work, 'hold'), { force: true });
    await app?.close();
  });

  it('takes a delivery once: the same body again is refused, with its delivery id or a new one', async () => {
    const delivery = release(NAV_REPOSITORY, 'v4.0.0');
    const first = await hook('release', delivery, { deliveryId: 'a1b2c3d4-0001' });
    expect(first.statusCode).toBe(202);
    await finished(first.json().jobs[0].id);
    for (const deliveryId of ['a1b2c3d4-0001', 'a1b2c3d4-0002', undefined]) {
      const replay = await hook('release', delivery, { deliveryId });
      expect(replay.statusCode).toBe(409);
      expect(replay.json().error).toMatch(/taken before .*a replay is refused/);
    }
    expect(
      (await jobs()).filter((job) => job.reason === 'release v4.0.0 of NoriginMedia/Norigin-Spatial-Navigation'),
    ).toHaveLength(1);
  });

  it('refuses a delivery its body dates more than five minutes before the gate’s clock, or ahead of it, and names the date', async () => {
    const before = (await jobs()).length;
    const stale = await hook('release', release(NAV_REPOSITORY, 'v4.0.1', clock() - 6 * 60_000));
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error).toMatch(
      /^The delivery is dated \S+ \(release\.published_at\), more than 300 seconds ago: a late or replayed delivery is refused/,
    );
    // Dated now by this machine, but the gate's clock has moved on ten minutes: too old for it.
    ahead = 10 * 60_000;
    try {
      expect((await hook('release', release(NAV_REPOSITORY, 'v4.0.2'))).statusCode).toBe(400);
    } finally {
      ahead = 0;
    }
    const ahead10 = await hook('package', {
      action: 'published',
      sent_at: new Date(clock() + 10 * 60_000).toISOString(),
      package: { name: '@noriginmedia/norigin-spatial-navigation', package_type: 'npm' },
    });
    expect(ahead10.statusCode).toBe(400);
    expect(ahead10.json().error).toMatch(/\(sent_at\), ahead of the portal's clock/);
    const garbled = await hook('push', {
      sent_at: 'yesterday',
      ref: 'refs/tags/v1.0.0',
      repository: { full_name: 'tvco/player-kit' },
    });
    expect(garbled.statusCode).toBe(400);
    expect(garbled.json().error).toMatch(/^sent_at must be a date and time in ISO 8601/);
    expect(await jobs()).toHaveLength(before);
    // Four minutes old is recent enough.
    const recent = await hook('release', release(NAV_REPOSITORY, 'v4.0.3', clock() - 4 * 60_000));
    expect(recent.statusCode).toBe(202);
    await finished(recent.json().jobs[0].id);
  });

  it('refuses a source named in the URL, takes the one the signed body names, and refuses a body re-aimed under the old signature', async () => {
    const aimed = await hook('release', release(NAV_REPOSITORY, 'v4.1.0'), { url: '/api/hooks/sync?source=kit' });
    expect(aimed.statusCode).toBe(400);
    expect(aimed.json().error).toMatch(/no signature covers a URL: name it in the signed body \("source": "<id>"\)/);
    const named = { ...release('someone/else', 'v4.1.1'), source: 'kit' };
    const signature = await signer.sign(JSON.stringify(named));
    const taken = await hook('release', named, { signature });
    expect(taken.statusCode).toBe(202);
    expect(taken.json().jobs[0]).toMatchObject({ source: 'kit', reason: 'release v4.1.1 of someone/else' });
    await finished(taken.json().jobs[0].id);
    const reaimed = await hook('release', { ...named, source: 'nav' }, { signature });
    expect(reaimed.statusCode).toBe(401);
    expect(reaimed.json().error).toMatch(/does not match/);
  });

  it('builds nothing when the rebuild’s sync changed nothing: the job ends unchanged and the served build stays', async () => {
    ahead = 3 * 60 * 60_000; // past the hour of the rebuilds above
    try {
      const build = (await sourcesView(app, admin)).build.id;
      const answer = await hook('release', release(NAV_REPOSITORY, 'v4.2.0', clock()));
      expect(answer.statusCode).toBe(202);
      expect(await finished(answer.json().jobs[0].id)).toMatchObject({ state: 'unchanged', error: null });
      expect((await sourcesView(app, admin)).build.id).toBe(build);
    } finally {
      ahead = 0;
    }
  });

  it('runs the rebuild with none of the gate’s secrets in its environment, and with what the build needs', async () => {
    const seen = JSON.parse(await readFile(join(work, 'env.json'), 'utf8')) as Record<string, string>;
    expect(seen).toMatchObject({
      PATH: process.env.PATH,
      NPM_TOKEN: 'a-private-registry-token',
      PORTAL_SOURCES_CACHE: cache,
    });
    for (const secret of ['SOURCES_HOOK_SECRET', 'SESSION_SECRET', 'DATABASE_URL', 'FIREBASE_AUTH_EMULATOR_HOST'])
      expect(seen[secret]).toBeUndefined();
    expect(JSON.stringify(seen)).not.toContain(SECRET);
  });

  it('starts at most the hourly number of rebuilds of a source, answers 429 with Retry-After past it, and does not count a hook that joins a queued rebuild', async () => {
    ahead = 6 * 60 * 60_000; // hours past the rebuilds above
    await writeFile(join(work, 'hold'), '');
    const send = (tag: string) => hook('release', release(NAV_REPOSITORY, tag, clock()));
    try {
      const running = await send('v5.0.0');
      expect(running.statusCode).toBe(202);
      await expect
        .poll(async () => (await jobs()).find((job) => job.id === running.json().jobs[0].id)?.state)
        .toBe('running');
      const queued = await send('v5.0.1');
      expect(queued.statusCode).toBe(202);
      // Both join the rebuild that waits: no third rebuild is started, and none is refused.
      for (const tag of ['v5.0.2', 'v5.0.3']) {
        const joined = await send(tag);
        expect(joined.statusCode).toBe(202);
        expect(joined.json().jobs[0].id).toBe(queued.json().jobs[0].id);
      }
      await rm(join(work, 'hold'));
      await finished(queued.json().jobs[0].id);
      // The third of the hour: had the two that joined counted, it would be the fifth.
      const third = await send('v5.0.4');
      expect(third.statusCode).toBe(202);
      await finished(third.json().jobs[0].id);
      const limited = await send('v5.0.5');
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error).toBe(
        `The hooks of "nav" started 3 rebuilds in the last hour: try again in ${limited.headers['retry-after']} s`,
      );
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3500);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(3600);
      // Another source has a rate of its own.
      expect(
        (await hook('push', { ref: 'refs/tags/v2.0.0', repository: { full_name: 'tvco/player-kit' } })).statusCode,
      ).toBe(202);
      ahead += 60 * 60_000 + 1000;
      expect((await send('v5.0.6')).statusCode).toBe(202);
    } finally {
      await rm(join(work, 'hold'), { force: true });
      ahead = 0;
    }
  });
});

describe('release hooks while the database cannot be reached', () => {
  it('answer 503 and queue nothing, since no delivery can be checked against those taken', async () => {
    const ran = join(await mkdtemp(join(tmpdir(), 'portal-rebuild-')), 'ran');
    const { app } = await testApp(await makeTestSite(), {
      DATABASE_URL: 'postgres://portal@127.0.0.1:1/portal',
      SOURCES_BUILDER: 'gate',
      SOURCES_HOOK_SECRET: SECRET,
      PORTAL_SOURCES_CACHE: await cacheWithSources(),
      SOURCES_REBUILD_COMMAND: `${process.execPath} -e require('fs').writeFileSync(${JSON.stringify(ran)},'')`,
    });
    try {
      const answer = await sendHook(app, 'release', release('NoriginMedia/Norigin-Spatial-Navigation'));
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({
        error: 'The portal cannot check this delivery against those it took: try again',
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await expect(readFile(ran)).rejects.toThrow(/ENOENT/);
    } finally {
      await app.close();
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
