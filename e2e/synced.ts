// What the content cache holds of a synced package section (site/sources.yaml), for tests
// that list the pages the build writes from it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { loadSources, readState } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';
import semver from 'semver';
import { parse } from 'yaml';

/**
 * An older release's page of one symbol: the same template as the newest release's page of it.
 * Walks that load page after page leave them out (a few hundred such pages would take a walk
 * past its time); the build's checks and the leak crawls still take every one.
 */
export const OLDER_SYMBOL_PAGE = /\/\d+\.\d+\.\d+\/api\/(?!api-changes\/?$)[^/]+\/?$/;

/** The paths of a synced package's releases other than its newest (`/docs/<section>/2.3.0/`). */
export function olderReleasePaths(id: string): string[] {
  const paths = syncPaths();
  const source = loadSources(paths.sourcesFile, { siteDir: paths.siteDir }).sources.find((entry) => entry.id === id);
  const cached = readState(paths.cacheDir)?.sources[id];
  if (!source || !cached?.versions) throw new Error(`${id} is not synced: run npm run sync`);
  return cached.versions.slice(1).map((version) => `/docs/${source.section}/${version.version}/`);
}

/**
 * The API reference's pages of each documented release of a synced package, as the build
 * writes them from the content cache: `api/`, `api/api-changes` and a page per symbol.
 */
export function apiReferencePaths(id: string): string[] {
  const paths = syncPaths();
  const source = loadSources(paths.sourcesFile, { siteDir: paths.siteDir }).sources.find((entry) => entry.id === id);
  const cached = readState(paths.cacheDir)?.sources[id];
  if (!source || !cached?.versions) throw new Error(`${id} is not synced: run npm run sync`);
  return cached.versions.flatMap((version, index) => {
    const dir = cached.api?.find((entry) => entry.version === version.version)?.dir;
    if (!dir) return [];
    const base = `/docs/${source.section}/${index === 0 ? '' : `${version.version}/`}api/`;
    const model = JSON.parse(readFileSync(join(paths.cacheDir, dir, 'model.json'), 'utf8')) as {
      symbols: { slug: string }[];
    };
    return [base, `${base}api-changes`, ...model.symbols.map((symbol) => `${base}${symbol.slug}`)];
  });
}

/**
 * The pages the portal's authors write for a range of a synced package's releases
 * (`versioned/` in its pages folder), in every release they are for (`/docs/<section>/GUIDE`,
 * `/docs/<section>/3.2.1/GUIDE`).
 */
export function versionedPagePaths(id: string): string[] {
  const paths = syncPaths();
  const source = loadSources(paths.sourcesFile, { siteDir: paths.siteDir }).sources.find((entry) => entry.id === id);
  const cached = readState(paths.cacheDir)?.sources[id];
  if (!source || !cached?.versions) throw new Error(`${id} is not synced: run npm run sync`);
  const dir = source.pages ? join(paths.siteDir, source.pages, 'versioned') : undefined;
  const pages = (dir && existsSync(dir) ? readdirSync(dir) : [])
    .filter((name) => name.endsWith('.md'))
    .map((name) => {
      const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(join(dir as string, name), 'utf8'))?.[1];
      return {
        name: name.replace(/\.md$/, ''),
        range: String((parse(frontMatter ?? '') as { versions?: string }).versions),
      };
    });
  return cached.versions.flatMap((version, index) =>
    pages
      .filter((page) => semver.satisfies(version.version, page.range))
      .map((page) => `/docs/${source.section}/${index === 0 ? '' : `${version.version}/`}${page.name}`),
  );
}
