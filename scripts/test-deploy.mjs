// `npm run test:deploy`: the portal as it is deployed, on this machine.
//  1. The container image: a stand-in of the official Node.js base image made from Debian's
//     packages (mmdebstrap) with this machine's Node.js, under a name of its own
//     (localhost/norigin-docs-base:<hash of what it is made from>), never the official one;
//     the portal's Containerfile built on it with podman (its NODE_IMAGE argument), run, and
//     asked: a public page, a private one, a sign-in against the Auth Emulator, its health check.
//  2. A cluster: three gate replicas behind Debian's nginx (retrying idempotent requests on
//     the next replica), with Debian's redis-server and postgresql and the emulator, all on
//     free ports; sessions, logout, an administrator's disable, a SCIM deactivation and the rate limit across
//     replicas; a licence withdrawn with Redis paused; a rolling restart and a kill -9 under
//     100 connections of load.
//  3. Releases, in that cluster: a builder (npm run builder) on a copy of the site whose open
//     section follows a package this run publishes to Verdaccio, the site releases in s3rver;
//     a first release into the empty store, then three more, each hooked and timed until every
//     replica serves it, under load; a replica started afterwards serves the last; a rollback
//     reaches every replica. Before them, a licence's end is timed with Redis paused.
// Needs root (podman with runc, apt-installed tools); installs what is missing with apt-get.
//   --cluster-only   skip the container image (step 1)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import assert from 'node:assert/strict';

import autocannon from 'autocannon';
import closeWithGrace from 'close-with-grace';

import { buildServer, buildSiteIfStale, syncSources } from './build-if-stale.mjs';
import { signInWithPassword, startSession } from './portal-client.mjs';
import { ensureDebianPackages } from '../tools/lib/apt.mjs';
import { emulatorRequest, readSeed, seedReaders, startAuthEmulator } from '../tools/lib/emulator.mjs';
import { startGate } from '../tools/lib/gate.mjs';
import { startNginx } from '../tools/lib/nginx.mjs';
import { freePort, freePorts } from '../tools/lib/ports.mjs';
import { postgresBin, startPostgres } from '../tools/lib/postgres.mjs';
import { answers, sleep, waitUntil } from '../tools/lib/process.mjs';
import { startRedis } from '../tools/lib/redis.mjs';
import {
  jobsServed,
  prepareBuilderSite,
  PROBE_SOURCE,
  releaseSettings,
  SECTION,
  servedEverywhere,
  servedVersion,
  startBuilder,
  timedRelease,
} from '../tools/lib/releases.mjs';
import { startS3rver } from '../tools/lib/s3rver.mjs';

let flags;
try {
  ({ values: flags } = parseArgs({ options: { 'cluster-only': { type: 'boolean', default: false } } }));
} catch (error) {
  console.error(`${error.message}\nusage: npm run test:deploy [-- --cluster-only]`);
  process.exit(2);
}

