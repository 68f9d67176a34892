import { relative } from 'node:path';
import type { Plugin } from '@docusaurus/types';

interface ResolveData {
  createData?: { resource?: string };
}

export interface ModuleReplacement {
  /** The plugin's name. */
  name: string;
  /** The resolved path of the module replaced, wherever it is imported from. */
  pattern: RegExp;
  /** That module's file: the replacement imports it under `alias`. */
  original: string;
  /** The name the replacement imports the original by (declared in src/assets.d.ts). */
  alias: string;
  /** Our module, bundled in the original's place. */
  replacement: string;
  /** Replace it in the browser's bundle only, not in the one that renders the pages. */
  clientOnly?: boolean;
}

/**
 * A plugin that bundles `replacement` wherever `pattern` resolves, for modules of
 * Docusaurus's that no swizzle or package alias reaches (they are imported relatively
 * inside its packages, or set in its bundler config). The original stays importable under
 * `alias`: the query on its path keeps it out of `pattern`, so it is not replaced by
 * itself. A production build in which no module matched fails, so a Docusaurus that moved
 * the module does not quietly bring back what the replacement was for.
 */
export function moduleReplacement(options: ModuleReplacement, siteDir: string): Plugin {
  let replaced = false;
  return {
    name: options.name,
    configureWebpack(_config, isServer, { currentBundler }) {
      if (isServer && options.clientOnly) return {};
      const replace = new currentBundler.instance.NormalModuleReplacementPlugin(
        options.pattern,
        (data: ResolveData) => {
          if (data.createData?.resource === undefined) return;
          data.createData.resource = options.replacement;
          replaced = true;
        },
      );
      return {
        resolve: { alias: { [`${options.alias}$`]: `${options.original}?original` } },
        plugins: [replace],
      };
    },
    async postBuild() {
      if (!replaced) {
        throw new Error(
          `${options.name}: no bundled module matches ${String(options.pattern)}, so ` +
            `${relative(siteDir, options.replacement)} did not replace it; find where this Docusaurus keeps it.`,
        );
      }
    },
  };
}
