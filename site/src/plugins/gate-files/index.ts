import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { LoadContext, Plugin } from '@docusaurus/types';

import { archiveBuildsOf, mergeArchiveTexts, placeArchiveFiles } from '../../archives/merge';
import { afterOtherPostBuilds } from './after-other-plugins';
import type { PluginOptions } from './options';
import { summarize, writeGateManifest, writePageDerivatives } from './prepare';

type PostBuild = NonNullable<Plugin['postBuild']>;

/**
 * `portal-gate-files`: after the build, what the gate server serves from (spec: the
 * server-enforced gate): each access unit's search bundle, each page's Markdown twin and
 * the llms.txt fragments, then every file labelled with the groups that may read it
 * (file-readers.ts), precompressed, in the manifest (@portal/built-site/write). Its
 * postBuild waits for the other plugins' (the sitemap, the blog feeds), so their files are
 * labelled too; preset.ts loads it first for that. The search bundles, the Markdown twins
 * and the compressed forms are kept between builds in the site's node_modules/.cache
 * (beside the bundler's), so a rebuild after a release indexes only the units whose pages
 * changed, and converts and compresses only what changed.
 */
export default function gateFilesPlugin(context: LoadContext, options: PluginOptions): Plugin<void> {
  const postBuild: PostBuild = async ({ outDir, plugins }) => {
    const started = Date.now();
    await afterOtherPostBuilds(plugins, postBuild);
    const caches = join(context.siteDir, 'node_modules', '.cache');
    // The site's dependencies (Pagefind, remark) decide what the kept files hold too.
    const salt = createHash('sha256')
      .update(readFileSync(join(context.siteDir, 'package.json')))
      .digest('hex');
    await writePageDerivatives(
      outDir,
      context.generatedFilesDir,
      options,
      {
        search: { dir: join(caches, 'portal-search'), salt },
        markdown: { dir: join(caches, 'portal-markdown'), salt },
      },
      context.siteConfig.url,
    );
    // The older releases' archives (src/archives): their files come labelled and compressed.
    const archives = archiveBuildsOf(context.generatedFilesDir);
    mergeArchiveTexts(outDir, archives);
    const compressionCache = join(caches, 'portal-compressed');
    const manifest = await writeGateManifest(outDir, context.generatedFilesDir, options, compressionCache);
    const placed = await placeArchiveFiles(outDir, archives);
    if (manifest.foreignScripts.length)
      console.warn(
        `[portal-gate-files] ${manifest.foreignScripts.length} pages hold an inline script that is not the portal's own; the CSP blocks it: ${manifest.foreignScripts.slice(0, 10).join(', ')}`,
      );
    console.log(
      summarize(manifest, (Date.now() - started) / 1000) +
        (archives.length ? `; ${placed} files of ${archives.length} release archives placed beside them` : ''),
    );
  };
  return { name: 'portal-gate-files', postBuild };
}

export { validateOptions } from './options';
export type { Options, PluginOptions } from './options';
