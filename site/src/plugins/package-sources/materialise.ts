/**
 * Writes the pages of each synced package section into site/docs/<section>/ from the content
 * cache (`npm run sync`): the newest version at the section's path, every other published
 * version at `<section>/<version>/`, the release history at `<section>/CHANGELOG`, the
 * licence, and the hand-written pages the source names for what the package does not carry.
 * The folder is the build's output, never written by hand (it is in .gitignore).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';

import type { ApiSymbol, CachedSource, CachedVersion, Source } from '@portal/sync';
import { fencedCode, filePathProblem, inside, markdownCode, markdownText, markupIn } from '@portal/sync/trust';
import semver from 'semver';
import { parse, stringify } from 'yaml';

import { type LinkContext, packageMarkdown, type PackageMarkdown, repositoryWeb } from './readme';
import { changesAnchor, historyLine, linkSymbols, type Reference, sectionReference } from './reference';

export type { CachedSource, CachedVersion, Source };

/** What the version picker knows of a package (global data of `portal-package-sources`). */
export interface PackageVersions {
  id: string;
  title: string;
  /** `/docs/Norigin-Spatial-Navigation/` */
  basePath: string;
  latest: string;
  /** Newest first; `path` ends with a slash; `pages` are paths below it (`''` is the landing page). */
  versions: { version: string; date: string | null; path: string; pages: string[] }[];
}

const SIDEBAR = 'tutorialSidebar';

function day(date: string | null): string {
  return date ? date.slice(0, 10) : 'undated';
}

function longDay(date: string | null): string {
  return date
    ? new Date(date).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
    : 'an unknown date';
}

/** The registry's moment of a release, to the minute in UTC: "10 August 2026 at 15:55 UTC". */
function publishedAt(date: string | null): string {
  return date ? `${longDay(date)} at ${date.slice(11, 16)} UTC` : longDay(date);
}

/** Versions in a sentence: "3.2.1 and 3.1.0", or how many beyond four. */
function versionList(versions: readonly string[]): string {
  if (versions.length > 4) return `${versions.length} lower versions (${versions.slice(0, 3).join(', ')} and others)`;
  return versions.length === 1 ? (versions[0] ?? '') : `${versions.slice(0, -1).join(', ')} and ${versions.at(-1)}`;
}

/**
 * The lower versions the registry dates after a release (a backport published later, say),
 * newest first: the history is in version order, and says where the dates run the other way.
 */
function publishedBefore(releases: readonly { version: string; date: string | null }[], index: number): string[] {
  const own = releases[index]?.date;
  if (!own) return [];
  return releases
    .slice(index + 1)
    .filter((release) => release.date !== null && release.date > own)
    .map((release) => release.version);
}

/**
 * A page of the section: the portal's own front matter (never the package's), CommonMark
 * whatever the file's name (MDX would run the page's expressions at build time), and a body
 * that holds no raw HTML: package text reaches it only through @portal/sync/trust, and this
 * is the last check before it is written.
 */
function page(frontMatter: Record<string, unknown>, body: string): string {
  const markup = markupIn(body);
  if (markup !== undefined)
    throw new Error(
      `A page of ${String(frontMatter.package)} ${String(frontMatter.package_version)} would hold raw HTML (${JSON.stringify(markup.slice(0, 80))}); package text must pass @portal/sync/trust.`,
    );
  const matter = { ...frontMatter, mdx: { format: 'md' } };
  return `---\n${stringify(matter, { lineWidth: 0 }).trimEnd()}\n---\n\n${body.trim()}\n`;
}

function isMarkdown(path: string): boolean {
  return /\.(md|markdown)$/i.test(path);
}

/**
 * A page the portal's authors write for a range of a package's releases (a guide to the 3.x
 * API, say): `versioned/<NAME>.md` in the source's `pages` folder, whose front matter names
 * the range (`versions: '^3.1.0'`). Each documented release in the range gets it in its own
 * folder, with the symbols it names linked to that release's reference.
 */
export interface VersionedPage {
  /** The file's name, and the page's beside each release's README (`GUIDE.md`). */
  name: string;
  range: string;
  frontMatter: Record<string, unknown>;
  body: string;
  file: string;
}

