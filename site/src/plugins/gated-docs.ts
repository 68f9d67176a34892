import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

import type { LoadContext, Plugin, RouteConfig } from '@docusaurus/types';
import pluginContentDocs, { validateOptions } from '@docusaurus/plugin-content-docs';
import type { LoadedContent, PluginOptions } from '@docusaurus/plugin-content-docs';

import { docsIndexOf, gateDocsRoute } from './gated-docs-routes';
import {
  projectsOfDocs,
  relabel,
  type NavigationLink,
  type ProjectsByPermalink,
  type SidebarNode,
} from './pager-labels';
import { skipRepositoryPages, skipRepositoryPagesOf, type PagedDoc } from './pager-skip';
import { latestRelease } from './releases/changelog';

// Docusaurus validates this plugin's options with the docs plugin's own schema.
export { validateOptions };

type LoadedVersion = LoadedContent['loadedVersions'][number];

/** The current version of each folder that has a changelog (`layout-engine` → 1.8.0). */
async function folderVersions(context: LoadContext, content: LoadedContent): Promise<Map<string, string>> {
  const versions = new Map<string, string>();
  for (const version of content.loadedVersions) {
    for (const doc of version.docs) {
      if (!doc.id.endsWith('/CHANGELOG')) continue;
      const file = join(context.siteDir, doc.source.replace(/^@site\//, ''));
      const latest = latestRelease(await readFile(file, 'utf8'));
      if (latest !== null) versions.set(dirname(doc.id), latest.version);
    }
  }
  return versions;
}

/** Permalink → the project each doc of the version belongs to (pager-labels.ts). */
function projectsOf(version: LoadedVersion): ProjectsByPermalink {
  const byId = projectsOfDocs(Object.values(version.sidebars).flat() as SidebarNode[]);
  return new Map(
    version.docs.flatMap((doc) => {
      const where = byId.get(doc.id);
      return where === undefined ? [] : [[doc.permalink, where] as const];
    }),
  );
}

/**
 * The version's docs with their previous/next links passing over repository pages
 * (pager-skip.ts) and named by project.
 */
function withPagerLabels(version: LoadedVersion, projects: ProjectsByPermalink): LoadedVersion {
  return {
    ...version,
    docs: skipRepositoryPages(version.docs).map((doc) => ({
      ...doc,
      previous: relabel(doc.previous, projects),
      next: relabel(doc.next, projects),
    })),
  };
}

/** A route tree with the category pages' previous/next links passed over and named in the same way. */
function withCategoryPagerLabels(
  route: RouteConfig,
  projects: ProjectsByPermalink,
  docs: readonly PagedDoc[],
): RouteConfig {
  const navigationOf = (navigation: { previous?: NavigationLink; next?: NavigationLink }) => {
    const { previous, next } = skipRepositoryPagesOf(navigation, docs);
    return { previous: relabel(previous, projects), next: relabel(next, projects) };
  };
  const index = route.props?.categoryGeneratedIndex as
    { navigation?: { previous?: NavigationLink; next?: NavigationLink } } | undefined;
  const props =
    index?.navigation === undefined
      ? route.props
      : { ...route.props, categoryGeneratedIndex: { ...index, navigation: navigationOf(index.navigation) } };
  const routes = route.routes?.map((child) => withCategoryPagerLabels(child, projects, docs));
  return { ...route, ...(props && { props }), ...(routes && { routes }) };
}

/**
 * The classic docs plugin, unchanged but for the routes it adds: doc descriptions are kept
 * only where every reader of the route may read the doc, and category pages get their
 * package cards' facts (gated-docs-routes.ts). Previous/next links pass over repository
 * pages (pager-skip.ts) and name the package (pager-labels.ts). It keeps the docs plugin's
 * name and id, so the theme and the other plugins find it as before.
 */
export default async function gatedDocs(context: LoadContext, options: PluginOptions): Promise<Plugin<LoadedContent>> {
  const docs = await pluginContentDocs(context, options);
  const { contentLoaded } = docs;
  if (!contentLoaded) throw new Error('The docs plugin no longer adds its routes in contentLoaded; see gated-docs.ts.');
  return {
    ...docs,
    async contentLoaded(args) {
      const index = docsIndexOf(args.content, await folderVersions(context, args.content));
      const projects = new Map(args.content.loadedVersions.flatMap((version) => [...projectsOf(version)]));
      const content = {
        ...args.content,
        loadedVersions: args.content.loadedVersions.map((version) => withPagerLabels(version, projects)),
      };
      // The docs as Docusaurus linked them: a repository page's own links lead past it.
      const linked = args.content.loadedVersions.flatMap((version) => version.docs);
      const addRoute = (route: RouteConfig): void =>
        args.actions.addRoute(gateDocsRoute(withCategoryPagerLabels(route, projects, linked), index));
      await contentLoaded({ ...args, content, actions: { ...args.actions, addRoute } });
    },
  };
}
