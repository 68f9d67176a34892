/**
 * Places the finished files of the release archives (archives.ts) beside the portal's own,
 * after the gate-files step has labelled and compressed the portal's: each archive's
 * files come labelled, compressed, indexed and converted by its own build's gate-files step,
 * so they are linked in, not made again. Their manifest entries join the portal's; a file
 * both builds have (a font, a shared chunk) must have the same bytes, and is read by the
 * readers of either. The app-level files of an archive (its not-found page, sitemap,
 * llms.txt fragments) are merged into the portal's, not placed.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import { normalizeRoute } from '@portal/access';
import { isOlderRelease, MANIFEST_FILE, type Manifest, type ManifestEntry } from '@portal/built-site';
import { placeKept } from '@portal/built-site/write';

/** In the portal build's generated folder: the archive build folders to place (package-sources writes it). */
export const ARCHIVES_FILE = 'portal-archives.json';

/** Files of an archive that are its app's own, not its pages': merged below or left out. */
const APP_FILE = /^\/(404\.html|sitemap\.xml|robots\.txt|portal-manifest\.json|llms\/[^/]+\/(index|full)\.md)$/;

/** A hard link into the build (a copy across file systems): nothing writes a build's files in place. */
async function place(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  await placeKept(from, to);
}

/** `## Section` blocks of an llms.txt fragment, by section, in their order. */
function llmsSections(text: string): Map<string, string[]> {
  const sections = new Map<string, string[]>();
  for (const block of text.split(/^## /m).filter((part) => part.trim())) {
    const [label = '', ...lines] = block.trimEnd().split('\n');
    sections.set(label, [...(sections.get(label) ?? []), ...lines.filter((line) => line.startsWith('- '))]);
  }
  return sections;
}

const linkUrl = (line: string): string => /\]\(([^)]+)\)/.exec(line)?.[1] ?? line;

/** The portal's llms.txt index fragment with an archive's lines added to their sections, each section's lines by address. */
export function mergeLlmsIndex(portal: string, archive: string): string {
  const sections = llmsSections(portal);
  for (const [label, lines] of llmsSections(archive)) sections.set(label, [...(sections.get(label) ?? []), ...lines]);
  return [...sections]
    .map(
      ([label, lines]) =>
        `## ${label}\n\n${[...lines].sort((a, b) => linkUrl(a).localeCompare(linkUrl(b))).join('\n')}\n`,
    )
    .join('\n');
}

/** The portal's sitemap with an archive's `<url>` entries added before its end. */
export function mergeSitemap(portal: string, archive: string): string {
  const urls = archive.match(/<url>[\s\S]*?<\/url>/g) ?? [];
  return urls.length ? portal.replace('</urlset>', `${urls.join('')}</urlset>`) : portal;
}

function readersUnion(a: ManifestEntry, b: ManifestEntry): Pick<ManifestEntry, 'access' | 'units'> {
  if (a.access === 'public' || b.access === 'public') return { access: 'public', units: [] };
  return { access: 'private', units: [...new Set([...a.units, ...b.units])].sort() };
}

/**
 * Before the portal's manifest is written: adds each archive's public pages to the sitemap
 * and its pages to the llms.txt index fragments, so the manifest labels and compresses the
 * merged files.
 */
export function mergeArchiveTexts(buildDir: string, archiveBuilds: readonly string[]): void {
  for (const archiveDir of archiveBuilds) {
    const sitemap = join(archiveDir, 'sitemap.xml');
    const target = join(buildDir, 'sitemap.xml');
    if (existsSync(sitemap) && existsSync(target))
      writeFileSync(target, mergeSitemap(readFileSync(target, 'utf8'), readFileSync(sitemap, 'utf8')));
    const archived = JSON.parse(readFileSync(join(archiveDir, MANIFEST_FILE), 'utf8')) as Manifest;
    for (const entry of Object.values(archived.entries)) {
      if (!/^llms\/[^/]+\/index\.md$/.test(entry.file)) continue;
      const fragment = join(buildDir, entry.file);
      const portal = existsSync(fragment) ? readFileSync(fragment, 'utf8') : '';
      mkdirSync(dirname(fragment), { recursive: true });
      writeFileSync(fragment, mergeLlmsIndex(portal, readFileSync(join(archiveDir, entry.file), 'utf8')));
    }
  }
}

