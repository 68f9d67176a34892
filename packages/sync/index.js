// Fetches what the sources file names into the content cache, which the site build reads:
// npm packages through pacote (npm's own fetcher, so .npmrc registries and tokens work as
// they do for npm), git repositories at their tags, and nothing for local folders. A
// version already in the cache is not fetched again.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

import ini from 'ini';
import semver from 'semver';

import { DECLARATIONS_FORMAT, fetchDeclarations, readDeclarations } from './declarations.js';
import {
  makeReferences,
  readReference,
  referenceMarker,
  referencePaths,
  referenceTools,
  REFERENCE_FORMAT,
} from './reference.js';
import { pickVersions } from './sources.js';
import { filePathProblem, inside, LIMITS, manifestFields, regularFile, releaseDate } from './trust.js';

export { DEFAULT_FILES, loadSources, pickVersions, SourcesError } from './sources.js';
export { sourceFingerprint } from './fingerprint.js';

/** @import { ManifestFields } from './trust.js' */
/** @typedef {import('./sources.js').Source} Source */
/** @typedef {import('./sources.js').LoadedSources} LoadedSources */
/** @typedef {import('./reference.js').ApiSymbol} ApiSymbol */
/** @typedef {import('./reference.js').ApiModel} ApiModel */

/**
 * What the content cache holds: each source as the last sync left it.
 *
 * @typedef {object} SyncState
 * @property {string} sourcesHash
 * @property {string} [references] The format and tools the API references were made with (referencesMadeWith).
 * @property {string} syncedAt
 * @property {boolean} offline
 * @property {Record<string, CachedSource>} sources
 */

/**
 * One source in the content cache.
 *
 * @typedef {object} CachedSource
 * @property {'npm' | 'git' | 'local'} kind
 * @property {string} [package]
 * @property {string} [repository]
 * @property {string} [path]
 * @property {string} [fetchedAt]
 * @property {boolean} [offline]
 * @property {string} [error]
 * @property {{ version: string, date: string | null }[]} [releases]
 * @property {CachedVersion[]} [versions]
 * @property {CachedReference[]} [api] The API reference of every release in the source's range (npm only), newest
 *   first.
 * @property {RefusedRelease[]} [refused] Releases that could not be published (the trust boundary or the site build
 *   refused them), and why.
 */

/**
 * A published release in the content cache.
 *
 * @typedef {object} CachedVersion
 * @property {string} version
 * @property {string | null} date
 * @property {string} [tag]
 * @property {string} dir
 * @property {string[]} files
 * @property {string[]} [notes] What the trust boundary left out of the release (a file's name or size), for
 *   /admin/sources.
 * @property {ManifestFields} manifest What the trust boundary kept of its package.json.
 */

/**
 * A release that is not published, and why.
 *
 * @typedef {object} RefusedRelease
 * @property {string} version
 * @property {string} reason
 * @property {string} marker The release's integrity or commit and the files taken: the same release is not fetched
 *   again.
 * @property {string} at
 */

/**
 * A release's API reference in the cache: `dir` holds model.json and pages/<slug>.md; or why it has none.
 *
 * @typedef {object} CachedReference
 * @property {string} version
 * @property {string} [dir]
 * @property {number} [symbols]
 * @property {Record<string, string>} [dependencies] The dependencies whose declarations it re-exports, at the
 *   versions the release pinned.
 * @property {{ name: string, reason: string }[]} [refused] Exports the trust boundary left out of it, and why.
 * @property {string} [error]
 */

/**
 * An npm or git source as loadSources answers it, with its range, pick, files and tag pattern.
 *
 * @typedef {Source & { versions: string, pick: 'all' | 'newest-per-minor' | 'newest-per-major', files: string[], tags: string }} FetchedSource
 */

const STATE = 'state.json';
/** Changes when what the trust boundary keeps of a release changes: every release is kept again. */
const KEEP_FORMAT = 'keep 2';

/**
 * @param {string} cacheDir
 * @returns {SyncState | undefined}
 */
export function readState(cacheDir) {
  try {
    return JSON.parse(readFileSync(join(cacheDir, STATE), 'utf8'));
  } catch (/** @type {any} */ error) {
    if (error.code === 'ENOENT') return undefined;
    throw new Error(
      `The content cache's state ${join(cacheDir, STATE)} cannot be read (${error.message}); delete it and run npm run sync.`,
    );
  }
}