// Ctrl-C (or a crash) mid-run: stop what outlives this process. Its child processes are
// ended by tools/lib as it exits, and PostgreSQL too; the container and the emulator's
// folder are not.
const onInterrupt = new Set();
closeWithGrace({ delay: 30_000 }, async ({ signal, err }) => {
  if (err) console.error(`test:deploy failed: ${err.stack ?? err}`);
  else log(`${signal}: stopping what this run started`);
  for (const stop of onInterrupt) await stop();
});

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const work = join(root, 'deploy', '.work');
const started = Date.now();
const log = (line) => console.log(`[${String(Math.round((Date.now() - started) / 1000)).padStart(4)} s] ${line}`);
const results = { measuredAt: new Date().toISOString() };
// The Containerfile's FROM (its NODE_IMAGE argument's default), which this run never makes or tags.
const OFFICIAL_IMAGE = 'docker.io/library/node:24-bookworm-slim';

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, ...options });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stderr || result.stdout}`);
  return result.stdout;
}

function ensureTools() {
  ensureDebianPackages(
    [
      { pkg: 'podman', command: 'podman' },
      { pkg: 'runc', command: 'runc' },
      { pkg: 'uidmap', command: 'newuidmap' },
      { pkg: 'mmdebstrap', command: 'mmdebstrap' },
      { pkg: 'nginx', command: 'nginx' },
      { pkg: 'redis-server', command: 'redis-server' },
      { pkg: 'postgresql', present: () => postgresBin() !== null },
    ],
    { purpose: 'test:deploy' },
  );
}

// podman as this machine runs it: runc (crun fails here), the host network, no default ulimits.
const containersConf = join(work, 'containers.conf');
const podman = (args, options = {}) =>
  run('podman', args, { ...options, env: { ...process.env, CONTAINERS_CONF: containersConf } });

/**
 * The npm this runs under (`npm run test:deploy` names it in npm_execpath), else the one
 * beside Node.js: the `node` package from the registry (how .ci/run gets Node.js 24) has none.
 */
function npmDir() {
  const cli = process.env.npm_execpath;
  return cli && existsSync(cli)
    ? dirname(dirname(realpathSync(cli)))
    : join(dirname(dirname(process.execPath)), 'lib', 'node_modules', 'npm');
}

/**
 * The stand-in's name: ours (localhost/, a name no registry serves), tagged with a digest of
 * what it is made from (this recipe, the machine's Node.js and npm, its certificate
 * authorities), so a change to any of them makes a new image instead of reusing a stale one.
 */
function baseImageName() {
  const digest = createHash('sha256')
    .update(standInBaseImage.toString())
    .update(process.version)
    .update(readFileSync(join(npmDir(), 'package.json')))
    .update(readFileSync('/etc/ssl/certs/ca-certificates.crt'))
    .digest('hex');
  return `localhost/norigin-docs-base:${digest.slice(0, 12)}`;
}

/**
 * A stand-in of the official base image (OFFICIAL_IMAGE), as `image`: Debian bookworm
 * (minbase) with this machine's Node.js and npm, and the user `node`.
 */
function standInBaseImage(image) {
  if (
    spawnSync('podman', ['image', 'exists', image], { env: { ...process.env, CONTAINERS_CONF: containersConf } })
      .status === 0
  ) {
    log(`${image} is already here`);
    return;
  }
  log(
    `Making ${image}, a stand-in of ${OFFICIAL_IMAGE}, from Debian's packages (mmdebstrap) and this machine's Node.js ${process.version}`,
  );
  const rootfs = join(work, 'rootfs');
  rmSync(rootfs, { recursive: true, force: true });
  mkdirSync(rootfs, { recursive: true });
  // The machine's own Debian sources (the mirror apt-get already uses), never a host named here.
  const sources = ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list'].find(
    (file) => existsSync(file) && readFileSync(file, 'utf8').includes('debian'),
  );
  if (!sources) throw new Error("test:deploy needs this machine's Debian apt sources for mmdebstrap");
  run('mmdebstrap', ['--variant=minbase', '--include=ca-certificates', 'bookworm', rootfs, sources]);
  run('install', ['-D', process.execPath, join(rootfs, 'usr/local/bin/node')]);
  mkdirSync(join(rootfs, 'usr/local/lib/node_modules'), { recursive: true });
  run('cp', ['-a', npmDir(), join(rootfs, 'usr/local/lib/node_modules/npm')]);
  run('ln', ['-sf', '../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm')]);
  writeFileSync(
    join(rootfs, 'etc/passwd'),
    `${readFileSync(join(rootfs, 'etc/passwd'), 'utf8')}node:x:1000:1000::/home/node:/bin/sh\n`,
  );
  writeFileSync(join(rootfs, 'etc/group'), `${readFileSync(join(rootfs, 'etc/group'), 'utf8')}node:x:1000:\n`);
  mkdirSync(join(rootfs, 'home/node'), { recursive: true });
  run('chown', ['1000:1000', join(rootfs, 'home/node')]);
  // This machine reaches the npm registry through its own certificate authorities.
  run('cp', ['/etc/ssl/certs/ca-certificates.crt', join(rootfs, 'etc/ssl/certs/ca-certificates.crt')]);
  const tar = spawnSync(
    'sh',
    [
      '-c',
      `tar -C '${rootfs}' -c . | podman import --change 'CMD ["node"]' --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' --change 'ENV npm_config_cafile=/etc/ssl/certs/ca-certificates.crt' - ${image}`,
    ],
    { env: { ...process.env, CONTAINERS_CONF: containersConf }, encoding: 'utf8' },
  );
  if (tar.status !== 0) throw new Error(`podman import failed: ${tar.stderr}`);
  rmSync(rootfs, { recursive: true, force: true });
}

const waitFor = (url) => waitUntil(answers(url), { what: url, intervalMs: 200 });

const staff = readSeed().find((reader) => reader.role === 'staff');
const admin = readSeed().find((reader) => reader.role === 'admin');
const PRIVATE = '/docs/layout-engine/';

