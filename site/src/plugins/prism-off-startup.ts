import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Plugin } from '@docusaurus/types';

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
  const themeModule = createRequire(join(context.siteDir, 'package.json')).resolve(
    '@docusaurus/theme-classic/lib/prism-include-languages',
  );
  return {
    name: 'prism-off-startup',
    configureWebpack() {
      const empty = join(context.siteDir, 'src', 'prism', 'no-startup.ts');
      // The client modules list names the module without its extension; both spellings.
      return {
        resolve: { alias: { [themeModule]: empty, [themeModule.replace(/\.js$/, '')]: empty } },
      };
    },
  };
}