/**
 * @param {string} file
 * @param {string} text
 */
function writeAtomically(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/**
 * npm's settings from the project's and the user's .npmrc and the environment, as pacote takes them.
 *
 * @param {string} root
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {Record<string, string>}
 */
export function npmSettings(root, env = process.env) {
  /** @type {Record<string, string>} */
  const settings = {};
  /** @type {<T>(value: T) => T | string} */
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

/**
 * Does a packed file belong to what the source takes? `docs/` takes a folder; a file name matches with any extension and case.
 *
 * @param {string} path
 * @param {readonly string[]} files
 */
function wanted(path, files) {
  const base = (/** @type {string} */ name) => name.toLowerCase().replace(/\.(md|markdown|txt)$/, '');
  return files.some((file) => (file.endsWith('/') ? path.startsWith(file) : base(path) === base(file)));
}

/**
 * @param {string} dir
 * @param {string} [prefix]
 * @returns {Generator<string>}
 */
function* walk(dir, prefix = '') {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walk(join(dir, entry.name), path);
    // Links too: the trust boundary leaves them out, and says so.
    else if (entry.isFile() || entry.isSymbolicLink()) yield path;
  }
}

/** A release the trust boundary refuses whole: nothing of it is kept, and the release before it stays published. */
export class ReleaseRefused extends Error {}

const NOTES = '.notes.json';
const mebibytes = (/** @type {number} */ bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/**
 * Copies the wanted files (and package.json) of an unpacked release into `dir`, replacing it
 * whole. A file whose name or size the trust boundary refuses is left out and named in the
 * folder's notes; a release over the limits is refused whole (ReleaseRefused).
 *
 * @param {string} unpacked
 * @param {string} dir
 * @param {readonly string[]} files
 * @param {string} marker
 * @returns {string[]}
 */
function keep(unpacked, dir, files, marker) {
  /** @type {string[]} */
  const notes = [];
  /** @type {string[]} */
  const chosen = [];
  let bytes = 0;
  for (const path of walk(unpacked)) {
    if (path !== 'package.json' && !wanted(path, files)) continue;
    const problem = filePathProblem(path);
    const file = problem ? undefined : regularFile(unpacked, path);
    if (problem || !file) {
      notes.push(`${JSON.stringify(path)} is left out: ${problem ?? 'it is not a plain file'}.`);
      continue;
    }
    if (file.size > LIMITS.fileBytes) {
      notes.push(
        `${path} is left out: it is ${mebibytes(file.size)}, more than the ${LIMITS.fileBytes / 1024} KiB a file may be.`,
      );
      continue;
    }
    bytes += file.size;
    chosen.push(path);
  }
  if (chosen.length > LIMITS.releaseFiles)
    throw new ReleaseRefused(`it brings ${chosen.length} files, more than the ${LIMITS.releaseFiles} a release may`);
  if (bytes > LIMITS.releaseBytes)
    throw new ReleaseRefused(
      `its files come to ${mebibytes(bytes)}, more than the ${mebibytes(LIMITS.releaseBytes)} a release may`,
    );
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  for (const path of chosen) {
    const target = inside(staging, path);
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(unpacked, path), target);
  }
  if (notes.length) writeFileSync(join(staging, NOTES), JSON.stringify(notes));
  writeFileSync(join(staging, '.complete'), marker);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dirname(dir), { recursive: true });
  renameSync(staging, dir);
  return chosen.sort();
}

/**
 * The files a cached release holds (not the cache's own marker and notes).
 *
 * @param {string} dir
 */
function cachedFiles(dir) {
  return [...walk(dir)].filter((path) => !path.startsWith('.')).sort();
}

/**
 * @param {string} dir
 * @returns {string[]}
 */
function readNotes(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, NOTES), 'utf8'));
  } catch {
    return [];
  }
}

/**
 * @param {string} dir
 * @returns {ManifestFields}
 */
