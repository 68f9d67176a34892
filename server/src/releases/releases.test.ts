import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { freePort } from '../../../tools/lib/ports.mjs';
import { S3RVER_CREDENTIALS, startS3rver, type RunningS3rver } from '../../../tools/lib/s3rver.mjs';
import { freshPostgresUrl } from '../test/databases.js';
import { ORIGIN, readyTestApp, signInCookie } from '../test/harness.js';
import type { EmulatorReaders } from '../test/readers.js';
import { makeTestSite, miniSite } from '../test/test-site.js';
import { BundleError, collectBundles, fetchBundle, publishBundle, readBundleManifest } from './bundle.js';
import { FolderStore, S3Store, type ObjectStore } from './object-store.js';

const sha256 = (body: string | Buffer): string => createHash('sha256').update(body).digest('hex');
const scratches: string[] = [];
const scratch = (name: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `portal-releases-${name}-`));
  scratches.push(dir);
  return dir;
};

let s3: RunningS3rver;
beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  await s3?.stop();
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
});

const s3Store = (prefix = `t${Math.random().toString(16).slice(2, 8)}/`) =>
  new S3Store({
    bucket: s3.bucket,
    prefix,
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });

describe.each([
  ['a folder', () => new FolderStore(scratch('folder'))],
  ['the S3 API (s3rver)', () => s3Store()],
] as const)('the release store in %s', (_name, open) => {
  let store: ObjectStore;
  beforeAll(() => {
    store = open();
  });
  afterAll(() => {
    if (store instanceof S3Store) store.close();
  });

  it('keeps, lists and deletes blobs and manifests by their keys', async () => {
    const body = Buffer.from('a file of the site');
    const key = `blobs/${sha256(body)}`;
    expect(await store.get(key)).toBeNull();
    expect(await store.has(key)).toBe(false);
    await store.put(key, body);
    await store.put(`releases/${sha256('m')}.json`, Buffer.from('m'));
    expect(await store.get(key)).toEqual(body);
    expect(await store.has(key)).toBe(true);
    expect(await store.list('blobs/')).toEqual([key]);
    expect(await store.list('releases/')).toEqual([`releases/${sha256('m')}.json`]);
    await store.delete([key]);
    expect(await store.get(key)).toBeNull();
    expect(await store.list('blobs/')).toEqual([]);
  });

  it('lists more keys than one page of a listing (1,000), as a release of the whole site has', async () => {
    const bodies = Array.from({ length: 1100 }, (_, index) => Buffer.from(`file ${index}`));
    for (let start = 0; start < bodies.length; start += 100)
      await Promise.all(bodies.slice(start, start + 100).map((body) => store.put(`blobs/${sha256(body)}`, body)));
    const listed = await store.list('blobs/');
    expect(listed).toHaveLength(new Set(listed).size);
    expect(listed).toEqual(expect.arrayContaining(bodies.map((body) => `blobs/${sha256(body)}`)));
  });

  it('refuses a key that is not a blob or a manifest', async () => {
    for (const key of ['../etc/passwd', 'blobs/../../x', 'blobs/abc', 'releases/x.json'])
      await expect(store.put(key, Buffer.from('x')), key).rejects.toThrow(/not a key of the site release store/);
  });
});

