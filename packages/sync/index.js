// Fetches what the sources file names into the content cache, which the site build reads:
// npm packages through pacote (npm's own fetcher, so .npmrc registries and tokens work as
// they do for npm), git repositories at their tags, and nothing for local folders. A
// version already in the cache is not fetched again.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

import ini from 'ini';
import semver from 'semver';

import { DECLARATIONS_FORMAT, fetchDeclarations, readDeclarations } from './declarations.js';
import { makeReferences, readReference, referenceMarker, referencePaths } from './reference.js';
import { pickVersions } from './sources.js';

export { DEFAULT_FILES, loadSources, pickVersions, SourcesError } from './sources.js';
export { sourceFingerprint } from './fingerprint.js';

const STATE = 'state.json';

/** @param {string} cacheDir */
export function readState(cacheDir) {
  try {
    return JSON.parse(readFileSync(join(cacheDir, STATE), 'utf8'));
  } catch (error) {
    if (error.code === 'ENOENT') return undefined;
    throw new Error(
      `The content cache's state ${join(cacheDir, STATE)} cannot be read (${error.message}); delete it and run npm run sync.`,
    );
  }
}

function writeAtomically(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/** npm's settings from the project's and the user's .npmrc and the environment, as pacote takes them. */
export function npmSettings(root, env = process.env) {
  const settings = {};
  const expand = (value) =>
    typeof value === 'string' ? value.replace(/\$\{([^}]+)\}/g, (_, name) => env[name] ?? '') : value;
  for (const file of [join(env.HOME ?? homedir(), '.npmrc'), join(root, '.npmrc')]) {
    if (!existsSync(file)) continue;
    for (const [key, value] of Object.entries(ini.parse(readFileSync(file, 'utf8'))))
      settings[expand(key)] = expand(value);
  }
  for (const [key, value] of Object.entries(env)) {
    const match = /^npm_config_(.+)$/i.exec(key);
    if (match && value !== undefined) settings[match[1].toLowerCase().replace(/_/g, '-')] = value;
  }
  return settings;
}

/** Does a packed file belong to what the source takes? `docs/` takes a folder; a file name matches with any extension and case. */
function wanted(path, files) {
  const base = (name) => name.toLowerCase().replace(/\.(md|markdown|txt)$/, '');
  return files.some((file) => (file.endsWith('/') ? path.startsWith(file) : base(path) === base(file)));
}

function* walk(dir, prefix = '') {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walk(join(dir, entry.name), path);
    else if (entry.isFile()) yield path;
  }
}

/** Copies the wanted files (and package.json) of an unpacked release into `dir`, replacing it whole. */
function keep(unpacked, dir, files, marker) {
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const kept = [];
  for (const path of walk(unpacked)) {
    if (path !== 'package.json' && !wanted(path, files)) continue;
    mkdirSync(dirname(join(staging, path)), { recursive: true });
    cpSync(join(unpacked, path), join(staging, path));
    kept.push(path);
  }
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, '.complete'), marker);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  renameSync(staging, dir);
  return kept.sort();
}

function cachedFiles(dir) {
  return [...walk(dir)].filter((path) => path !== '.complete').sort();
}

function readManifest(dir) {
  try {
    const data = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const pick = ({ name, description, license, homepage, repository, peerDependencies }) => ({
      name,
      description,
      license,
      homepage,
      repository: typeof repository === 'string' ? repository : repository?.url,
      peerDependencies,
    });
    return pick(data);
  } catch {
    return {};
  }
}

/**
 * Brings each picked release into the cache: a release whose folder holds the same marker
 * (its integrity or commit, and the files the source takes) is kept as it is; any other is
 * unpacked beside its folder and kept whole or not at all.
 */
