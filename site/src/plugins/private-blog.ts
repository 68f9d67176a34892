import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { LoadContext, Plugin } from '@docusaurus/types';
import pluginContentBlog, { validateOptions } from '@docusaurus/plugin-content-blog';
import type { BlogContent, PluginOptions } from '@docusaurus/plugin-content-blog';

// Docusaurus validates this plugin's options with the blog plugin's own schema.
export { validateOptions };

/** Where the blog's description is kept, beside its posts: partner and staff reading, like them. */
export const DESCRIPTION_FILE = join('blog', 'description.txt');

/**
 * The classic blog plugin with its description read from a file at build time. Docusaurus
 * compiles the whole site config, plugin options included, into the main bundle that every
 * visitor loads; a description given there would be public. Read here, it reaches only the
 * blog's own pages and feeds, which are private.
 */
export default async function privateBlog(context: LoadContext, options: PluginOptions): Promise<Plugin<BlogContent>> {
  const blogDescription = (await readFile(join(context.siteDir, DESCRIPTION_FILE), 'utf8')).trim();
  if (blogDescription === '') throw new Error(`${DESCRIPTION_FILE} is empty: the blog needs a description`);
  return pluginContentBlog(context, { ...options, blogDescription });
}
