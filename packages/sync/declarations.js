// The type declarations of a release: the package's `types` (or `typings`) entry and every
// .d.ts file it reaches, with the declarations of the dependencies it imports at the versions
// the release pins, laid out as npm would install them (`package/` and its `node_modules/`),
// so that TypeScript, and TypeDoc after it, resolves a re-export where npm would.
import { copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

import semver from 'semver';

import { filePathProblem, inside, isPackageName, LIMITS, regularFile } from './trust.js';

/**
 * What a declarations folder holds besides the files: the entry (none when the release carries no
 * declarations) and the dependencies whose declarations it re-exports, at the versions pinned.
 *
 * @typedef {object} KeptDeclarations
 * @property {string | undefined} entry
 * @property {Record<string, string>} dependencies
 */

/** Changes when what a declarations folder holds changes: every folder made before is made again. */
export const DECLARATIONS_FORMAT = 'declarations 3';

/** Dependencies of dependencies are followed this deep: a re-export of a re-export is still found. */
const DEPTH = 3;

/**
 * The declarations entry of a package.json, relative to the package, or undefined.
 *
 * @param {any} manifest package.json as parsed: each field read is checked here
 * @param {string} packageDir
 * @returns {string | undefined}
 */
export function typesEntry(manifest, packageDir) {
  const dotExport = manifest.exports?.['.'];
  const candidates = [
    manifest.types,
    manifest.typings,
    typeof dotExport === 'object' && dotExport !== null ? (dotExport.types ?? dotExport.import?.types) : undefined,
    typeof manifest.main === 'string' ? manifest.main.replace(/\.(c|m)?js$/, '.d.ts') : undefined,
    'index.d.ts',
  ];
  return candidates
    .filter((entry) => typeof entry === 'string')
    .map((entry) => posix.normalize(entry.replace(/^\.\//, '')))
    .find((entry) => filePathProblem(entry) === undefined && regularFile(packageDir, entry) !== undefined);
}

const SPECIFIERS = [
  /\bfrom\s*['"]([^'"]+)['"]/g,
  /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  /^\s*import\s+['"]([^'"]+)['"]/gm,
  /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/**
 * The module specifiers and referenced paths of a declaration file.
 *
 * @param {string} text
 * @returns {{ specifiers: string[], paths: string[] }}
 */
export function specifiersOf(text) {
  /** @type {Set<string>} */
  const found = new Set();
  for (const pattern of SPECIFIERS) for (const match of text.matchAll(pattern)) found.add(match[1]);
  const paths = [...text.matchAll(/\/\/\/\s*<reference\s+path\s*=\s*['"]([^'"]+)['"]/g)].map((match) => match[1]);
  return { specifiers: [...found], paths };
}

/**
 * The package a bare specifier names (`lodash/debounce` → lodash, `@scope/a/b` → @scope/a).
 *
 * @param {string} specifier
 * @returns {string}
 */
export function packageOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The declaration file a relative specifier means, as TypeScript would look for it.
 *
 * @param {string} packageDir
 * @param {string} from
 * @param {string} specifier
 */
function resolveRelative(packageDir, from, specifier) {
  const base = posix.normalize(posix.join(posix.dirname(from), specifier));
  const stem = base.replace(/\.(c|m)?js$/, '');
  const candidates = [
    `${stem}.d.ts`,
    `${stem}.d.mts`,
    `${stem}.d.cts`,
    base,
    `${base}.d.ts`,
    `${base}/index.d.ts`,
    `${stem}.ts`,
  ];
  return candidates.find(
    (candidate) =>
      candidate.endsWith('.ts') && filePathProblem(candidate) === undefined && regularFile(packageDir, candidate),
  );
}

/**
 * The declaration files reachable from `entry` inside one package, and the packages its
 * declarations import by name.
 *
 * @param {string} packageDir
 * @param {string} entry
 * @param {{ files: number, bytes: number }} [budget]
 * @returns {{ files: string[], packages: string[] }}
 */
export function reachableDeclarations(packageDir, entry, budget = { files: 0, bytes: 0 }) {
  /** @type {Set<string>} */
  const files = new Set();
  /** @type {Set<string>} */
  const packages = new Set();
  const queue = [entry];
  while (queue.length) {
    const file = /** @type {string} */ (queue.pop());
    if (files.has(file) || file.startsWith('..')) continue;
    const found = regularFile(packageDir, file);
    if (!found) continue;
    if (found.size > LIMITS.declarationFileBytes)
      throw new Error(`its declaration file ${file} is larger than ${LIMITS.declarationFileBytes / 1024 / 1024} MiB`);
    budget.files += 1;
    budget.bytes += found.size;
    if (budget.files > LIMITS.declarationFiles)
      throw new Error(`its declarations come to more than ${LIMITS.declarationFiles} files`);
    if (budget.bytes > LIMITS.declarationBytes)
      throw new Error(`its declarations come to more than ${LIMITS.declarationBytes / 1024 / 1024} MiB`);
    files.add(file);
    const { specifiers, paths } = specifiersOf(readFileSync(found.path, 'utf8'));
    for (const path of paths) {
      const target = resolveRelative(packageDir, file, path);
      if (target) queue.push(target);
    }
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) {
        const target = resolveRelative(packageDir, file, specifier);
        if (target) queue.push(target);
      } else if (!specifier.startsWith('node:') && isPackageName(packageOf(specifier)))
        packages.add(packageOf(specifier));
    }
  }
  return { files: [...files].sort(), packages: [...packages].sort() };
}

/**
 * Copies a package's package.json and the declarations its entry reaches into `target`. The
 * copy's name carries the release it was fetched for: TypeDoc tells symbols apart by their
 * package's name and path, and one run converts several releases of the same package.
 *
 * @param {string} unpacked
 * @param {string} target
 * @param {string} release
 * @param {{ files: number, bytes: number }} budget
 */
function keepDeclarations(unpacked, target, release, budget) {
  const manifestFile = regularFile(unpacked, 'package.json');
  if (!manifestFile || manifestFile.size > LIMITS.fileBytes) return undefined;
  const manifest = JSON.parse(readFileSync(manifestFile.path, 'utf8'));
  const entry = typesEntry(manifest, unpacked);
  if (!entry) return undefined;
  const { files, packages } = reachableDeclarations(unpacked, entry, budget);
  mkdirSync(target, { recursive: true });
  writeFileSync(
    join(target, 'package.json'),
    JSON.stringify({ ...manifest, name: `${manifest.name}@release-${release}`, types: entry }, null, 2),
  );
  for (const file of files) {
    const destination = inside(target, file);
    mkdirSync(dirname(destination), { recursive: true });
    copyFileSync(join(unpacked, file), destination);
  }
  return { manifest, entry, files, packages };
}

/**
 * The version of `name` a release pinned with `range`: the newest that satisfies it and was
 * published by the release's date (what an install on that day got), else the newest that
 * satisfies it.
 *
 * @param {import('pacote').Packument} packument
 * @param {string} range
 * @param {string | null | undefined} releasedAt
 * @returns {string | undefined}
 */
export function pinnedVersion(packument, range, releasedAt) {
  const versions = Object.keys(packument.versions ?? {}).filter(
    (version) => semver.valid(version) && semver.satisfies(version, range),
  );
  const until = releasedAt ? Date.parse(releasedAt) + 60 * 60 * 1000 : Infinity;
  const published = versions.filter((version) => {
    const at = Date.parse(packument.time?.[version] ?? '');
    return Number.isNaN(at) || at <= until;
  });
  return semver.maxSatisfying(published.length ? published : versions, range) ?? undefined;
}

/**
 * Fetches the declarations of `name@version` into `dir` (`dir/package/…`), replacing it whole,
 * with those of the dependencies they import at the versions the release pins. Answers what
 * it kept, or `{ entry: undefined }` when the release carries no declarations.
 * @param {{ pacote: typeof import('pacote'), settings: Record<string, string>, name: string, version: string, integrity?: string, date?: string | null, dir: string, marker: string }} options
 * @returns {Promise<KeptDeclarations>}
 */
export async function fetchDeclarations({ pacote, settings, name, version, integrity, date, dir, marker }) {
  const staging = `${dir}.${process.pid}.tmp`;
  const unpackedBase = `${dir}.${process.pid}.unpacked`;
  rmSync(staging, { recursive: true, force: true });
  /** @type {Record<string, string>} */
  const dependencies = {};
  let count = 0;
  /** @type {(spec: string, options: { integrity?: string }) => Promise<string>} */
  const unpack = async (spec, options) => {
    const unpacked = `${unpackedBase}-${count++}`;
    rmSync(unpacked, { recursive: true, force: true });
    await pacote.extract(spec, unpacked, { ...settings, ...options });
    return unpacked;
  };
  try {
    const root = await unpack(`${name}@${version}`, { integrity });
    // Every declaration file of the release and its dependencies counts against the same limits.
    const budget = { files: 0, bytes: 0 };
    const kept = keepDeclarations(root, join(staging, 'package'), version, budget);
    if (kept) {
      // The dependencies the declarations import, breadth first, each at the version its dependant pins.
      const queue = kept.packages.map((dependency) => ({ dependency, from: kept.manifest, depth: 1 }));
      while (queue.length) {
        const { dependency, from, depth } = /** @type {(typeof queue)[number]} */ (queue.shift());
        const range = from.dependencies?.[dependency] ?? from.optionalDependencies?.[dependency];
        if (!range || dependencies[dependency] || depth > DEPTH) continue;
        let packument;
        try {
          packument = await pacote.packument(dependency, { ...settings, fullMetadata: true });
        } catch {
          continue; // a dependency the registry does not have: its types stay unresolved, as they would for npm
        }
        const pinned = pinnedVersion(packument, range, date);
        if (!pinned) continue;
        const unpacked = await unpack(`${dependency}@${pinned}`, {
          integrity: packument.versions[pinned]?.dist?.integrity,
        });
        const own = keepDeclarations(
          unpacked,
          inside(join(staging, 'package', 'node_modules'), dependency),
          version,
          budget,
        );
        if (!own) continue;
        dependencies[dependency] = pinned;
        for (const next of own.packages) queue.push({ dependency: next, from: own.manifest, depth: depth + 1 });
      }
    }
    mkdirSync(staging, { recursive: true });
    const summary = { entry: kept?.entry, dependencies };
    writeFileSync(join(staging, 'declarations.json'), `${JSON.stringify(summary, null, 2)}\n`);
    writeFileSync(join(staging, '.complete'), marker);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dirname(dir), { recursive: true });
    renameSync(staging, dir);
    return summary;
  } finally {
    rmSync(staging, { recursive: true, force: true });
    for (let index = 0; index < count; index++) rmSync(`${unpackedBase}-${index}`, { recursive: true, force: true });
  }
}

/**
 * The JSON `file` of a cache folder, when the folder is complete and was made with `marker`.
 *
 * @template T what the file holds
 * @param {string} dir
 * @param {string} marker
 * @param {string} file
 * @returns {T | undefined}
 */
export function readMarked(dir, marker, file) {
  try {
    if (readFileSync(join(dir, '.complete'), 'utf8') !== marker) return undefined;
    return JSON.parse(readFileSync(join(dir, file), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * What a declarations folder holds, when it is complete and made with `marker`.
 *
 * @type {(dir: string, marker: string) => KeptDeclarations | undefined}
 */
export const readDeclarations = (dir, marker) => readMarked(dir, marker, 'declarations.json');
