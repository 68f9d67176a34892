import { join } from 'node:path';
import type { Plugin } from '@docusaurus/types';

import { moduleReplacement } from './replace-module';

/**
 * Takes Prism out of the code every page runs at start-up. The classic theme registers
 * `prism.additionalLanguages` from a client module, so Prism and all its grammars were in
 * the main bundle: about a sixth of it, downloaded and evaluated before any page can
 * hydrate, pages without code included. Its client module is replaced here by an empty
 * one; the languages are registered by the code block instead (src/prism/languages.ts,
 * imported by src/theme/CodeBlock/Content), so Prism loads with the pages that show code.
 * A plugin because a site cannot remove another plugin's client module any other way.
 */
export default function prismOffStartup(context: { siteDir: string }): Plugin {
  return moduleReplacement(
    {
      name: 'prism-off-startup',
      pattern: /@docusaurus[\\/]theme-classic[\\/]lib[\\/]prism-include-languages\.js$/,
      replacement: join(context.siteDir, 'src', 'prism', 'no-startup.ts'),
    },
    context.siteDir,
  );
}

/**
 * Bundles the highlighted code block (src/prism/on-server.ts) only where the pages are
 * rendered. The server renders it directly; a block loaded on demand there too suspended on
 * the first pages each renderer took, and React then sent those blocks twice (the plain
 * stand-in, and the highlighted block swapped in by an inline script), so which pages came
 * out that way changed from build to build, and a rebuild indexed and compressed them again.
 */
export function prismOnServerOnly(context: { siteDir: string }): Plugin {
  return moduleReplacement(
    {
      name: 'prism-on-server-only',
      pattern: /[\\/]src[\\/]prism[\\/]on-server\.ts$/,
      replacement: join(context.siteDir, 'src', 'prism', 'not-in-browser.ts'),
      clientOnly: true,
    },
    context.siteDir,
  );
}