function readManifest(dir) {
  try {
    return manifestFields(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')));
  } catch {
    return {};
  }
}

/**
 * Brings each picked release into the cache: a release whose folder holds the same marker
 * (its integrity or commit, and the files the source takes) is kept as it is; any other is
 * unpacked beside its folder and kept whole or not at all. A release the trust boundary
 * refuses is not published: the picks are made again without it, so the release before it
 * (in its line) takes its place, and the refusal is answered for /admin/sources. A refusal is
 * remembered with the marker it was made for, so the same release is not fetched again.
 *
 * @param {string[]} available
 * @param {{
 *   cacheDir: string,
 *   source: FetchedSource,
 *   dirOf: (version: string) => string,
 *   markerOf: (version: string) => string,
 *   unpack: (version: string, unpacked: string) => Promise<unknown> | void,
 *   describe: (version: string) => { date: string | null, tag?: string },
 *   previous: CachedSource | undefined,
 * }} options
 * @returns {Promise<{ versions: CachedVersion[], fetched: number, refused: RefusedRelease[] }>}
 */
async function cacheReleases(available, { cacheDir, source, dirOf, markerOf, unpack, describe, previous }) {
  const refused = (previous?.refused ?? []).filter(
    (entry) => available.includes(entry.version) && entry.marker === markerOf(entry.version),
  );
  let fetched = 0;
  for (;;) {
    const picked = pickVersions(
      available.filter((version) => !refused.some((entry) => entry.version === version)),
      source,
    );
    /** @type {CachedVersion[]} */
    const versions = [];
    let again = false;
    for (const version of picked) {
      const dir = dirOf(version);
      const marker = markerOf(version);
      if (!(existsSync(join(dir, '.complete')) && readFileSync(join(dir, '.complete'), 'utf8') === marker)) {
        const unpacked = `${dir}.${process.pid}.unpacked`;
        rmSync(unpacked, { recursive: true, force: true });
        try {
          await unpack(version, unpacked);
          keep(unpacked, dir, source.files, marker);
        } catch (error) {
          if (!(error instanceof ReleaseRefused)) throw error;
          refused.push({ version, reason: error.message, marker, at: new Date().toISOString() });
          again = true;
          break;
        } finally {
          rmSync(unpacked, { recursive: true, force: true });
        }
        fetched += 1;
      }
      const notes = readNotes(dir);
      versions.push({
        version,
        ...describe(version),
        dir: relative(cacheDir, dir),
        files: cachedFiles(dir),
        manifest: readManifest(dir),
        ...(notes.length ? { notes } : {}),
      });
    }
    if (!again) return { versions, fetched, refused };
  }
}

/**
 * The sync's line for a source; a source whose every release was refused fails, naming why.
 *
 * @param {Source} source
 * @param {string} origin
 * @param {{ versions: CachedVersion[], fetched: number, refused: RefusedRelease[], log: (line: string) => void, of: string }} outcome
 */
function logCached(source, origin, { versions, fetched, refused, log, of }) {
  const refusals = refused.map((entry) => `${entry.version} (${entry.reason})`).join('; ');
  if (versions.length === 0)
    throw Object.assign(new Error(`${source.id}: no release of ${origin} could be published: ${refusals}.`), {
      refused,
    });
  log(
    `${source.id}: ${origin}, ${versions.length} versions (${fetched} fetched, ${versions.length - fetched} already in the cache), ${of}.${
      refused.length ? ` Not published: ${refusals}.` : ''
    }`,
  );
}

/**
 * @param {FetchedSource & { package: string }} source
 * @param {{ cacheDir: string, settings: Record<string, string>, log: (line: string) => void, previous: CachedSource | undefined }} options
 * @returns {Promise<CachedSource>}
 */
async function syncNpm(source, { cacheDir, settings, log, previous }) {
  // Imported here: the site build reads the cache through this module and fetches nothing,
  // and pacote is most of the module's load time.
  const { default: pacote } = await import('pacote');
  const home = join('npm', source.package.replace('/', '+'));
  let packument;
  try {
    packument = await pacote.packument(source.package, { ...settings, fullMetadata: true, preferOnline: true });
  } catch (/** @type {any} */ error) {
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
    date: releaseDate(time[version]),
  }));
  const available = Object.keys(packument.versions ?? {});
  if (pickVersions(available, source).length === 0)
    throw new Error(`${source.id}: no published version of ${source.package} is in the range ${source.versions}.`);
  const { versions, fetched, refused } = await cacheReleases(available, {
    cacheDir,
    source,
    previous,
    dirOf: (version) => join(cacheDir, home, version),
    markerOf: (version) => {
      const dist = packument.versions[version].dist ?? {};
      return `${KEEP_FORMAT}\n${dist.integrity ?? dist.shasum ?? version}\n${source.files.join('\n')}\n`;
    },
    unpack: (version, unpacked) =>
      pacote.extract(`${source.package}@${version}`, unpacked, {
        ...settings,
        integrity: packument.versions[version].dist?.integrity,
      }),
    describe: (version) => ({ date: releaseDate(time[version]) }),
  });
  logCached(source, source.package, { versions, fetched, refused, log, of: `${releases.length} releases` });
  const api = await cacheReferences(source, packument, { cacheDir, settings, pacote, log });
  return {
    kind: 'npm',
    package: source.package,
    fetchedAt: new Date().toISOString(),
    releases,
    versions,
    api,
    ...(refused.length ? { refused } : {}),
  };
}