/** The versioned pages of a source, read from its `pages` folder. */
export function versionedPages(siteDir: string, source: Pick<Source, 'pages'>): VersionedPage[] {
  if (!source.pages) return [];
  const dir = join(siteDir, source.pages, 'versioned');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /\.md$/.test(name))
    .sort()
    .map((name) => {
      const file = join(dir, name);
      const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(readFileSync(file, 'utf8'));
      const { versions, ...frontMatter } = (match ? parse(match[1] ?? '') : {}) as Record<string, unknown>;
      if (typeof versions !== 'string' || semver.validRange(versions) === null)
        throw new Error(
          `${file}: its front matter must name the releases it is for as a semver range (versions: '^3.1.0').`,
        );
      if (typeof frontMatter.title !== 'string') throw new Error(`${file}: its front matter needs a title.`);
      return { name, range: versions, frontMatter, body: match?.[2] ?? '', file };
    });
}

/**
 * The authors' line on what each exported symbol is for (`api-notes.yaml` in the source's
 * pages folder: name → text), which the reference shows where a release's doc comment says nothing.
 */
export function apiNotes(siteDir: string, source: Pick<Source, 'pages'>): Map<string, string> {
  const file = source.pages ? join(siteDir, source.pages, 'api-notes.yaml') : undefined;
  if (!file || !existsSync(file)) return new Map();
  const notes: unknown = parse(readFileSync(file, 'utf8'));
  if (typeof notes !== 'object' || notes === null || Object.values(notes).some((note) => typeof note !== 'string'))
    throw new Error(`${file}: each entry must be a symbol's name and one line of text.`);
  return new Map(Object.entries(notes as Record<string, string>));
}

/** The versioned pages a release gets. */
export const versionedPagesOf = (version: string, pages: readonly VersionedPage[]): VersionedPage[] =>
  pages.filter((entry) => semver.satisfies(version, entry.range));

/** The page a release file becomes, relative to the version's folder (`CHANGELOG.md` → the section's history). */
function releasePages(version: CachedVersion): Map<string, string> {
  const pages = new Map<string, string>();
  // The sync kept safe names only; a cache made otherwise is held to the same rule.
  for (const file of version.files.filter((path) => filePathProblem(path) === undefined)) {
    if (/^readme(\.(md|markdown))?$/i.test(file)) pages.set(file, 'README.md');
    else if (file.startsWith('docs/') && isMarkdown(file)) pages.set(file, file.replace(/\.markdown$/i, '.md'));
  }
  return pages;
}

function whatIs(source: Source, version: CachedVersion): string {
  const name = version.manifest.name ?? source.package ?? source.title;
  return source.kind === 'npm' ? markdownCode(name) : `${source.title} (${source.repository})`;
}

/** What a release's API changed, in a few words for its landing page. */
function apiSummary(change: ReturnType<Reference['changesOf']>): string {
  if (!change) return '';
  return ` (against ${change.from}: ${change.removed.length} removed, ${change.changed.length} changed, ${change.added.length} added)`;
}

/**
 * A release file's Markdown converted once per process for the same inputs: a build writes
 * each package's pages twice (as they are, and with the newest as it will be once a newer
 * release is out), and every older release's file converts the same both times. The key
 * is all that the conversion reads: the text, where the file
 * and its page are, and everything `pageFor` answers from.
 */
const conversions = new Map<string, PackageMarkdown>();

function convertOnce(text: string, context: LinkContext, inputs: unknown): PackageMarkdown {
  const key = createHash('sha256').update(text).update(JSON.stringify(inputs)).digest('hex');
  let converted = conversions.get(key);
  if (!converted) {
    // A long `npm start` syncs new releases now and then: the map never holds more than a few builds' worth.
    if (conversions.size >= 5_000) conversions.clear();
    converted = packageMarkdown(text, context);
    conversions.set(key, converted);
  }
  return { ...converted };
}

/**
 * Everything the section's folder holds, as paths relative to it, and the picker's data.
 * `newestAsOlder`: the newest release's pages are written in its own folder, as they will
 * be once a newer release is out (for its archive, made before that: src/archives).
 */