async function cacheReleases(picked, { cacheDir, source, dirOf, markerOf, unpack, describe }) {
  const versions = [];
  let fetched = 0;
  for (const version of picked) {
    const dir = dirOf(version);
    const marker = markerOf(version);
    if (!(existsSync(join(dir, '.complete')) && readFileSync(join(dir, '.complete'), 'utf8') === marker)) {
      const unpacked = `${dir}.${process.pid}.unpacked`;
      rmSync(unpacked, { recursive: true, force: true });
      try {
        await unpack(version, unpacked);
        keep(unpacked, dir, source.files, marker);
      } finally {
        rmSync(unpacked, { recursive: true, force: true });
      }
      fetched += 1;
    }
    versions.push({
      version,
      ...describe(version),
      dir: relative(cacheDir, dir),
      files: cachedFiles(dir),
      manifest: readManifest(dir),
    });
  }
  return { versions, fetched };
}

async function syncNpm(source, { cacheDir, settings, log, previous }) {
  // Imported here: the site build reads the cache through this module and fetches nothing,
  // and pacote is most of the module's load time (0.4 s of each build's start).
  const { default: pacote } = await import('pacote');
  const home = join('npm', source.package.replace('/', '+'));
  let packument;
  try {
    packument = await pacote.packument(source.package, { ...settings, fullMetadata: true, preferOnline: true });
  } catch (error) {
    if (previous?.versions?.length) {
      log(
        `${source.id}: the registry could not be reached (${error.code ?? error.message}); using the content cache of ${previous.fetchedAt}.`,
      );
      return { ...previous, offline: true };
    }
    throw new Error(
      `${source.id}: could not fetch ${source.package} from the registry (${error.code ?? error.message}), and the content cache has no copy.`,
    );
  }
  const time = packument.time ?? {};
  const releases = semverSorted(Object.keys(packument.versions ?? {})).map((version) => ({
    version,
    date: time[version] ?? null,
  }));
  const picked = pickVersions(Object.keys(packument.versions ?? {}), source);
  if (picked.length === 0)
    throw new Error(`${source.id}: no published version of ${source.package} is in the range ${source.versions}.`);
  const { versions, fetched } = await cacheReleases(picked, {
    cacheDir,
    source,
    dirOf: (version) => join(cacheDir, home, version),
    markerOf: (version) => {
      const dist = packument.versions[version].dist ?? {};
      return `${dist.integrity ?? dist.shasum ?? version}\n${source.files.join('\n')}\n`;
    },
    unpack: (version, unpacked) =>
      pacote.extract(`${source.package}@${version}`, unpacked, {
        ...settings,
        integrity: packument.versions[version].dist?.integrity,
      }),
    describe: (version) => ({ date: time[version] ?? null }),
  });
  log(
    `${source.id}: ${source.package}, ${versions.length} versions (${fetched} fetched, ${versions.length - fetched} already in the cache), ${releases.length} releases.`,
  );
  const api = await cacheReferences(source, packument, { cacheDir, settings, pacote, log });
  return { kind: 'npm', package: source.package, fetchedAt: new Date().toISOString(), releases, versions, api };
}

/**
 * The API reference of every release in the source's range (not only those it publishes: the
 * API changes compare each release with the one published before it): its declarations, then
 * its reference, each made once and kept while its marker holds. Newest first.
 */