/**
 * The API reference of every release in the source's range (not only those it publishes: the
 * API changes compare each release with the one published before it): its declarations, then
 * its reference, each made once and kept while its marker holds. Newest first.
 *
 * @param {FetchedSource & { package: string }} source
 * @param {import('pacote').Packument} packument
 * @param {{ cacheDir: string, settings: Record<string, string>, pacote: typeof import('pacote'), log: (line: string) => void }} options
 * @returns {Promise<CachedReference[]>}
 */
async function cacheReferences(source, packument, { cacheDir, settings, pacote, log }) {
  const inRange = semverSorted(Object.keys(packument.versions ?? {})).filter((version) =>
    semver.satisfies(version, source.versions),
  );
  /** @type {any[]} each `{ version, error }`, or `{ version, paths, declarations, marker }` and an `error` if its reference fails */
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
      } catch (/** @type {any} */ error) {
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
      ...(model.refused?.length ? { refused: model.refused } : {}),
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

/**
 * Every release, newest first (prereleases by semver's order among them).
 *
 * @param {string[]} versions
 */
function semverSorted(versions) {
  return semver.rsort(versions.filter((version) => semver.valid(version)));
}

/**
 * @param {string[]} args
 * @param {string} [cwd]
 */
function git(args, cwd) {
  const result = spawnSync('git', args, { cwd, encoding: 'buffer', maxBuffer: 1 << 30 });
  if (result.error) throw new Error(`git ${args[0]} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr.toString().trim()}`);
  return result.stdout;
}

/**
 * The version a tag names under the source's pattern (`v*`: `v2.3.0` → 2.3.0), or undefined.
 *
 * @param {string} tag
 * @param {string} pattern
 * @returns {string | undefined}
 */
export function versionOfTag(tag, pattern) {
  if (!pattern.includes('*')) return undefined;
  const [head, tail = ''] = pattern.split('*');
  if (!tag.startsWith(head) || !tag.endsWith(tail) || tag.length < head.length + tail.length) return undefined;
  const version = tag.slice(head.length, tag.length - tail.length);
  return /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version) ? version : undefined;
}