/**
 * After the portal's manifest is written: links each archive's files into `buildDir` and
 * adds their entries to the manifest. Answers the number of files placed. Throws, before
 * writing the manifest, when an archive's file would replace a different one of the portal's.
 */
export async function placeArchiveFiles(buildDir: string, archiveBuilds: readonly string[]): Promise<number> {
  if (archiveBuilds.length === 0) return 0;
  const manifestFile = join(buildDir, MANIFEST_FILE);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const hashes = new Set(manifest.inlineScriptHashes);
  const archivedPages = new Set<string>();
  let placed = 0;
  for (const archiveDir of archiveBuilds) {
    const archived = JSON.parse(readFileSync(join(archiveDir, MANIFEST_FILE), 'utf8')) as Manifest;
    for (const [key, entry] of Object.entries(archived.entries)) {
      if (APP_FILE.test(`/${entry.file}`)) continue;
      // An archive's own search bundles of units it has no older release in: empty, the portal's count.
      if (/^search\//.test(entry.file) && !/^search\/[^/]+\/older\//.test(entry.file)) continue;
      const mine = manifest.entries[key];
      if (mine) {
        if (mine.etag !== entry.etag)
          throw new Error(`The archive ${archiveDir} has another ${entry.file} than the portal's build`);
        Object.assign(mine, readersUnion(mine, entry));
        continue;
      }
      for (const file of [entry.file, entry.br?.file, entry.gzip?.file])
        if (file) await place(join(archiveDir, file), join(buildDir, file));
      manifest.entries[key] = entry;
      if (entry.kind === 'page') archivedPages.add(entry.url);
      placed += 1;
    }
    for (const hash of archived.inlineScriptHashes) hashes.add(hash);
  }
  manifest.inlineScriptHashes = [...hashes].sort();
  const broken = crossAppLinks(buildDir, manifest, archivedPages);
  if (broken.length)
    throw new Error(
      `Links between the portal and its release archives lead nowhere:\n${broken.slice(0, 50).join('\n')}`,
    );
  writeFileSync(manifestFile, JSON.stringify(manifest));
  return placed;
}

const LINK = /<a\b[^>]*?\shref="?(\/[^"#?\s>]*)/g;

/**
 * Links between the apps that no Docusaurus check sees: every local link of an archived page,
 * and every link of the portal's pages to an older release (ReleaseLink), must lead to a page
 * or file of the merged build. Answers the broken ones as "page → link".
 */
export function crossAppLinks(buildDir: string, manifest: Manifest, archivedPages: ReadonlySet<string>): string[] {
  const broken: string[] = [];
  const exists = (path: string): boolean => {
    const key = normalizeRoute(decodeURI(path));
    return key !== null && manifest.entries[key] !== undefined;
  };
  for (const entry of Object.values(manifest.entries)) {
    if (entry.kind !== 'page' || entry.url === '/404.html') continue;
    const archived = archivedPages.has(entry.url);
    const html = readFileSync(join(buildDir, entry.file), 'utf8');
    for (const [, href = ''] of html.matchAll(LINK))
      if ((archived || isOlderRelease(href)) && !exists(href)) broken.push(`${entry.url} → ${href}`);
  }
  return broken;
}

/** The archive build folders the portal's build places (package-sources names them), none when it names none. */
export function archiveBuildsOf(generatedDir: string): string[] {
  const file = join(generatedDir, ARCHIVES_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as string[]) : [];
}