async function cacheReferences(source, packument, { cacheDir, settings, pacote, log }) {
  const inRange = semverSorted(Object.keys(packument.versions ?? {})).filter((version) =>
    semver.satisfies(version, source.versions),
  );
  const entries = [];
  let fetched = 0;
  for (const version of inRange) {
    const paths = referencePaths(cacheDir, source.package, version);
    const dist = packument.versions[version].dist ?? {};
    const marker = `${DECLARATIONS_FORMAT}\n${dist.integrity ?? dist.shasum ?? version}\n`;
    let declarations = readDeclarations(paths.declarations, marker);
    if (!declarations) {
      try {
        declarations = await fetchDeclarations({
          pacote,
          settings,
          name: source.package,
          version,
          integrity: dist.integrity,
          date: packument.time?.[version] ?? null,
          dir: paths.declarations,
          marker,
        });
        fetched += 1;
      } catch (error) {
        entries.push({ version, error: `its declarations could not be fetched (${error.code ?? error.message})` });
        continue;
      }
    }
    if (!declarations.entry) {
      entries.push({ version, error: 'the release carries no type declarations' });
      continue;
    }
    entries.push({ version, paths, declarations, marker: referenceMarker(marker) });
  }
  const missing = entries.filter((entry) => entry.paths && !readReference(entry.paths.reference, entry.marker));
  const made = await makeReferences(
    missing.map((entry) => ({
      version: entry.version,
      package: source.package,
      entry: entry.declarations.entry,
      declarations: entry.paths.declarations,
      dir: entry.paths.reference,
      marker: entry.marker,
    })),
  );
  for (const { version, error } of made)
    if (error)
      Object.assign(
        entries.find((e) => e.version === version),
        { error },
      );
  const api = entries.map((entry) => {
    if (entry.error) return { version: entry.version, error: entry.error };
    const model = readReference(entry.paths.reference, entry.marker);
    if (!model) return { version: entry.version, error: 'its reference could not be made' };
    return {
      version: entry.version,
      dir: relative(cacheDir, entry.paths.reference),
      symbols: model.symbols.length,
      dependencies: entry.declarations.dependencies,
    };
  });
  const failed = api.filter((entry) => entry.error);
  log(
    `${source.id}: API reference of ${api.length - failed.length} releases (${fetched} declarations fetched, ${made.length} references made)${
      failed.length ? `; none for ${failed.map((entry) => `${entry.version} (${entry.error})`).join(', ')}` : ''
    }.`,
  );
  return api;
}

/** Every release, newest first (prereleases by semver's order among them). */
function semverSorted(versions) {
  return semver.rsort(versions.filter((version) => semver.valid(version)));
}

function git(args, cwd) {
  const result = spawnSync('git', args, { cwd, encoding: 'buffer', maxBuffer: 1 << 30 });
  if (result.error) throw new Error(`git ${args[0]} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.toString().trim()}`);
  return result.stdout;
}

/** The version a tag names under the source's pattern (`v*`: `v2.3.0` → 2.3.0), or undefined. */
export function versionOfTag(tag, pattern) {
  if (!pattern.includes('*')) return undefined;
  const [head, tail = ''] = pattern.split('*');
  if (!tag.startsWith(head) || !tag.endsWith(tail) || tag.length < head.length + tail.length) return undefined;
  const version = tag.slice(head.length, tag.length - tail.length);
  return /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version) ? version : undefined;
}

