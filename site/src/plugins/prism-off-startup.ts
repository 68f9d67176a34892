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
