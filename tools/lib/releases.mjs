// Site releases as they are deployed, for `test:deploy` and the benchmark's `releases` part:
// a builder (server/dist/builder.js) on a copy of the site whose open section follows a
// package published to Verdaccio by the caller, site releases in s3rver, gates that follow
// them, and how to tell which release a gate serves.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { releaseHook, signedHook } from '../../scripts/hook.mjs';
import { sleep, startProcess } from './process.mjs';
import { S3RVER_CREDENTIALS } from './s3rver.mjs';
import { copySiteSources } from './site-copy.mjs';
import { startVerdaccio } from './verdaccio.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const PROBE = '@noriginmedia/norigin-spatial-navigation';
export const PROBE_SOURCE = { id: 'norigin-spatial-navigation', kind: 'npm', package: PROBE };
/** The open section's landing page, which shows the README of the release it is built from. */
export const SECTION = '/docs/Norigin-Spatial-Navigation/';

/** What a release's landing page says, so a gate's answer tells which release it serves. */
export const releaseLine = (version) => `Release check ${version}.`;

/**
 * The builder's site, in `dir`: a copy of the site inside the repository whose open section
 * publishes the releases from `first` on of the package published here to Verdaccio, with a
 * content cache and a home (its .npmrc names the registry) of its own; built once with
 * release `first`, as the builder of a running portal has built the one before.
 */
export async function prepareBuilderSite({ dir, first = '3.5.0', log }) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'home'), { recursive: true });
  const verdaccio = await startVerdaccio({ work: dir });
  const token = await verdaccio.addUser('publisher', 'publishing-for-the-release-check');
  // Published over HTTP as the registry takes it (not with npm's client, which would hold
  // this process, and the load it makes, for seconds).
  const publish = (version) =>
    verdaccio.publishTarball(
      {
        manifest: { name: PROBE, version, types: 'dist/index.d.ts' },
        files: {
          'package.json': JSON.stringify({
            name: PROBE,
            version,
            description: 'Focus management for TV apps, published by the release check',
            license: 'UNLICENSED',
            types: 'dist/index.d.ts',
          }),
          'README.md': `# Spatial Navigation\n\n${releaseLine(version)}\n`,
          'dist/index.d.ts': '/** Makes a component focusable. */\nexport declare function useFocusable(): void;\n',
          'dist/index.js': 'export {};\n',
        },
      },
      token,
    );
  try {
    await publish(first);
    const siteDir = copySiteSources(join(dir, 'site'), { gateFiles: true });
    const sourcesFile = join(siteDir, 'sources.yaml');
    const yaml = readFileSync(sourcesFile, 'utf8');
    if (!yaml.includes("versions: '>=1.0.0'"))
      throw new Error('site/sources.yaml no longer publishes every release of the open section from 1.0.0');
    writeFileSync(sourcesFile, yaml.replace("versions: '>=1.0.0'", `versions: '>=${first}'`));
    writeFileSync(join(dir, 'home', '.npmrc'), verdaccio.npmrc('@noriginmedia', token));
    const buildEnv = {
      HOME: join(dir, 'home'),
      PORTAL_SITE_DIR: siteDir,
      PORTAL_SOURCES_CACHE: join(dir, 'cache'),
      npm_config_fetch_retries: '0',
    };
    log(`Releases: building the builder's copy of the site with release ${first} of its open section`);
    const t0 = Date.now();
    const built = spawnSync(process.execPath, [join(root, 'scripts', 'rebuild.mjs'), `--only=${PROBE_SOURCE.id}`], {
      cwd: root,
      env: { ...process.env, ...buildEnv },
      stdio: 'inherit',
    });
    if (built.status !== 0) throw new Error(`the builder's first build failed (exit code ${built.status})`);
    const firstBuildS = Math.round((Date.now() - t0) / 1000);
    log(`Releases: the builder's site built in ${firstBuildS} s`);
    return { verdaccio, publish, siteDir, buildEnv, firstBuildS };
  } catch (error) {
    await verdaccio.stop();
    throw error;
  }
}