async function syncGit(source, { cacheDir, root, log, previous }) {
  const mirror = join(cacheDir, 'git', `${source.id}.git`);
  const url =
    /^[a-z]+:\/\//i.test(source.repository) || /^[^/]+@[^:]+:/.test(source.repository) || isAbsolute(source.repository)
      ? source.repository
      : resolve(root, source.repository);
  try {
    if (existsSync(join(mirror, 'HEAD'))) git(['remote', 'update', '--prune'], mirror);
    else {
      rmSync(mirror, { recursive: true, force: true });
      mkdirSync(dirname(mirror), { recursive: true });
      git(['clone', '--quiet', '--mirror', url, mirror]);
    }
  } catch (error) {
    if (previous?.versions?.length) {
      log(
        `${source.id}: ${source.repository} could not be reached (${error.message.split('\n')[0]}); using the content cache of ${previous.fetchedAt}.`,
      );
      return { ...previous, offline: true };
    }
    throw new Error(
      `${source.id}: could not fetch ${source.repository} (${error.message.split('\n')[0]}), and the content cache has no copy.`,
    );
  }
  const tags = new Map();
  for (const line of git(
    [
      'for-each-ref',
      '--format=%(refname:strip=2)%09%(creatordate:iso-strict)%09%(objectname)%09%(*objectname)',
      'refs/tags',
    ],
    mirror,
  )
    .toString()
    .split('\n')
    .filter(Boolean)) {
    const [tag, date, object, peeled] = line.split('\t');
    const version = versionOfTag(tag, source.tags);
    if (version) tags.set(version, { tag, date: new Date(date).toISOString(), commit: peeled || object });
  }
  const releases = semverSorted([...tags.keys()]).map((version) => ({ version, date: tags.get(version).date }));
  const picked = pickVersions([...tags.keys()], source);
  if (picked.length === 0)
    throw new Error(
      `${source.id}: no tag of ${source.repository} matching ${source.tags} is in the range ${source.versions}.`,
    );
  const { versions, fetched } = await cacheReleases(picked, {
    cacheDir,
    source,
    dirOf: (version) => join(cacheDir, 'git', source.id, version),
    markerOf: (version) => `${tags.get(version).commit}\n${source.files.join('\n')}\n`,
    unpack: (version, unpacked) => {
      const { tag, commit } = tags.get(version);
      const paths = git(['ls-tree', '-r', '--name-only', '-z', commit], mirror)
        .toString()
        .split('\0')
        .filter((path) => path && (path === 'package.json' || wanted(path, source.files)));
      mkdirSync(unpacked, { recursive: true });
      if (paths.length === 0) return;
      const archive = `${unpacked}.tar`;
      try {
        git(['archive', '--format=tar', `--output=${archive}`, commit, '--', ...paths], mirror);
        const untar = spawnSync('tar', ['-xf', archive, '-C', unpacked]);
        if (untar.status !== 0) throw new Error(`${source.id}: unpacking ${tag} failed: ${untar.stderr}`);
      } finally {
        rmSync(archive, { force: true });
      }
    },
    describe: (version) => ({ tag: tags.get(version).tag, date: tags.get(version).date }),
  });
  log(
    `${source.id}: ${source.repository}, ${versions.length} versions (${fetched} fetched, ${versions.length - fetched} already in the cache), ${releases.length} tags.`,
  );
  return { kind: 'git', repository: source.repository, fetchedAt: new Date().toISOString(), releases, versions };
}

/**
 * Syncs every source (or those named in `only`) into `cacheDir` and writes its state.
 * Fails, naming the source, when one can be neither fetched nor read from the cache; the
 * state of the others is kept.
 * @param {{ sources: any[], hash: string }} loaded what loadSources returned
 * @param {{ cacheDir: string, root: string, only?: string[], log?: (line: string) => void, env?: NodeJS.ProcessEnv }} options
 */
export async function sync(loaded, { cacheDir, root, only, log = () => {}, env = process.env }) {
  const previous = readState(cacheDir);
  const state = { sourcesHash: loaded.hash, syncedAt: new Date().toISOString(), offline: false, sources: {} };
  const failures = [];
  const settings = npmSettings(root, env);
  for (const source of loaded.sources) {
    const before = previous?.sources?.[source.id];
    if (source.kind === 'local') {
      state.sources[source.id] = { kind: 'local', path: source.path };
      continue;
    }
    if (only && !only.includes(source.id) && before) {
      state.sources[source.id] = before;
      continue;
    }
    try {
      const result =
        source.kind === 'npm'
          ? await syncNpm(source, { cacheDir, settings, log, previous: before })
          : await syncGit(source, { cacheDir, root, log, previous: before });
      if (result.offline) state.offline = true;
      state.sources[source.id] = result;
    } catch (error) {
      failures.push(error.message);
      if (before) state.sources[source.id] = { ...before, error: error.message };
    }
  }
  writeAtomically(join(cacheDir, STATE), `${JSON.stringify(state, null, 2)}\n`);
  if (failures.length) throw new Error(failures.join('\n'));
  return state;
}

/** Is the cache's state made from this sources file, with every fetched source in it? */
export function isCurrent(state, loaded) {
  if (!state || state.sourcesHash !== loaded.hash) return false;
  return loaded.sources.every((source) => source.kind === 'local' || state.sources?.[source.id]?.versions?.length);
}
