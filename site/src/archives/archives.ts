/**
 * Release archives: every older release of a synced package is built once, as an app of its
 * own (the same site, config and theme with only its pages: spec.ts), and kept in the
 * content cache beside what the sync fetched. The portal's build holds the newest release
 * of each package only and places the archives' finished files beside its own
 * (merge.ts), so adding a release adds one archive build, not its pages to every build.
 *
 * An archive is valid while the site's theme (its code, config and dependencies) and each
 * of its releases' pages are what they were when it was built; a release whose archive is
 * no longer valid is built again with the other releases that need it, in one app.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

import { ARCHIVE_ENV, ARCHIVE_SIDEBARS, type ArchivedRelease, archiveSidebarId } from './spec';

/** A release an archive holds, with the hash of its pages as that archive built them. */
export interface ArchiveEntry extends ArchivedRelease {
  pages: string;
}

export interface ArchiveRecord {
  /** The theme hash it was built with. */
  theme: string;
  releases: ArchiveEntry[];
  /** Seconds its build took. */
  seconds: number;
}

const RECORD = 'archive.json';
/** An archive being built: `<name>.partial-<pid>`. */
const PARTIAL = '.partial-';
/** The build output inside an archive's folder. */
export const ARCHIVE_BUILD = 'build';

export const archivesDir = (cacheDir: string): string => join(cacheDir, 'archives');

function* filesBelow(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesBelow(path);
    else if (entry.isFile()) yield path;
  }
}

/**
 * What an archive's pages look like apart from their text: the site's code and config, its
 * static files and the dependencies (the lockfile and the portal's own packages), and the
 * address its absolute URLs name (canonical links, `og:url`): an archive built for another
 * address would send search engines there. Tests and the docs, blog and pages of the portal
 * itself are left out: an archive holds none of them.
 */