/**
 * @param {FetchedSource & { repository: string }} source
 * @param {{ cacheDir: string, root: string, log: (line: string) => void, previous: CachedSource | undefined }} options
 * @returns {Promise<CachedSource>}
 */
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
  } catch (/** @type {any} */ error) {
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
    if (version) tags.set(version, { tag, date: releaseDate(date), commit: peeled || object });
  }
  const releases = semverSorted([...tags.keys()]).map((version) => ({ version, date: tags.get(version).date }));
  const available = [...tags.keys()];
  if (pickVersions(available, source).length === 0)
    throw new Error(
      `${source.id}: no tag of ${source.repository} matching ${source.tags} is in the range ${source.versions}.`,
    );
  const { versions, fetched, refused } = await cacheReleases(available, {
    cacheDir,
    source,
    previous,
    dirOf: (version) => join(cacheDir, 'git', source.id, version),
    markerOf: (version) => `${KEEP_FORMAT}\n${tags.get(version).commit}\n${source.files.join('\n')}\n`,
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
  logCached(source, source.repository, { versions, fetched, refused, log, of: `${releases.length} tags` });
  return {
    kind: 'git',
    repository: source.repository,
    fetchedAt: new Date().toISOString(),
    releases,
    versions,
    ...(refused.length ? { refused } : {}),
  };
}

/**
 * Syncs every source (or those named in `only`) into `cacheDir` and writes its state.
 * Fails, naming the source, when one can be neither fetched nor read from the cache; the
 * state of the others is kept.
 *
 * @param {LoadedSources} loaded what loadSources returned
 * @param {{ cacheDir: string, root: string, only?: string[], log?: (line: string) => void, env?: NodeJS.ProcessEnv }} options
 * @returns {Promise<SyncState>}
 */
export async function sync(loaded, { cacheDir, root, only, log = () => {}, env = process.env }) {
  const previous = readState(cacheDir);
  /** @type {SyncState} */
  const state = {
    sourcesHash: loaded.hash,
    references: referencesMadeWith(),
    syncedAt: new Date().toISOString(),
    offline: false,
    sources: {},
  };
  /** @type {string[]} */
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
      // loadSources checked each kind's fields and filled in their defaults.
      const result =
        source.kind === 'npm'
          ? await syncNpm(/** @type {FetchedSource & { package: string }} */ (source), {
              cacheDir,
              settings,
              log,
              previous: before,
            })
          : await syncGit(/** @type {FetchedSource & { repository: string }} */ (source), {
              cacheDir,
              root,
              log,
              previous: before,
            });
      if (result.offline) state.offline = true;
      state.sources[source.id] = result;
    } catch (/** @type {any} */ error) {
      failures.push(error.message);
      if (before)
        state.sources[source.id] = {
          ...before,
          error: error.message,
          ...(error.refused ? { refused: error.refused } : {}),
        };
    }
  }
  writeAtomically(join(cacheDir, STATE), `${JSON.stringify(state, null, 2)}\n`);
  if (failures.length) throw new Error(failures.join('\n'));
  return state;
}

/**
 * Marks releases of the cache as not to be published (`refusals`: source id, version and why),
 * remembered with each release's marker as the sync's own refusals are: the next sync picks
 * again without them, so the release before each takes its place. Answers the state as it
 * was before, for `restoreState` when the refusal itself proves wrong.
 *
 * @param {string} cacheDir
 * @param {{ source: string, version: string, reason: string }[]} refusals
 * @returns {string}
 */
export function refuseReleases(cacheDir, refusals) {
  const before = readFileSync(join(cacheDir, STATE), 'utf8');
  /** @type {SyncState} */
  const state = JSON.parse(before);
  for (const { source, version, reason } of refusals) {
    const entry = state.sources[source];
    const cached = entry?.versions?.find((candidate) => candidate.version === version);
    if (!cached) throw new Error(`${source}: the content cache holds no release ${version} to refuse.`);
    const marker = readFileSync(join(cacheDir, cached.dir, '.complete'), 'utf8');
    entry.refused = [
      ...(entry.refused ?? []).filter((refused) => refused.version !== version),
      { version, reason, marker, at: new Date().toISOString() },
    ];
  }
  writeAtomically(join(cacheDir, STATE), `${JSON.stringify(state, null, 2)}\n`);
  return before;
}

/**
 * Puts back the state `refuseReleases` answered.
 *
 * @param {string} cacheDir
 * @param {string} text
 */
export function restoreState(cacheDir, text) {
  writeAtomically(join(cacheDir, STATE), text);
}

/** The reference's format and the versions of its tools: a cache made with others is synced again. */
const referencesMadeWith = () => `${REFERENCE_FORMAT}; ${referenceTools()}`;

/**
 * Is the cache's state made from this sources file, and its references in this format, with
 * every fetched source in it?
 *
 * @param {SyncState | undefined} state
 * @param {LoadedSources} loaded
 * @returns {state is SyncState}
 */
export function isCurrent(state, loaded) {
  if (!state || state.sourcesHash !== loaded.hash || state.references !== referencesMadeWith()) return false;
  return loaded.sources.every((source) => source.kind === 'local' || state.sources?.[source.id]?.versions?.length);
}