async function containerCheck(emulator) {
  const baseImage = baseImageName();
  standInBaseImage(baseImage);
  log(`Building the portal image with podman (Containerfile, FROM ${baseImage})`);
  const buildStarted = Date.now();
  const imageBuild = [
    'build',
    '--format',
    'docker',
    '--network',
    'host',
    '--ulimit',
    'nofile=20000:20000',
    '--build-arg',
    `NODE_IMAGE=${baseImage}`,
    // The base is made here; nothing is pulled from a registry.
    '--pull=never',
  ];
  podman([...imageBuild, '-t', 'norigin-docs:deploy-test', root]);
  results['container.build_s'] = Math.round((Date.now() - buildStarted) / 1000);
  // The builder's target reuses the build stage just made, so it costs little more.
  podman([...imageBuild, '--target', 'builder', '-t', 'norigin-docs-builder:deploy-test', root]);
  const imageMb = (image) =>
    Math.round(Number(podman(['image', 'inspect', image, '--format', '{{.Size}}']).trim()) / 1e6);
  results['container.image_mb'] = imageMb('norigin-docs:deploy-test');
  results['container.builder_image_mb'] = imageMb('norigin-docs-builder:deploy-test');
  // The gate image builds nothing: no scripts, no Docusaurus, no TypeDoc, no site sources.
  const inGate = podman([
    'run',
    '--rm',
    '--network',
    'none',
    '--entrypoint',
    'sh',
    'norigin-docs:deploy-test',
    '-c',
    'for path in scripts node_modules/@docusaurus node_modules/typedoc node_modules/pacote site/docs site/src; do [ -e "$path" ] && echo "$path"; done; true',
  ]).trim();
  assert.equal(inGate, '', `the gate image holds what only a build needs: ${inGate}`);
  const builderEntry = podman([
    'image',
    'inspect',
    'norigin-docs-builder:deploy-test',
    '--format',
    '{{json .Config.Entrypoint}} {{.Config.User}}',
  ]).trim();
  assert.equal(builderEntry, '["node","server/dist/builder.js"] node', 'the builder image runs the builder as node');
  log(
    `Images: gate ${results['container.image_mb']} MB (no scripts/, Docusaurus, TypeDoc or pacote), builder ${results['container.builder_image_mb']} MB`,
  );
  const port = await freePort();
  const name = `norigin-docs-test-${port}`;
  log(`Running it on port ${port} (development mode, against the emulator)`);
  const stopContainer = () => {
    onInterrupt.delete(stopContainer);
    spawnSync('podman', ['stop', '-t', '5', name], { env: { ...process.env, CONTAINERS_CONF: containersConf } });
  };
  onInterrupt.add(stopContainer);
  podman([
    'run',
    '-d',
    '--rm',
    '--name',
    name,
    '--network',
    'host',
    '-e',
    'NODE_ENV=development',
    '-e',
    `PORT=${port}`,
    '-e',
    'HOST=127.0.0.1',
    '-e',
    `FIREBASE_AUTH_EMULATOR_HOST=${emulator.host}`,
    '-e',
    `FIREBASE_PROJECT_ID=${emulator.projectId}`,
    '-e',
    'SESSION_SECRET=container-test-secret-0123456789abcdef',
    'norigin-docs:deploy-test',
  ]);
  try {
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/healthz`);
    assert.equal((await fetch(`${base}/`)).status, 200, 'public page');
    assert.equal((await fetch(`${base}${PRIVATE}`, { redirect: 'manual' })).status, 302, 'private page, signed out');
    const cookie = await startSession(base, await signInWithPassword(emulator.host, staff.email, staff.password));
    assert.equal((await fetch(`${base}${PRIVATE}`, { headers: { cookie } })).status, 200, 'private page, signed in');
    assert.equal(podman(['inspect', name, '--format', '{{.Config.User}}']).trim(), 'node', 'runs as a non-root user');
    await waitFor(`${base}/readyz`);
    const health = spawnSync('podman', ['healthcheck', 'run', name], {
      env: { ...process.env, CONTAINERS_CONF: containersConf },
    });
    assert.equal(health.status, 0, 'the image health check passes');
    results['container.checks'] = 'public 200, private 302, sign-in then private 200, non-root user, health check';
    log('Container: public 200, private 302, signed in 200, user node, health check passes');
  } finally {
    stopContainer();
  }
}

/** One gate replica on the host, on the port it had before a restart, with its own cache of site releases. */
const startReplica = (port, env) =>
  startGate({
    port,
    env: { ...env, SITE_RELEASES_CACHE: join(work, 'release-cache', String(port)) },
    stderr: 'inherit',
  });

/** nginx in front of the replicas: idempotent requests go to the next replica when one goes away. */
function startProxy(ports) {
  return startNginx({
    dir: join(work, 'nginx'),
    workerConnections: 4096,
    http: (port) => `
upstream gate {
${ports.map((p) => `  server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
  keepalive 64;
}
server {
  listen 127.0.0.1:${port};
  # The load keeps its connections for minutes: past nginx's default of 1,000 requests a
  # connection is closed, and a request the load generator had already sent on it is reset.
  keepalive_requests 1000000;
  location / {
    proxy_pass http://gate;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host $http_host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Request-Id $request_id;
    # A replica that goes away mid-request: idempotent requests go to the next one.
    proxy_next_upstream error timeout http_502 http_503;
    proxy_next_upstream_tries 3;
    proxy_connect_timeout 2s;
  }
}`,
  });
}

/** Load through nginx while `during` runs; every answer counted. */
async function underLoad(url, cookie, during, { extraPaths = [] } = {}) {
  const answers = { ok: 0, other: 0, errors: 0, timeouts: 0, errorCodes: {} };
  const instance = autocannon({
    url,
    connections: 100,
    // The longest step under load is the releases' (three builds, minutes each here).
    duration: 3600,
    requests: [
      { method: 'GET', path: '/docs/' },
      { method: 'GET', path: PRIVATE, headers: { cookie } },
      ...extraPaths.map((path) => ({ method: 'GET', path })),
    ],
  });
  instance.on('response', (_client, statusCode) => {
    if (statusCode === 200 || statusCode === 304) answers.ok += 1;
    else answers.other += 1;
  });
  instance.on('reqError', (error) => {
    answers.errors += 1;
    const code = error?.code ?? error?.message ?? 'unknown';
    answers.errorCodes[code] = (answers.errorCodes[code] ?? 0) + 1;
  });
  await during();
  instance.stop();
  const summary = await instance;
  answers.timeouts = summary.timeouts;
  answers.errors = Math.max(answers.errors, summary.errors);
  return { ...answers, requests: summary.requests.total };
}

/** The package whose releases the builder's copy of the site follows (its open section), on this run's Verdaccio. */
const HOOK_SECRET = 'deploy-test-hook-secret-0123456789';

async function clusterCheck(emulator) {
  const builderSite = await prepareBuilderSite({ dir: join(work, 'builder'), log });
  results['releases.first_build_s'] = builderSite.firstBuildS;
  const [postgres, redis, s3] = await Promise.all([startPostgres(), startRedis(), startS3rver()]);
  const ports = await freePorts(3);
  const env = {
    ...releaseSettings(s3),
    SOURCES_HOOK_SECRET: HOOK_SECRET,
    // Four releases of one source within minutes: the default allows four an hour.
    SOURCES_REBUILDS_PER_HOUR: '100',
    SITE_DIR: join(root, 'site', 'build'),
    FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    FIREBASE_PROJECT_ID: emulator.projectId,
    SESSION_SECRET: 'cluster-test-secret-shared-by-every-replica',
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    TRUST_PROXY: '127.0.0.1',
    SESSION_CACHE_TTL_SECONDS: '60',
    SESSION_RATE_LIMIT: '6',
  };
  log(`Cluster: 3 replicas on ${ports.join(', ')}, PostgreSQL, Redis, nginx`);
  const replicas = [];
  for (const port of ports) replicas.push(await startReplica(port, env));
  const nginx = await startProxy(ports);
  const direct = (i) => `http://127.0.0.1:${ports[i]}`;
  let builder;
  try {
    // 1. One session, every replica.
    const cookie = await startSession(
      nginx.baseURL,
      await signInWithPassword(emulator.host, staff.email, staff.password),
    );
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await fetch(`${direct(i)}${PRIVATE}`, { headers: { cookie } })).status,
        200,
        `replica ${i + 1} reads the session`,
      );
    log('A session made through nginx is read by all three replicas');

    // 2. Logout on one replica ends it on the others within a second (a reader of its own:
    //    a logout revokes every session of the reader).
    await emulatorRequest(emulator.host, emulator.projectId, '/accounts', {
      localId: 'cluster-leaver',
      email: 'leaver@norigin.example',
      password: 'leaving-2025',
      emailVerified: true,
    });
    const second = await startSession(
      nginx.baseURL,
      await signInWithPassword(emulator.host, 'leaver@norigin.example', 'leaving-2025'),
    );
    for (let i = 0; i < 3; i++) await fetch(`${direct(i)}${PRIVATE}`, { headers: { cookie: second } });
    await fetch(`${direct(0)}/api/logout`, { method: 'POST', headers: { cookie: second, origin: direct(0) } });
    /** How long until `path` answers `want` on replicas 2 and 3 to `cookieValue` (at most a second). */
    const answersWithin = async (cookieValue, path, want, what) => {
      const t0 = Date.now();
      for (;;) {
        const statuses = await Promise.all(
          [1, 2].map(
            async (i) =>
              (await fetch(`${direct(i)}${path}`, { headers: { cookie: cookieValue }, redirect: 'manual' })).status,
          ),
        );
        if (statuses.every((status) => status === want)) return Date.now() - t0;
        if (Date.now() - t0 > 1000) throw new Error(`${what}: still ${statuses} after a second`);
        await sleep(20);
      }
    };
    const endedWithin = (cookieValue) => answersWithin(cookieValue, PRIVATE, 302, 'the session');
    results['cluster.logout_ends_everywhere_ms'] = await endedWithin(second);
    log(
      `Logout on replica 1 ended the session on replicas 2 and 3 in ${results['cluster.logout_ends_everywhere_ms']} ms`,
    );

    // 3. An administrator's disable, the same.
    const adminCookie = await startSession(
      nginx.baseURL,
      await signInWithPassword(emulator.host, admin.email, admin.password),
    );
    const partner = readSeed().find((reader) => reader.role === 'partner');
    const partnerCookie = await startSession(
      nginx.baseURL,
      await signInWithPassword(emulator.host, partner.email, partner.password),
    );
    for (let i = 0; i < 3; i++) await fetch(`${direct(i)}${PRIVATE}`, { headers: { cookie: partnerCookie } });
    const disabled = await fetch(`${direct(0)}/api/admin/readers/${partner.uid}/disable`, {
      method: 'POST',
      headers: { cookie: adminCookie, origin: direct(0) },
    });
    assert.equal(disabled.status, 200, 'the administrator disables the partner');
    results['cluster.disable_ends_everywhere_ms'] = await endedWithin(partnerCookie);
    log(
      `Disabling on replica 1 ended the reader's session on 2 and 3 in ${results['cluster.disable_ends_everywhere_ms']} ms`,
    );
    await fetch(`${direct(0)}/api/admin/readers/${partner.uid}/enable`, {
      method: 'POST',
      headers: { cookie: adminCookie, origin: direct(0) },
    });

    // 3a. A partner's directory deactivates its developer over SCIM on replica 1: the
    //     developer's session and personal token are refused on pages, Markdown, llms
    //     files, search and MCP by replicas 2 and 3 within 3 s.
    const adminCall = (method, path, body) =>
      fetch(`${direct(0)}${path}`, {
        method,
        headers: { cookie: adminCookie, origin: direct(0), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const scimOrganisation = { id: 'cluster-scim', name: 'Cluster Directory', domains: ['cluster-scim.example'] };
    assert.equal((await adminCall('POST', '/api/admin/organisations', scimOrganisation)).status, 201);
    assert.equal(
      (await adminCall('POST', `/api/admin/organisations/${scimOrganisation.id}/licences`, { units: ['layout'] }))
        .status,
      201,
    );
    const minted = await adminCall('POST', `/api/admin/organisations/${scimOrganisation.id}/scim-tokens`, {
      name: 'cluster directory',
    });
    assert.equal(minted.status, 201, 'the administrator mints a SCIM token');
    const scimToken = (await minted.json()).token;
    const scim = (method, path, body) =>
      fetch(`${direct(0)}/scim/v2${path}`, {
        method,
        headers: { authorization: `Bearer ${scimToken}`, 'content-type': 'application/scim+json' },
        body: JSON.stringify(body),
      });
    const made = await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: 'dev@cluster-scim.example',
    });
    assert.equal(made.status, 201, 'the directory provisions a developer');
    const developer = (await made.json()).id;
    await emulatorRequest(emulator.host, emulator.projectId, '/accounts:update', {
      localId: developer,
      password: 'directory-2025',
    });
    const developerCookie = await startSession(
      nginx.baseURL,
      await signInWithPassword(emulator.host, 'dev@cluster-scim.example', 'directory-2025'),
    );
    const tokenMade = await fetch(`${direct(0)}/api/tokens`, {
      method: 'POST',
      headers: { cookie: developerCookie, origin: direct(0), 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'cluster assistant', days: 1, scope: 'read' }),
    });
    assert.equal(tokenMade.status, 201, 'the developer makes a personal token');
    const bearer = { authorization: `Bearer ${(await tokenMade.json()).token}` };
    const surfaces = [
      ['page', PRIVATE, { cookie: developerCookie }, 302],
      ['markdown', '/docs/layout-engine.md', bearer, 401],
      ['llms', '/llms-full.txt', bearer, 401],
      ['search', '/api/search?q=layout', bearer, 401],
      ['mcp', '/mcp', bearer, 401],
    ];
    const ask = (i, [, path, headers]) =>
      path === '/mcp'
        ? fetch(`${direct(i)}/mcp`, {
            method: 'POST',
            headers: { ...headers, accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
          })
        : fetch(`${direct(i)}${path}`, { headers, redirect: 'manual' });
    for (let i = 0; i < 3; i++)
      for (const surface of surfaces)
        assert.equal((await ask(i, surface)).status, 200, `replica ${i + 1} serves the developer's ${surface[0]}`);
    const deactivated = await scim('PATCH', `/Users/${developer}`, {
      schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    assert.equal(deactivated.status, 200, 'the directory deactivates the developer');
    const leftAt = Date.now();
    for (;;) {
      const seen = await Promise.all(
        [1, 2].flatMap((i) => surfaces.map(async (surface) => [surface, (await ask(i, surface)).status])),
      );
      if (seen.every(([surface, status]) => status === surface[3])) break;
      if (Date.now() - leftAt > 3000)
        throw new Error(
          `a deactivated developer is still served after 3 s: ${seen.map(([surface, status]) => `${surface[0]} ${status}`).join(', ')}`,
        );
      await sleep(50);
    }
    results['cluster.scim_deactivation_ends_everywhere_ms'] = Date.now() - leftAt;
    log(
      `A developer deactivated over SCIM on replica 1 was refused on pages, Markdown, llms files, search and MCP by replicas 2 and 3 in ${results['cluster.scim_deactivation_ends_everywhere_ms']} ms`,
    );

    // 3b. A licence granted on one replica reads on the other two within a second, and its
    //     withdrawal stops it there as fast (the shared state's broadcast; no new sign-in).
    const post = (path, body, method = 'POST') =>
      fetch(`${direct(0)}${path}`, {
        method,
        headers: {
          cookie: adminCookie,
          origin: direct(0),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    assert.equal(
      (
        await post('/api/admin/organisations', {
          id: 'cluster-studio',
          name: 'Cluster Studio',
          domains: ['cluster-studio.example'],
        })
      ).status,
      201,
      'the administrator makes an organisation',
    );
    assert.equal((await post('/api/admin/organisations/cluster-studio/licences', { units: ['blog'] })).status, 201);
    await emulatorRequest(emulator.host, emulator.projectId, '/accounts', {
      localId: 'cluster-licensee',
      email: 'dev@cluster-studio.example',
      password: 'licensed-2026',
      emailVerified: true,
    });
    const licensee = await startSession(
      nginx.baseURL,
      await signInWithPassword(emulator.host, 'dev@cluster-studio.example', 'licensed-2026'),
    );
    const LICENSED = '/docs/layout-engine/';
    // Not licensed yet: refused there.
    await answersWithin(licensee, LICENSED, 403, 'before the grant');
    const within = (want, what) => answersWithin(licensee, LICENSED, want, what);
    const granted = await post('/api/admin/organisations/cluster-studio/licences', { units: ['layout'] });
    assert.equal(granted.status, 201);
    results['cluster.grant_reads_everywhere_ms'] = await within(200, 'grant');
    assert.equal((await post(`/api/admin/licences/${(await granted.json()).id}`, undefined, 'DELETE')).status, 204);
    results['cluster.withdrawal_ends_everywhere_ms'] = await within(403, 'withdrawal');
    log(
      `A licence granted on replica 1 read on 2 and 3 in ${results['cluster.grant_reads_everywhere_ms']} ms; withdrawn, it stopped there in ${results['cluster.withdrawal_ends_everywhere_ms']} ms`,
    );

    // 3c. The same withdrawal with Redis paused (SIGSTOP): the administrator is answered at
    //     once, and every replica refuses within 3 s, by the access version in PostgreSQL.
    const regranted = await post('/api/admin/organisations/cluster-studio/licences', { units: ['layout'] });
    assert.equal(regranted.status, 201);
    await within(200, 'grant again');
    await redis.freeze();
    try {
      const t0 = Date.now();
      const withdrawn = await post(`/api/admin/licences/${(await regranted.json()).id}`, undefined, 'DELETE');
      results['cluster.paused_redis_withdraw_answer_ms'] = Date.now() - t0;
      assert.equal(withdrawn.status, 204, 'the withdrawal is taken with Redis paused');
      const everywhere = async () => {
        for (;;) {
          const statuses = await Promise.all(
            [0, 1, 2].map(
              async (i) =>
                (await fetch(`${direct(i)}${LICENSED}`, { headers: { cookie: licensee }, redirect: 'manual' })).status,
            ),
          );
          if (statuses.every((status) => status === 403)) return Date.now() - t0;
          if (Date.now() - t0 > 3000) throw new Error(`withdrawal with Redis paused: still ${statuses} after 3 s`);
          await sleep(20);
        }
      };
      results['cluster.paused_redis_withdrawal_ends_everywhere_ms'] = await everywhere();
    } finally {
      await redis.thaw();
    }
    log(
      `With Redis paused, the withdrawal was answered in ${results['cluster.paused_redis_withdraw_answer_ms']} ms and refused on all three replicas in ${results['cluster.paused_redis_withdrawal_ends_everywhere_ms']} ms`,
    );

    // 3d. A licence that ends stops on every replica with no message at all: its end is set
    //     in PostgreSQL by hand, 10 s ahead (heard as any change), and Redis is paused from
    //     before the end until every replica refuses; timed from the end.
    const ending = await post('/api/admin/organisations/cluster-studio/licences', { units: ['layout'] });
    assert.equal(ending.status, 201);
    await within(200, 'a licence that will end');
    {
      const { openDatabase } = await import(join(root, 'server', 'dist', 'db', 'database.js'));
      const db = await openDatabase({ kind: 'postgres', url: postgres.url });
      const endsAt = Date.now() + 10_000;
      try {
        await db.query('update licences set ends_at = $1 where id = $2', [new Date(endsAt), (await ending.json()).id]);
      } finally {
        await db.close();
      }
      const statusesEverywhere = () =>
        Promise.all(
          [0, 1, 2].map(
            async (i) =>
              (await fetch(`${direct(i)}${LICENSED}`, { headers: { cookie: licensee }, redirect: 'manual' })).status,
          ),
        );
      // Every replica has read the end date well before it (the change is polled twice a second).
      await sleep(4000);
      assert.deepEqual(await statusesEverywhere(), [200, 200, 200], 'the licence still reads before its end');
      await redis.freeze();
      try {
        await sleep(Math.max(0, endsAt - Date.now()));
        for (;;) {
          const statuses = await statusesEverywhere();
          if (statuses.every((status) => status === 403)) break;
          if (Date.now() - endsAt > 60_000) throw new Error(`an ended licence: still ${statuses} 60 s after its end`);
          await sleep(20);
        }
        results['cluster.licence_end_refused_everywhere_ms'] = Date.now() - endsAt;
      } finally {
        await redis.thaw();
      }
    }
    log(
      `A licence that ended, with Redis paused, was refused on all three replicas ${results['cluster.licence_end_refused_everywhere_ms']} ms after its end`,
    );

    // 4. The sign-in limit is counted across replicas (6 a minute per client address).
    const statuses = [];
    for (let i = 0; i < 8; i++) {
      const response = await fetch(`${nginx.baseURL}/api/session`, {
        method: 'POST',
        headers: { origin: nginx.baseURL, 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
        body: JSON.stringify({ idToken: 'x' }),
      });
      statuses.push(response.status);
    }
    assert.deepEqual(statuses.slice(-2), [429, 429], `the shared limit refuses the 7th and 8th: ${statuses}`);
    results['cluster.rate_limit_statuses'] = statuses.join(' ');
    log(`Sign-in attempts through nginx, spread over the replicas: ${statuses.join(' ')}`);

    // 5. A rolling restart under 100 connections of load.
    // The page views of one reader of their own (the administrator) while the replicas
    // restart: every one of their answered requests must be in the trail, read as the
    // admin page reads it (a row per reader, page and hour with a count: server/src/db/page-views.ts).
    const { openDatabase } = await import(join(root, 'server', 'dist', 'db', 'database.js'));
    const { queryAudit } = await import(join(root, 'server', 'dist', 'db', 'audit.js'));
    const trail = await openDatabase({ kind: 'postgres', url: postgres.url });
    const views = async (email) =>
      (await queryAudit(trail, { kinds: ['page.view'], reader: email, limit: 100_000 })).reduce(
        (sum, row) => sum + row.detail.views,
        0,
      );
    const viewsBefore = await views(admin.email);
    let privateServed = 0;
    const counting = autocannon({
      url: nginx.baseURL,
      connections: 10,
      duration: 600,
      requests: [{ method: 'GET', path: PRIVATE, headers: { cookie: adminCookie } }],
    });
    counting.on('response', (_c, statusCode) => {
      if (statusCode === 200) privateServed += 1;
    });
    const rolling = await underLoad(nginx.baseURL, cookie, async () => {
      for (let i = 0; i < 3; i++) {
        await replicas[i].stop();
        replicas[i] = await startReplica(ports[i], env);
        await sleep(500);
      }
    });
    counting.stop();
    await counting;
    results['cluster.rolling_restart'] = rolling;
    log(`Rolling restart of 3 replicas under 100 connections: ${JSON.stringify(rolling)}`);
    assert.equal(rolling.errors + rolling.other + rolling.timeouts, 0, 'no request lost in the rolling restart');

    // 6. Audit events of finished requests survive (restarts write their queues before exiting).
    for (let i = 0; i < 3; i++) await replicas[i].stop();
    for (let i = 0; i < 3; i++) replicas[i] = await startReplica(ports[i], env);
    const written = (await views(admin.email)) - viewsBefore;
    results['cluster.private_views_served'] = privateServed;
    results['cluster.private_views_recorded'] = written;
    log(`Page views answered to the counted reader during the restarts: ${privateServed}; in the trail: ${written}`);
    assert.ok(privateServed > 0, 'the counted reader was served during the restarts');
    // At least: none lost. (More would be a request nginx retried after a replica had
    // answered it but the answer was lost; the figures above show whether that happened.)
    assert.ok(written >= privateServed, 'every page view of a finished request is in the trail');

    // 7. kill -9 of one replica under load.
    const killed = await underLoad(nginx.baseURL, cookie, async () => {
      await sleep(1000);
      replicas[1].signal('SIGKILL');
      await sleep(3000);
      replicas[1] = await startReplica(ports[1], env);
      await sleep(1000);
    });
    results['cluster.kill_9'] = killed;
    log(`kill -9 of one replica under 100 connections: ${JSON.stringify(killed)}`);
    assert.equal(killed.errors + killed.other + killed.timeouts, 0, 'no GET lost to a killed replica');
    await trail.close();

    // 8. Releases: the builder takes each hook's job from PostgreSQL, builds and publishes it
    //    to s3rver, and every replica serves it; under load, no request fails. The first
    //    release goes into an empty store and empty replica caches (every file of the site
    //    moves), as it does once in a portal's life: it is timed apart. Each release after it
    //    is published when the builder is idle (the job before it has ended, its archive made).
    builder = startBuilder({
      builderSite,
      s3,
      databaseUrl: postgres.url,
      logLevel: process.env.DEPLOY_BUILDER_LOG_LEVEL ?? 'warn',
    });
    onInterrupt.add(builder.stop);
    const versions = ['3.5.0', '3.6.0', '3.7.0', '3.8.0', '3.9.0'];
    const bases = [0, 1, 2].map(direct);
    const release = (version) =>
      timedRelease({ builderSite, hookURL: nginx.baseURL, secret: HOOK_SECRET, bases, version, versions });
    const jobEnded = (ids, what) => jobsServed(direct(0), adminCookie, ids, what);
    const first = await release('3.6.0');
    results['releases.first_publish_to_served_everywhere_s'] = first.seconds;
    log(`First release 3.6.0, into an empty store: served by all three replicas in ${first.seconds} s`);
    await jobEnded(first.jobs, 'release 3.6.0');
    const releaseFigures = [];
    const releasing = await underLoad(
      nginx.baseURL,
      cookie,
      async () => {
        for (const version of versions.slice(2)) {
          const { seconds, jobs } = await release(version);
          releaseFigures.push(seconds);
          log(`Release ${version}: published, hooked and served by all three replicas in ${seconds} s`);
          await jobEnded(jobs, `release ${version}`);
        }
      },
      { extraPaths: [SECTION] },
    );
    results['releases.publish_to_served_everywhere_s'] = releaseFigures;
    results['releases.publish_to_served_everywhere_p95_s'] = Math.max(...releaseFigures);
    results['releases.under_load'] = releasing;
    log(`Releases under 100 connections: ${JSON.stringify(releasing)}`);
    assert.equal(releasing.errors + releasing.other + releasing.timeouts, 0, 'no request failed while releasing');
    assert.ok(
      results['releases.publish_to_served_everywhere_p95_s'] <= 60,
      `publish to served everywhere, p95 of ${releaseFigures.join(', ')} s, within 60 s`,
    );

    // A replica started after the releases serves the last one from its first answer.
    const [latePort] = await freePorts(1);
    const late = await startReplica(latePort, env);
    try {
      assert.equal(
        await servedVersion(`http://127.0.0.1:${latePort}`, versions),
        '3.9.0',
        'a late replica serves 3.9.0',
      );
    } finally {
      await late.stop();
    }
    log('A replica started after the releases served 3.9.0 from its first answer');

    // A rollback to the release before (audited), on every replica.
    const listed = await (
      await fetch(`${direct(0)}/api/admin/site-releases`, { headers: { cookie: adminCookie } })
    ).json();
    const madeOf = (release) => release.sources[PROBE_SOURCE.id] ?? [];
    const before = listed.releases.find(
      (release) => madeOf(release).includes('3.8.0') && !madeOf(release).includes('3.9.0'),
    );
    assert.ok(before, `a kept release of 3.8.0 among ${listed.releases.map((release) => release.id).join(', ')}`);
    const t0 = Date.now();
    const rolledBack = await post(`/api/admin/site-releases/${before.id}/live`);
    assert.equal(rolledBack.status, 200, `the rollback is taken: ${await rolledBack.clone().text()}`);
    await servedEverywhere(bases, '3.8.0', versions, 30_000, 'the rollback');
    results['releases.rollback_served_everywhere_s'] = Math.round((Date.now() - t0) / 100) / 10;
    log(`Rollback to 3.8.0 served by all three replicas in ${results['releases.rollback_served_everywhere_s']} s`);
  } finally {
    await builder?.stop();
    await nginx.stop();
    for (const replica of replicas) await replica.stop();
    await postgres.stop();
    await redis.stop();
    await s3.stop();
    await builderSite.verdaccio.stop();
  }
}

mkdirSync(work, { recursive: true });
writeFileSync(containersConf, '[containers]\ndefault_ulimits = []\n[engine]\nruntime = "runc"\n');
ensureTools();
buildServer();
await syncSources();
buildSiteIfStale();
const emulator = await startAuthEmulator();
onInterrupt.add(emulator.stop);
let failed = null;
try {
  await seedReaders(emulator.host, emulator.projectId);
  if (!flags['cluster-only']) await containerCheck(emulator);
  await clusterCheck(emulator);
} catch (error) {
  failed = error;
} finally {
  await emulator.stop();
}
results.seconds = Math.round((Date.now() - started) / 1000);
writeFileSync(join(work, 'results.json'), JSON.stringify(results, null, 2) + '\n');
if (failed) {
  console.error(`test:deploy failed: ${failed.stack ?? failed}`);
  process.exit(1);
}
log(`test:deploy passed; figures in ${join('deploy', '.work', 'results.json')}`);
process.exit(0);
