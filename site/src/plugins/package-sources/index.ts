import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import type { LoadContext, Plugin } from '@docusaurus/types';
import { isPublicRoute } from '@portal/access';
import { type ApiModels, apiModelsUrl } from '@portal/built-site/api-reference';
import { isCurrent, loadSources, readState } from '@portal/sync';
import { syncPaths } from '@portal/sync/paths';

import { type CachedSource, type PackageVersions, sectionPages, type Source, writeSection } from './materialise';

export interface PackageSourcesData {
  /** The synced packages whose sections are public; a private section's versions stay out of the public bundle. */
  packages: PackageVersions[];
}

/**
 * `portal-package-sources`: the package sections that site/sources.yaml names, written into
 * site/docs/ from the content cache before the docs plugin reads it (plugins are made before
 * any loads its content), and the version picker's data. Fails, naming the source, when the
 * cache does not hold it: `npm run sync` (or `npm start`) fills the cache.
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
  const packages: PackageVersions[] = [];
  const models: ApiModels[] = [];
  for (const source of loaded.sources as Source[]) {
    if (source.kind === 'local') continue;
    const { files, versions, reference } = sectionPages(source, state.sources[source.id] as CachedSource, {
      cacheDir: paths.cacheDir,
      siteDir: context.siteDir,
    });
    writeSection(join(context.siteDir, 'docs', source.section), files);
    if (isPublicRoute(versions.basePath)) packages.push(versions);
    if (reference.models.versions.length) models.push(reference.models);
  }
  return {
    name: 'portal-package-sources',
    contentLoaded({ actions }) {
      actions.setGlobalData({ packages } satisfies PackageSourcesData);
    },
    // Each package's API models, in its section (so read by its readers only), for the gate's MCP tools.
    async postBuild({ outDir }) {
      for (const model of models) {
        const file = join(outDir, ...apiModelsUrl(model.basePath).split('/'));
        await mkdir(dirname(file), { recursive: true });
        await writeFile(file, JSON.stringify(model));
      }
    },
    getPathsToWatch: () => [paths.sourcesFile, join(paths.cacheDir, 'state.json')],
  };
}