export function sectionPages(
  source: Source,
  cached: CachedSource,
  { cacheDir, siteDir, newestAsOlder = false }: { cacheDir: string; siteDir: string; newestAsOlder?: boolean },
): { files: Map<string, string | { copyFrom: string }>; versions: PackageVersions; reference: Reference } {
  const files = new Map<string, string | { copyFrom: string }>();
  const versions = cached.versions ?? [];
  const latest = versions[0];
  if (!latest) throw new Error(`${source.id}: the content cache holds no version; run npm run sync.`);
  /** Where a version's pages go: the section's own folder for the newest, else a folder of its own. */
  const folderOf = (version: CachedVersion): string =>
    version === latest && !newestAsOlder ? '' : `${version.version}/`;
  const reference = sectionReference(
    source,
    cached,
    versions.map((version) => ({
      version: version.version,
      folder: folderOf(version),
      date: version.date,
    })),
    { cacheDir, page, notes: apiNotes(siteDir, source) },
  );
  for (const [path, text] of reference.files) files.set(path, text);
  const basePath = `/docs/${source.section}/`;
  const overlay = source.pages ? join(siteDir, source.pages) : undefined;
  const overlayPages = overlay && existsSync(overlay) ? readdirSync(overlay).filter(isMarkdown) : [];
  const guides = versionedPages(siteDir, source);
  const picker: PackageVersions = {
    id: source.id,
    title: source.title,
    basePath,
    latest: latest.version,
    versions: [],
  };

  for (const version of versions) {
    const folder = folderOf(version);
    const mapping = releasePages(version);
    const repository = repositoryWeb(version.manifest.repository ?? source.repository);
    let homepageOrigin: string | undefined;
    try {
      homepageOrigin = version.manifest.homepage ? new URL(version.manifest.homepage).origin : undefined;
    } catch {
      homepageOrigin = undefined;
    }
    const pathsHere: string[] = [];
    // The pages of this release that name each symbol, for the symbol's page.
    const usedIn = new Map<ApiSymbol, { target: string; title: string }[]>();
    const linkedFrom = (target: string, title: string) => (symbol: ApiSymbol) => {
      const uses = usedIn.get(symbol) ?? [];
      if (!uses.some((use) => use.target === target)) uses.push({ target, title });
      usedIn.set(symbol, uses);
    };
    for (const [file, target] of mapping) {
      const text = readFileSync(join(cacheDir, version.dir, file), 'utf8');
      const here = posix.dirname(target);
      const pageFor = (link: string): string | undefined => {
        const wanted = posix.normalize(posix.join(posix.dirname(file), link));
        const base = wanted.toLowerCase().replace(/\.(md|markdown|txt)$/, '');
        if (base === 'changelog') return posix.relative(here, `${folder ? '../' : ''}CHANGELOG.md`) || 'CHANGELOG.md';
        if (base === 'license') return posix.relative(here, `${folder ? '../' : ''}LICENSE.md`) || 'LICENSE.md';
        const overlayHit = overlayPages.find((name) => name.toLowerCase().replace(/\.md$/, '') === base);
        if (overlayHit) return posix.relative(here, `${folder ? '../' : ''}${overlayHit}`);
        const target2 = mapping.get(wanted);
        return target2 ? posix.relative(here, target2) || posix.basename(target2) : undefined;
      };
      const blob = repository
        ? `${repository}/blob/${version.tag ?? (source.kind === 'npm' ? `v${version.version}` : 'HEAD')}`
        : undefined;
      const converted = convertOnce(text, { pageFor, repositoryBlob: blob, homepageOrigin }, [
        file,
        target,
        folder,
        [...mapping],
        overlayPages,
        blob,
        homepageOrigin,
      ]);
      const isLanding = target === 'README.md';
      const title = isLanding
        ? folder
          ? `${source.title} ${version.version}`
          : source.title
        : (converted.title ?? posix.basename(target, '.md'));
      // Inline code and code blocks that name a symbol lead to its page in this version's reference.
      converted.markdown = linkSymbols(
        converted.markdown,
        reference.symbolsOf(version.version),
        (symbol) => posix.relative(here, `api/${symbol.slug}.md`),
        linkedFrom(target, isLanding ? `${title} README` : title),
      );
      const lead = isLanding
        ? [
            `This is the README of ${whatIs(source, version)} **${version.version}**, published on ${longDay(version.date)}${
              folder === '' ? ', the newest release' : ''
            }, as the package carries it.`,
            version.manifest.license ? `Licence: ${markdownText(version.manifest.license)}.` : '',
            version.manifest.peerDependencies && Object.keys(version.manifest.peerDependencies).length
              ? `Peer dependencies: ${Object.entries(version.manifest.peerDependencies)
                  .map(([name, range]) => `${markdownCode(name)} ${markdownText(range)}`)
                  .join(', ')}.`
              : '',
            `Every release and its date: [release history](${posix.relative(here, `${folder ? '../' : ''}CHANGELOG.md`)}).`,
            reference.pages.has(version.version)
              ? `Its exported API, from its type declarations: [API reference](${posix.relative(here, 'api/index.md')}) and [API changes](${posix.relative(here, 'api/api-changes.md')})${apiSummary(reference.changesOf(version.version))}.`
              : '',
          ]
            .filter(Boolean)
            .join(' ')
        : '';
      const frontMatter: Record<string, unknown> = {
        title,
        ...(isLanding && !folder ? { sidebar_label: 'Overview' } : {}),
        description:
          `${version.manifest.description ?? source.title}${folder ? ` (version ${version.version})` : ''}`.slice(
            0,
            300,
          ),
        ...(isLanding ? (source.front_matter ?? {}) : {}),
        ...(folder || !isLanding ? { displayed_sidebar: SIDEBAR, pagination_prev: null, pagination_next: null } : {}),
        package: source.id,
        package_version: version.version,
      };
      if (isLanding && folder) frontMatter.sidebar_label = version.version;
      files.set(`${folder}${target}`, page(frontMatter, `${lead}\n\n${converted.markdown}`));
      pathsHere.push(target === 'README.md' ? '' : target.replace(/(README)?\.md$/, ''));
    }
    for (const guide of versionedPagesOf(version.version, guides)) {
      if ([...mapping.values()].includes(guide.name) || overlayPages.includes(guide.name))
        throw new Error(`${guide.file}: ${version.version} carries a page of the same name.`);
      const title = String(guide.frontMatter.title);
      const body = linkSymbols(
        guide.body,
        reference.symbolsOf(version.version),
        (symbol) => `api/${symbol.slug}.md`,
        linkedFrom(guide.name, title),
      );
      files.set(
        `${folder}${guide.name}`,
        page(
          {
            ...guide.frontMatter,
            ...(folder
              ? {
                  description: `${String(guide.frontMatter.description ?? title)} (version ${version.version})`,
                  displayed_sidebar: SIDEBAR,
                }
              : {}),
            package: source.id,
            package_version: version.version,
          },
          body,
        ),
      );
      pathsHere.push(guide.name.replace(/\.md$/, ''));
    }
    // Each symbol's page names the pages of its release that use it.
    for (const [symbol, uses] of usedIn) {
      const path = `${folder}api/${symbol.slug}.md`;
      const text = files.get(path);
      if (typeof text !== 'string') continue;
      const list = uses
        .sort((a, b) => a.target.localeCompare(b.target))
        .map((use) => `- [${markdownText(use.title)}](../${use.target})`);
      files.set(path, `${text.trimEnd()}\n\n## Where it is used\n\n${list.join('\n')}\n`);
    }
    if (!mapping.has('README.md') && ![...mapping.values()].includes('README.md')) {
      files.set(
        `${folder}README.md`,
        page(
          {
            title: folder ? `${source.title} ${version.version}` : source.title,
            ...(source.front_matter ?? {}),
            package: source.id,
            package_version: version.version,
          },
          `Release ${version.version} of ${whatIs(source, version)} carries no README.`,
        ),
      );
      pathsHere.push('');
    }
    pathsHere.push(...(reference.pages.get(version.version) ?? []));
    picker.versions.push({
      version: version.version,
      date: version.date,
      path: basePath + folder,
      pages: pathsHere.sort(),
    });
  }

  // The release history: every published version, newest first, in the changelog format the
  // home page's "What's new" reads (site/CONTENT.md), each linked to the docs of its line.
  const documented = new Map(picker.versions.map((entry) => [entry.version, entry.path]));
  const lineOf = (version: string) => version.split('.').slice(0, 2).join('.');
  const releases = cached.releases ?? versions.map(({ version, date }) => ({ version, date }));
  // The API changes page of the newest documented release that has a reference lists every
  // release up to it; a newer release without declarations has none to link to.
  const changesHome = picker.versions.find((entry) => reference.pages.has(entry.version));
  const listedFrom = releases.findIndex((release) => release.version === changesHome?.version);
  const changesHref = (version: string, index: number): string | undefined =>
    changesHome && listedFrom >= 0 && index >= listedFrom
      ? `${posix.join(posix.relative(basePath, changesHome.path), 'api/api-changes.md')}#${changesAnchor(version)}`
      : undefined;
  const history = releases.map(({ version, date }, index) => {
    const own = documented.get(version);
    const line = own ? undefined : picker.versions.find((entry) => lineOf(entry.version) === lineOf(version));
    const link = (path: string) => posix.join(posix.relative(basePath, path), 'README.md');
    const docs = own
      ? `[Documentation of ${version}](${link(own)}).`
      : line
        ? `Documented with the newest release of its line, [${line.version}](${link(line.path)}).`
        : 'Outside the range of versions this portal documents.';
    const href = changesHref(version, index);
    const api = href ? historyLine(reference.changesOf(version), href) : '';
    const later = publishedBefore(releases, index);
    const order = later.length
      ? `, before ${versionList(later)}, which ${source.kind === 'npm' ? 'the registry dates' : 'were tagged'} later`
      : '';
    return `## ${version} - ${day(date)}\n\nPublished on ${publishedAt(date)}${order}. ${docs}${api ? `\n\n${api}` : ''}`;
  });
  const name = source.package ?? source.title;
  files.set(
    'CHANGELOG.md',
    page(
      {
        title: `${source.title} changelog`,
        sidebar_label: 'Changelog',
        description: `Every published release of ${name}, from ${releases.at(-1)?.version} to ${releases[0]?.version}, with its date.`,
        package: source.id,
        // The section's own pages belong to the newest release (the version menu, a search of a version).
        package_version: latest.version,
      },
      `Every release of \`${name}\` ${source.kind === 'npm' ? 'published on its registry' : `tagged in ${source.repository}`}, newest first in version order, with the date ${source.kind === 'npm' ? 'the registry gives' : 'of its tag'} (where a lower version is dated later, its entry says so). The newest release of each minor line has its documentation here; use the version menu in the navigation bar to move between them.\n\n${history.join('\n\n')}`,
    ),
  );

  // The licence: the newest release's text, or the newest that carries one, or its identifier.
  const withLicence = versions.find((version) => version.files.some((file) => /^licen[cs]e(\.(md|txt))?$/i.test(file)));
  const licenceFile = withLicence?.files.find((file) => /^licen[cs]e(\.(md|txt))?$/i.test(file));
  const licenceText =
    withLicence && licenceFile ? readFileSync(join(cacheDir, withLicence.dir, licenceFile), 'utf8').trim() : '';
  const identifier = latest.manifest.license;
  files.set(
    'LICENSE.md',
    page(
      {
        title: `${source.title} licence`,
        sidebar_label: 'License',
        description: `The licence of ${name}${identifier ? `: ${identifier}` : ''}.`,
        package: source.id,
        package_version: latest.version,
      },
      [
        identifier
          ? `${latest.version} is published under the **${markdownText(identifier)}** licence (its \`package.json\`).`
          : '',
        licenceText
          ? `${withLicence === latest ? 'Its' : `${latest.version} carries no licence file; ${withLicence?.version}, the newest release that does, carries this`} text:\n\n${fencedCode(licenceText, 'text')}`
          : 'No release in the range documented here carries a licence file.',
      ]
        .filter(Boolean)
        .join('\n\n'),
    ),
  );
  for (const name of overlayPages) files.set(name, { copyFrom: join(overlay as string, name) });
  // The section's own pages live beside the newest version's: the version menu keeps a reader on them.
  const newest = picker.versions[0];
  if (newest)
    newest.pages = [
      ...newest.pages,
      'CHANGELOG',
      'LICENSE',
      ...overlayPages.map((name) => name.replace(/\.md$/, '')),
    ].sort();
  return { files, versions: picker, reference };
}