export function themeHash(siteDir: string, root: string, siteUrl: string): string {
  const hash = createHash('sha256');
  hash.update(siteUrl).update('\0');
  // Named relative to the site or the repository: a copy of the site (the benchmark's) has the same theme.
  const inputs: [string, string][] = [
    ...['src', 'static', 'docusaurus.config.ts', 'site.facts.json', 'package.json'].map((name): [string, string] => [
      siteDir,
      name,
    ]),
    ...['package-lock.json', 'packages/access', 'packages/built-site', 'packages/search'].map(
      (name): [string, string] => [root, name],
    ),
  ];
  for (const [base, name] of inputs) {
    const input = join(base, name);
    if (!existsSync(input)) continue;
    const files = statSync(input).isDirectory() ? [...filesBelow(input)].sort() : [input];
    for (const file of files) {
      if (/\.test\.tsx?$|__tests__|__fixtures__|node_modules/.test(file)) continue;
      hash.update(relative(base, file)).update('\0').update(readFileSync(file)).update('\0');
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** The hash of a release's pages as an archive holds them (path and text of each). */
export function pagesHash(files: ReadonlyMap<string, string | { copyFrom: string }>): string {
  const hash = createHash('sha256');
  for (const path of [...files.keys()].sort()) {
    const content = files.get(path) as string | { copyFrom: string };
    hash
      .update(path)
      .update('\0')
      .update(typeof content === 'string' ? content : readFileSync(content.copyFrom))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

const sameRelease = (a: ArchivedRelease, b: ArchivedRelease): boolean =>
  a.source === b.source && a.version === b.version;

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The finished archives in `dir`; what a build that stopped midway left is removed. */
export function readArchives(dir: string): { dir: string; record: ArchiveRecord }[] {
  if (!existsSync(dir)) return [];
  for (const entry of readdirSync(dir)) {
    const pid = Number(entry.split(PARTIAL)[1]);
    if (entry.includes(PARTIAL) && !isRunning(pid)) rmSync(join(dir, entry), { recursive: true, force: true });
  }
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, RECORD)))
    .map((entry) => ({
      dir: join(dir, entry.name),
      record: JSON.parse(readFileSync(join(dir, entry.name, RECORD), 'utf8')) as ArchiveRecord,
    }));
}

/**
 * Which kept archives serve the releases `wanted` (each with the hash of its pages now), and
 * which releases none serves; and the same for `ahead`, the newest releases as they will be
 * once a newer one is out, each archived alone (so the release that replaces one finds it,
 * whatever the other packages did meanwhile). An archive serves only whole: built with this
 * theme, each release it holds still wanted with the same pages, and no release ahead beside
 * another (a release that is the newest again, its newer one refused or withdrawn, is built
 * again). Others of this theme are removed.
 */
export function planArchives(
  dir: string,
  wanted: readonly ArchiveEntry[],
  theme: string,
  ahead: readonly ArchiveEntry[] = [],
): {
  use: { dir: string; record: ArchiveRecord }[];
  build: ArchiveEntry[];
  ahead: { dir: string; record: ArchiveRecord }[];
  buildAhead: ArchiveEntry[];
} {
  const use: { dir: string; record: ArchiveRecord }[] = [];
  const kept: { dir: string; record: ArchiveRecord }[] = [];
  const held = (entries: readonly ArchiveEntry[], release: ArchiveEntry) =>
    entries.some((entry) => sameRelease(entry, release) && entry.pages === release.pages);
  for (const archive of readArchives(dir)) {
    const { releases } = archive.record;
    const aheadHeld = releases.filter((release) => held(ahead, release)).length;
    const valid =
      archive.record.theme === theme &&
      releases.every((release) => held(wanted, release) || held(ahead, release)) &&
      (aheadHeld === 0 || releases.length === 1);
    if (valid) (aheadHeld === 0 ? use : kept).push(archive);
    // One whose pages changed goes; one of another theme may serve another copy of the site.
    else if (archive.record.theme === theme) rmSync(archive.dir, { recursive: true, force: true });
  }
  const missing = (entries: readonly ArchiveEntry[], archives: { record: ArchiveRecord }[]) =>
    entries.filter((entry) => !archives.some((archive) => archive.record.releases.some((h) => sameRelease(h, entry))));
  return { use, build: missing(wanted, use), ahead: kept, buildAhead: missing(ahead, kept) };
}

/** The site's files an archive build reads, linked into its own site folder. */
const SITE_FILES = [
  'src',
  'static',
  'docusaurus.config.ts',
  'site.facts.json',
  'package.json',
  'tsconfig.json',
  'sources.yaml',
  'sources',
];

/**
 * The site folder an archive is built in (`work`): the site's code linked in, and what the
 * docs plugin looks for while it is made (Docusaurus makes its plugins concurrently, so that
 * may come before package-sources has written the pages): an empty docs/, which
 * package-sources fills, and the sidebars file, each release's own pages.
 */
export function makeArchiveSite({
  siteDir,
  work,
  releases,
  sectionOf,
}: {
  siteDir: string;
  work: string;
  releases: readonly ArchivedRelease[];
  /** The docs folder of a source's section (`sources.yaml`'s `section`). */
  sectionOf: (source: string) => string;
}): void {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(join(work, 'docs'), { recursive: true });
  for (const file of SITE_FILES)
    if (existsSync(join(siteDir, file))) symlinkSync(join(siteDir, file), join(work, file));
  const sidebars = Object.fromEntries(
    releases.map((release) => [
      archiveSidebarId(release),
      [{ type: 'autogenerated', dirName: `${sectionOf(release.source)}/${release.version}` }],
    ]),
  );
  writeFileSync(join(work, ARCHIVE_SIDEBARS), JSON.stringify(sidebars, null, 2));
}

/**
 * Builds one archive of `releases` into the archives folder: the site's code in a site folder
 * of its own (its own docs/ and .docusaurus/, so it never touches the portal's), built by
 * Docusaurus with the gate-files step. Throws with the build's output when it fails.
 */
export function buildArchive({
  siteDir,
  cacheDir,
  sourcesFile,
  releases,
  sectionOf,
  theme,
  env = process.env,
}: {
  siteDir: string;
  cacheDir: string;
  sourcesFile: string;
  releases: readonly ArchiveEntry[];
  sectionOf: (source: string) => string;
  theme: string;
  env?: NodeJS.ProcessEnv;
}): { dir: string; record: ArchiveRecord } {
  const started = Date.now();
  const name = createHash('sha256').update(theme).update(JSON.stringify(releases)).digest('hex').slice(0, 16);
  const dir = join(archivesDir(cacheDir), name);
  // Beside the site's own files (packages resolve as they do for it), never in a node_modules;
  // one per process, as is the unfinished archive (two builds of one site may run at once).
  const work = join(siteDir, '.archive-site', String(process.pid));
  makeArchiveSite({ siteDir, work, releases, sectionOf });
  const output = `${dir}${PARTIAL}${process.pid}`;
  rmSync(output, { recursive: true, force: true });
  // Docusaurus's server bundle in the build is CommonJS; the repository's package.json says "module".
  mkdirSync(output, { recursive: true });
  writeFileSync(join(output, 'package.json'), '{ "type": "commonjs" }\n');
  const docusaurus = join(
    dirname(createRequire(__filename).resolve('@docusaurus/core/package.json')),
    'bin',
    'docusaurus.mjs',
  );
  const result = spawnSync(process.execPath, [docusaurus, 'build', '--out-dir', join(output, ARCHIVE_BUILD)], {
    cwd: work,
    env: {
      ...env,
      [ARCHIVE_ENV]: JSON.stringify(releases.map(({ source, version }) => ({ source, version }))),
      PORTAL_SOURCES_CACHE: cacheDir,
      PORTAL_SOURCES_FILE: sourcesFile,
    },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    rmSync(output, { recursive: true, force: true });
    throw new Error(
      `The archive of ${releases.map((entry) => `${entry.source} ${entry.version}`).join(', ')} failed to build:\n${result.stdout}\n${result.stderr}`,
    );
  }
  const record: ArchiveRecord = { theme, releases: [...releases], seconds: (Date.now() - started) / 1000 };
  writeFileSync(join(output, RECORD), JSON.stringify(record, null, 2));
  rmSync(dir, { recursive: true, force: true });
  renameSync(output, dir);
  rmSync(work, { recursive: true, force: true });
  return { dir, record };
}