describe('a site release bundle', () => {
  it('is published once per content, fetched whole, and checked file by file', async () => {
    const store = new FolderStore(scratch('store'));
    const build = await makeTestSite();
    const first = await publishBundle(store, build);
    expect(first.files).toBe(
      readdirSync(build, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length,
    );
    expect(first.uploaded.files).toBeGreaterThan(0);
    // The same build again: the same id, and nothing uploaded.
    const again = await publishBundle(store, build);
    expect(again.id).toBe(first.id);
    expect(again.uploaded).toEqual({ files: 0, bytes: 0 });

    const cache = scratch('cache');
    const dir = await fetchBundle(store, first.id, cache);
    for (const path of Object.keys(miniSite))
      expect(readFileSync(join(dir, path)), path).toEqual(readFileSync(join(build, path)));
  });

  it('is refused when a file in the store does not match its hash, and no folder of it is made', async () => {
    const root = scratch('store');
    const store = new FolderStore(root);
    const { id } = await publishBundle(store, await makeTestSite());
    const manifest = await readBundleManifest(store, id);
    const { hash } = manifest.files['index.html'] as { hash: string };
    await store.put(`blobs/${hash}`, Buffer.from('<script>alert(1)</script>'));
    const cache = scratch('cache');
    await expect(fetchBundle(store, id, cache)).rejects.toThrow(BundleError);
    await expect(fetchBundle(store, id, cache)).rejects.toThrow(/does not match its hash/);
    expect(existsSync(join(cache, 'sites', id))).toBe(false);
  });

  it('is refused when its manifest names a path outside its folder, or its id is not its hash', async () => {
    const store = new FolderStore(scratch('store'));
    const body = Buffer.from('escaped');
    await store.put(`blobs/${sha256(body)}`, body);
    for (const path of ['../outside.html', 'a/../../outside.html', '/etc/cron.d/x', 'a\\..\\b', 'a//b']) {
      const manifest = Buffer.from(JSON.stringify({ format: 1, files: { [path]: { hash: sha256(body), size: 7 } } }));
      const id = sha256(manifest);
      await store.put(`releases/${id}.json`, manifest);
      await expect(fetchBundle(store, id, scratch('cache')), path).rejects.toThrow(/outside its folder/);
    }
    const manifest = Buffer.from(JSON.stringify({ format: 1, files: {} }));
    await store.put(`releases/${sha256('other')}.json`, manifest);
    await expect(readBundleManifest(store, sha256('other'))).rejects.toThrow(/does not match its hash/);
  });

  it('cut off before its manifest is no release; collecting keeps every file of the kept ones', async () => {
    const store = new FolderStore(scratch('store'));
    const kept = await publishBundle(store, await makeTestSite());
    const dropped = await publishBundle(store, await makeTestSite({ ...miniSite, 'robots.txt': 'User-agent: *\n' }));
    // A publish cut off midway: its blobs are up, its manifest never was.
    const orphan = Buffer.from('a file of a release that never finished');
    await store.put(`blobs/${sha256(orphan)}`, orphan);
    await expect(readBundleManifest(store, sha256('never'))).rejects.toThrow(/holds no release/);

    const hashes = async (id: string) =>
      new Set(Object.values((await readBundleManifest(store, id)).files).map((file) => file.hash));
    const keptHashes = await hashes(kept.id);
    const onlyDropped = [...(await hashes(dropped.id))].filter((hash) => !keptHashes.has(hash));
    // Its own robots.txt and the gate manifest that names it.
    expect(onlyDropped).toHaveLength(2);

    const collected = await collectBundles(store, [kept.id]);
    expect(collected.releases).toBe(1);
    // The dropped release's own files and the orphan; every shared file stays.
    expect(collected.blobs).toBe(onlyDropped.length + 1);
    expect((await store.list('blobs/')).length).toBe(keptHashes.size);
    await expect(readBundleManifest(store, dropped.id)).rejects.toThrow(/holds no release/);
    const dir = await fetchBundle(store, kept.id, scratch('cache'));
    expect(readFileSync(join(dir, 'robots.txt'), 'utf8')).toBe(miniSite['robots.txt']);
  });
});

/**
 * Replicas as they are deployed: gates on one PostgreSQL server and one object store (s3rver).
 * One publishes a build; every replica serves it, a replica started later boots from it, a
 * tampered release is refused everywhere while the last good one stays served, and an
 * administrator's rollback reaches every replica.
 */
describe('replicas serving site releases', () => {
  const marker = (name: string) => `Release marker ${name}`;
  const siteWith = (name: string) =>
    makeTestSite({
      ...miniSite,
      'docs/index.html': String(miniSite['docs/index.html']).replace('<h1>', `<p>${marker(name)}</p><h1>`),
    });
  const gates: FastifyInstance[] = [];
  let readers: EmulatorReaders;
  let adminAccount: { email: string; password: string };
  let env: Record<string, string>;
  let prefix: string;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  beforeAll(async () => {
    prefix = `replicas${Math.random().toString(16).slice(2, 8)}`;
    // The SDK's own chain, as a deployment gives it: the environment.
    process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
    env = {
      DATABASE_URL: await freshPostgresUrl(),
      SITE_RELEASES: `s3://${s3.bucket}/${prefix}`,
      SITE_RELEASES_S3_ENDPOINT: s3.endpoint,
      SITE_RELEASES_S3_PATH_STYLE: '1',
      SITE_RELEASES_CHECK_SECONDS: '1',
    };
  });
  afterAll(async () => {
    for (const gate of gates) await gate.close();
    process.env.AWS_ACCESS_KEY_ID = saved.id;
    process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  });

  const gate = async (site: string, extra: Record<string, string> = {}) => {
    const made = await readyTestApp(site, { ...env, SITE_RELEASES_CACHE: scratch('gate-cache'), ...extra });
    gates.push(made.app);
    readers = made.readers;
    return made;
  };
  const served = async (app: FastifyInstance) => (await app.inject({ url: '/docs/' })).body;
  const everywhere = (name: string, timeout = 3000) =>
    Promise.all(gates.map((app) => expect.poll(() => served(app), { timeout, interval: 100 }).toContain(marker(name))));

  it('every replica serves the live release, and one started later boots from it', async () => {
    const { app: one } = await gate(await siteWith('A'), { SITE_RELEASES_PUBLISH_AT_START: '1' });
    // Started with another build in its image: it serves the live release before it listens.
    const { app: two } = await gate(await siteWith('image'));
    expect(await served(two)).toContain(marker('A'));

    const published = Date.now();
    await one.releases?.publish(await siteWith('B'), { job: 'test', sources: {}, by: null });
    await everywhere('B');
    const reached = Date.now() - published;
    console.log(`site release: served by both replicas ${reached} ms after it was made live`);

    const { app: three } = await gate(await siteWith('image'));
    expect(await served(three)).toContain(marker('B'));

    adminAccount = await readers.create({ groups: ['admin'] });
    const admin = await signInCookie(one, await readers.signIn(adminAccount.email, adminAccount.password));
    const listed = await two.inject({ url: '/api/admin/site-releases', headers: { cookie: admin } });
    expect(listed.statusCode, listed.body).toBe(200);
    const overview = listed.json() as { releases: { id: number; state: string; job: string }[]; serving: string };
    expect(overview.releases.map((release) => [release.state, release.job])).toEqual([
      ['live', 'test'],
      ['kept', 'the build the gate started with'],
    ]);
  });

  it('refuses a release whose files were changed in the store, on every replica, and keeps serving the last good one', async () => {
    const [one] = gates as [FastifyInstance];
    const store = s3Store(`${prefix}/`);
    const build = await siteWith('tampered');
    const bundle = await publishBundle(store, build);
    const { hash } = (await readBundleManifest(store, bundle.id)).files['docs/index.html'] as { hash: string };
    await store.put(`blobs/${hash}`, Buffer.from('<p>Release marker evil</p>'));
    await expect(one.releases?.publish(build, { job: 'tampered', sources: {}, by: null })).resolves.toBeDefined();
    // Each replica's own check (every second) reads the new live release and refuses it.
    await Promise.all(
      gates.map((app) =>
        expect.poll(() => app.releases?.status.refused?.error, { timeout: 4000 }).toMatch(/does not match its hash/),
      ),
    );
    for (const app of gates) {
      const body = await served(app);
      expect(body).toContain(marker('B'));
      expect(body).not.toContain('evil');
    }
    store.close();
  });

  it('an administrator serves an earlier release again, on every replica, audited', async () => {
    const [one, two] = gates as [FastifyInstance, FastifyInstance];
    const admin = await signInCookie(two, await readers.signIn(adminAccount.email, adminAccount.password));
    const { releases } = (await one.inject({ url: '/api/admin/site-releases', headers: { cookie: admin } })).json() as {
      releases: { id: number; job: string }[];
    };
    const wanted = releases.find((release) => release.job === 'the build the gate started with');
    const started = Date.now();
    const made = await two.inject({
      method: 'POST',
      url: `/api/admin/site-releases/${wanted?.id}/live`,
      headers: { cookie: admin, origin: ORIGIN },
    });
    expect(made.statusCode, made.body).toBe(200);
    await everywhere('A');
    console.log(`site release: a rollback served by every replica in ${Date.now() - started} ms`);
    for (const app of gates) expect(app.releases?.status.refused).toBeNull();

    // Only administrators: a staff or partner reader and an anonymous one learn nothing of them.
    const live = (await one.releases?.live())?.bundle as string;
    for (const groups of [['staff'], ['partner']]) {
      const other = await readers.create({ groups });
      const cookie = await signInCookie(two, await readers.signIn(other.email, other.password));
      for (const [method, url] of [
        ['GET', '/api/admin/site-releases'],
        ['POST', `/api/admin/site-releases/${wanted?.id}/live`],
      ] as const) {
        const refused = await two.inject({ method, url, headers: { cookie, origin: ORIGIN } });
        expect(refused.statusCode, `${groups[0]} ${method} ${url}`).toBe(403);
        expect(refused.body).not.toContain(live);
      }
    }
    const anonymous = await two.inject({ url: '/api/admin/site-releases' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.body).not.toContain(live);

    const missing = await two.inject({
      method: 'POST',
      url: '/api/admin/site-releases/999999/live',
      headers: { cookie: admin, origin: ORIGIN },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'There is no site release 999999.' });

    await expect
      .poll(async () => {
        const trail = await two.inject({ url: '/api/admin/audit?kind=admin.site-release', headers: { cookie: admin } });
        return (trail.json() as { events: { detail: { release?: number } }[] }).events.map(
          (event) => event.detail.release,
        );
      })
      .toEqual([wanted?.id]);
  });

  it('a replica that boots while the store is down serves its own build, says why, and serves the live release once the store is back', async () => {
    // The store as this replica reaches it: a forwarder to s3rver on a port nothing listens on yet.
    const port = await freePort();
    const sockets = new Set<Socket>();
    const forwarder = createServer((socket) => {
      const upstream = connect(Number(new URL(s3.endpoint).port), '127.0.0.1');
      for (const end of [socket, upstream]) {
        sockets.add(end);
        end.on('error', () => undefined);
        end.on('close', () => sockets.delete(end));
      }
      socket.pipe(upstream).pipe(socket);
    });
    const { app: late } = await readyTestApp(await siteWith('image'), {
      ...env,
      SITE_RELEASES_S3_ENDPOINT: `http://127.0.0.1:${port}`,
      SITE_RELEASES_CACHE: scratch('late-cache'),
    });
    try {
      expect(await served(late)).toContain(marker('image'));
      expect(late.releases?.status).toMatchObject({
        serving: null,
        refused: { error: expect.stringMatching(/ECONNREFUSED/) },
      });
      const admin = await signInCookie(late, await readers.signIn(adminAccount.email, adminAccount.password));
      const overview = (await late.inject({ url: '/api/admin/site-releases', headers: { cookie: admin } })).json() as {
        refused: { error: string } | null;
      };
      expect(overview.refused?.error).toMatch(/ECONNREFUSED/);

      await new Promise<void>((resolve) => forwarder.listen(port, '127.0.0.1', resolve));
      // Its own check (every second) fetches the live release once the store answers.
      await expect.poll(() => served(late), { timeout: 5000, interval: 100 }).toContain(marker('A'));
      expect(late.releases?.status.refused).toBeNull();
    } finally {
      await late.close();
      for (const socket of sockets) socket.destroy();
      forwarder.close();
    }
  });
});