function* walk(dir: string, prefix = ''): Generator<string> {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) yield* walk(join(dir, entry.name), path);
    else yield path;
  }
}

/** Writes the section's files, leaving unchanged ones untouched (the dev server watches them) and removing the rest. */
export function writeSection(
  dir: string,
  files: Map<string, string | { copyFrom: string }>,
): { written: number; removed: number } {
  let written = 0;
  let removed = 0;
  for (const path of walk(dir)) {
    if (!files.has(path)) {
      rmSync(join(dir, path));
      removed += 1;
    }
  }
  for (const [path, content] of files) {
    // Every path is checked to stay in the section's folder, whatever made its name.
    const target = inside(dir, path);
    const text = typeof content === 'string' ? content : readFileSync(content.copyFrom, 'utf8');
    if (existsSync(target) && readFileSync(target, 'utf8') === text) continue;
    mkdirSync(dirname(target), { recursive: true });
    if (typeof content === 'string') writeFileSync(target, text);
    else copyFileSync(content.copyFrom, target);
    written += 1;
  }
  // Folders a removed version left empty.
  for (const entry of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
    if (entry.isDirectory() && [...walk(join(dir, entry.name))].length === 0)
      rmSync(join(dir, entry.name), { recursive: true });
  }
  return { written, removed };
}
