import type { LoadContext, Plugin, RouteConfig } from '@docusaurus/types';
import pluginContentDocs, { validateOptions } from '@docusaurus/plugin-content-docs';
import type { LoadedContent, PluginOptions } from '@docusaurus/plugin-content-docs';

import { docsIndexOf, gateDocsRoute } from './gated-docs-routes';

// Docusaurus validates this plugin's options with the docs plugin's own schema.
export { validateOptions };

/**
 * The classic docs plugin, unchanged but for the routes it adds: doc descriptions are kept
 * only where every reader of the route may read the doc (gated-docs-routes.ts). It keeps
 * the docs plugin's name and id, so the theme and the other plugins find it as before.
 */
export default async function gatedDocs(context: LoadContext, options: PluginOptions): Promise<Plugin<LoadedContent>> {
  const docs = await pluginContentDocs(context, options);
  const { contentLoaded } = docs;
  if (!contentLoaded) throw new Error('The docs plugin no longer adds its routes in contentLoaded; see gated-docs.ts.');
  return {
    ...docs,
    async contentLoaded(args) {
      const index = docsIndexOf(args.content);
      const addRoute = (route: RouteConfig): void => args.actions.addRoute(gateDocsRoute(route, index));
      await contentLoaded({ ...args, actions: { ...args.actions, addRoute } });
    },
  };
}