/** Where site releases are kept in s3rver, as the gates and the builder name it. */
export const releaseSettings = (s3) => ({
  SITE_RELEASES: `s3://${s3.bucket}/portal`,
  SITE_RELEASES_S3_ENDPOINT: s3.endpoint,
  SITE_RELEASES_S3_PATH_STYLE: '1',
  AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
  AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
  AWS_REGION: 'us-east-1',
});

/** The builder process (`npm run builder`'s server/dist/builder.js) on the builder's site. */
export function startBuilder({ builderSite, s3, databaseUrl, logLevel = 'warn' }) {
  return startProcess(process.execPath, [join(root, 'server', 'dist', 'builder.js')], {
    name: 'the builder',
    cwd: root,
    env: {
      ...builderSite.buildEnv,
      ...releaseSettings(s3),
      DATABASE_URL: databaseUrl,
      SITE_DIR: join(builderSite.siteDir, 'build'),
      LOG_LEVEL: logLevel,
    },
    stdout: 'inherit',
  });
}

/** Sends the signed release hook of the probe's source to `baseURL`; answers the ids of the jobs it queued. */
export async function hookRelease(baseURL, secret) {
  const { body, headers } = await signedHook(releaseHook(PROBE_SOURCE), secret);
  const answer = await fetch(`${baseURL}/api/hooks/sync`, { method: 'POST', headers, body });
  if (answer.status !== 202) throw new Error(`the release hook was answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()).jobs.map((job) => job.id);
}

/** The release a gate serves, read from its section page: the version whose line it shows, or null. */
export async function servedVersion(base, versions) {
  const page = await (await fetch(`${base}${SECTION}`)).text();
  return versions.find((version) => page.includes(releaseLine(version))) ?? null;
}

/** Milliseconds until every one of `bases` serves `version` (at most `limitMs`). */
export async function servedEverywhere(bases, version, versions, limitMs, what) {
  const t0 = Date.now();
  for (;;) {
    const seen = await Promise.all(bases.map((base) => servedVersion(base, versions)));
    if (seen.every((served) => served === version)) return Date.now() - t0;
    if (Date.now() - t0 > limitMs) throw new Error(`${what}: the gates serve ${seen.join(', ')} after ${limitMs} ms`);
    await sleep(250);
  }
}

/** Waits until the builder's jobs `ids` have ended, read from /api/admin/sources as `cookie` (an administrator); throws unless each was served. */
export async function jobsServed(baseURL, cookie, ids, what, limitMs = 5 * 60_000) {
  const t0 = Date.now();
  for (;;) {
    const answer = await fetch(`${baseURL}/api/admin/sources`, { headers: { cookie } });
    if (!answer.ok) throw new Error(`${what}: /api/admin/sources answered ${answer.status}`);
    const { jobs } = await answer.json();
    const states = ids.map((id) => jobs.find((job) => job.id === id)?.state);
    if (states.every((state) => ['served', 'unchanged', 'failed'].includes(state))) {
      if (states.some((state) => state !== 'served'))
        throw new Error(`${what}: the builder's jobs ended ${states.join(', ')}, not served`);
      return;
    }
    if (Date.now() - t0 > limitMs)
      throw new Error(`${what}: the builder's jobs are still ${states.join(', ')} after ${limitMs} ms`);
    await sleep(500);
  }
}

/**
 * One release as a package team makes it: `version` published to Verdaccio, its signed hook
 * sent to `hookURL`, and the seconds until every one of `bases` serves it; with the ids of
 * the jobs the hook queued.
 */
export async function timedRelease({ builderSite, hookURL, secret, bases, version, versions, limitMs = 10 * 60_000 }) {
  const t0 = Date.now();
  await builderSite.publish(version);
  const jobs = await hookRelease(hookURL, secret);
  await servedEverywhere(bases, version, versions, limitMs - (Date.now() - t0), `release ${version}`);
  return { seconds: Math.round((Date.now() - t0) / 100) / 10, jobs };
}
