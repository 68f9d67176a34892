import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import type { LoadContext, Plugin } from '@docusaurus/types';
import { isPublicRoute } from '@portal/access';
import { type ApiModels, apiModelsUrl } from '@portal/built-site/api-reference';
import { isCurrent, loadSources, readState } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

import {
  type ArchiveEntry,
  ARCHIVE_BUILD,
  archivesDir,
  buildArchive,
  pagesHash,
  planArchives,
  themeHash,
} from '../../archives/archives';
import { ARCHIVES_FILE } from '../../archives/merge';
import { archivedReleases } from '../../archives/spec';
import { versionsUrl } from '../../packages/versions';
import { filesOfApp } from './apps';
import { type CachedSource, type PackageVersions, sectionPages, type Source, writeSection } from './materialise';

export interface PackageSourcesData {
  /** The synced packages whose sections are public; a private section's versions stay out of the public bundle. */
  packages: PackageVersions[];
  /**
   * True in a release archive's app, whose data is as old as the archive: its pages read each
   * package's versions from the portal's build (`versionsUrl`) once they have loaded.
   */
  archive: boolean;
}

/**
 * `portal-package-sources`: the package sections that site/sources.yaml names, written into
 * site/docs/ from the content cache before the docs plugin reads it (plugins are made before
 * any loads its content), and the version picker's data. Fails, naming the source, when the
 * cache does not hold it: `npm run sync` (or `npm start`) fills the cache.
 *
 * The portal's build writes each section's own pages and its newest release; the older
 * releases come from their archives (src/archives), which it builds first where the cache
 * holds none that is still valid, and names for the gate-files step to place. An archive's
 * build (`PORTAL_ARCHIVE`) writes the pages of its releases only.
 */
export default function packageSourcesPlugin(context: LoadContext): Plugin {
  const paths = syncPaths({ siteDir: context.siteDir });
  const loaded = loadSources(paths.sourcesFile, { siteDir: context.siteDir });
  const state = readState(paths.cacheDir);
  const missing = loaded.sources.filter(
    (source) => source.kind !== 'local' && !state?.sources[source.id]?.versions?.length,
  );
  if (!isCurrent(state, loaded)) {
    throw new Error(
      missing.length
        ? `The content cache (${paths.cacheDir}) does not hold ${missing.map((source) => source.id).join(', ')}: run npm run sync.`
        : `The content cache was made from an older ${paths.sourcesFile}: run npm run sync.`,
    );
  }
  const archive = archivedReleases();
  const packages: PackageVersions[] = [];
  const models: ApiModels[] = [];
  // The releases an archive may hold, with the hash of their pages: the older ones, and the
  // newest as it will be once a newer release is out (prepared after a release: see below).
  const wanted: ArchiveEntry[] = [];
  const newest: ArchiveEntry[] = [];
  for (const source of loaded.sources as Source[]) {
    if (source.kind === 'local') continue;
    if (archive && !archive.some((entry) => entry.source === source.id)) continue;
    const cached = state.sources[source.id] as CachedSource;
    const newestVersion = cached.versions?.[0]?.version;
    const archivesNewest = archive?.some((entry) => entry.source === source.id && entry.version === newestVersion);
    const pagesOf = (newestAsOlder: boolean) =>
      sectionPages(source, cached, { cacheDir: paths.cacheDir, siteDir: context.siteDir, newestAsOlder });
    const { files, versions, reference } = pagesOf(archivesNewest === true);
    writeSection(join(context.siteDir, 'docs', source.section), filesOfApp(source.id, files, versions, archive));
    if (isPublicRoute(versions.basePath)) packages.push(versions);
    if (archive) continue;
    if (reference.models.versions.length) models.push(reference.models);
    for (const { version } of versions.versions.slice(1)) {
      const release = { source: source.id, version };
      wanted.push({ ...release, pages: pagesHash(filesOfApp(source.id, files, versions, [release])) });
    }
    const asOlder = pagesOf(true);
    const release = { source: source.id, version: versions.latest };
    newest.push({ ...release, pages: pagesHash(filesOfApp(source.id, asOlder.files, asOlder.versions, [release])) });
  }
  const theme = archive ? '' : themeHash(context.siteDir, paths.root, context.siteConfig.url);
  const plan = () => planArchives(archivesDir(paths.cacheDir), wanted, theme, newest);
  const build = (releases: ArchiveEntry[], what: string) => {
    console.log(`[portal-package-sources] Building the archive of ${what} once…`);
    const built = buildArchive({
      siteDir: context.siteDir,
      cacheDir: paths.cacheDir,
      sourcesFile: paths.sourcesFile,
      releases,
      sectionOf: (id) => (loaded.sources.find((source) => source.id === id) as Source).section,
      theme,
    });
    console.log(`[portal-package-sources] Archive built in ${built.record.seconds.toFixed(1)} s: ${built.dir}`);
  };
  if (!archive) {
    const missing = plan().build;
    if (missing.length) build(missing, `${missing.length} older releases`);
    // For the gate-files step, which places them beside this build's files; an archive of a
    // newest release waits until a newer one is out.
    mkdirSync(context.generatedFilesDir, { recursive: true });
    writeFileSync(
      join(context.generatedFilesDir, ARCHIVES_FILE),
      JSON.stringify(plan().use.map((kept) => join(kept.dir, ARCHIVE_BUILD))),
    );
  }
  return {
    name: 'portal-package-sources',
    contentLoaded({ actions }) {
      actions.setGlobalData({ packages, archive: archive !== null } satisfies PackageSourcesData);
    },
    // Each package's API models, in its section (so read by its readers only), for the gate's
    // MCP tools; and its versions.
    async postBuild({ outDir }) {
      // Each package's versions, for the version menus of its archived releases' pages.
      if (!archive)
        for (const versions of packages) {
          const file = join(outDir, ...versionsUrl(versions.basePath).split('/'));
          await mkdir(dirname(file), { recursive: true });
          await writeFile(file, JSON.stringify(versions));
        }
      for (const model of models) {
        const file = join(outDir, ...apiModelsUrl(model.basePath).split('/'));
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, JSON.stringify(model));
      }
    },
    getPathsToWatch: () => [paths.sourcesFile, join(paths.cacheDir, 'state.json')],
    // `docusaurus archive-releases`: the newest release of each package archived ahead of the
    // release that will replace it, so that release's rebuild finds it archived (the gate runs
    // it after each rebuild it serves: SOURCES_ARCHIVE_COMMAND).
    extendCli(cli) {
      cli
        .command('archive-releases')
        .description("Builds the archives of the packages' releases that have none, the newest included.")
        .action(() => {
          if (archive) return;
          const missing = plan().buildAhead;
          // One archive each: the next release of one package makes its own placeable.
          for (const release of missing) build([release], `the newest release ${release.source} ${release.version}`);
          if (missing.length === 0) console.log('[portal-package-sources] Every release has its archive.');
        });
    },
  };
}
