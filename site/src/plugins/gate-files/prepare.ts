import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

import { pageRoute, type Manifest } from '@portal/built-site';
import { listBuildFiles, writeManifest } from '@portal/built-site/write';

import { computeFileReaders } from './file-readers';
import { releaseVersions, writeLlmsFragments, writeMarkdownPages } from './markdown';
import type { BuildCache, PluginOptions } from './options';
import { buildSearchIndexes } from './search-index';

/** Removes the precompressed forms of an earlier run, so a rerun starts from the files Docusaurus wrote. */
export async function removePrecompressed(buildDir: string): Promise<void> {
  const previous = await readdir(buildDir, { recursive: true, withFileTypes: true });
  await Promise.all(
    previous
      .filter((entry) => entry.isFile() && /\.(br|gz)$/.test(entry.name))
      .map((entry) => rm(join(entry.parentPath, entry.name))),
  );
}

/**
 * What the gate needs beside the HTML, from the pages alone: each access unit's search
 * bundle, each page's Markdown twin and the llms.txt fragments. Answers the number of
 * pages in each unit's search bundle and the Markdown twins written.
 */
export async function writePageDerivatives(
  buildDir: string,
  generatedDir: string,
  options: Pick<PluginOptions, 'searchRootSelector' | 'searchExcludeSelectors' | 'searchLanguage'>,
  caches?: { search: BuildCache; markdown: BuildCache },
  /** The site's address, for each twin's canonical URL. */
  siteUrl = '',
): Promise<{ searchPages: Record<string, number>; markdownPages: number }> {
  await removePrecompressed(buildDir);
  const pages = (await listBuildFiles(buildDir))
    .filter((url) => url.endsWith('/index.html'))
    .map((url) => ({ url: pageRoute(url), file: url.slice(1) }));
  const searchPages = await buildSearchIndexes(
    buildDir,
    pages,
    {
      rootSelector: options.searchRootSelector,
      excludeSelectors: options.searchExcludeSelectors,
      language: options.searchLanguage,
    },
    await releaseVersions(buildDir, generatedDir),
    caches?.search,
  );
  const markdown = await writeMarkdownPages(buildDir, generatedDir, caches?.markdown, siteUrl);
  await writeLlmsFragments(buildDir, markdown);
  return { searchPages, markdownPages: markdown.length };
}

/** Labels every file of the finished build with its readers and writes the manifest the gate serves from. */
export async function writeGateManifest(
  buildDir: string,
  generatedDir: string,
  options: Pick<PluginOptions, 'alwaysPublic' | 'compressionConcurrency'>,
  compressionCache?: string,
): Promise<Manifest & { foreignScripts: string[] }> {
  const files = await listBuildFiles(buildDir);
  const readers = await computeFileReaders({ buildDir, generatedDir, files, alwaysPublic: options.alwaysPublic });
  return writeManifest(buildDir, readers, { concurrency: options.compressionConcurrency, compressionCache });
}

/** One line for the build log: files public, of one unit and of several, pages among them, how many precompressed. */
export function summarize(manifest: Manifest, seconds: number): string {
  const all = Object.values(manifest.entries);
  const byReaders = new Map<string, typeof all>();
  const units = new Set<string>();
  for (const entry of all) {
    for (const unit of entry.units) units.add(unit);
    const label = entry.access === 'public' ? 'public' : entry.units.length === 1 ? 'of one unit' : 'of several units';
    byReaders.set(label, [...(byReaders.get(label) ?? []), entry]);
  }
  const counts = [...byReaders].map(
    ([label, entries]) => `${entries.length} ${label} (${entries.filter((e) => e.kind === 'page').length} pages)`,
  );
  return (
    `Gate manifest: ${all.length} files in ${units.size} units: ${counts.join(', ')}; ` +
    `${all.filter((e) => e.br).length} precompressed, in ${seconds.toFixed(1)} s`
  );
}
