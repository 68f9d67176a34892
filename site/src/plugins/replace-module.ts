import { relative } from 'node:path';
import type { Plugin } from '@docusaurus/types';
import type { Compiler } from 'webpack';

interface ResolveData {
  createData?: { resource?: string };
}

export interface ModuleReplacement {
  /** The plugin's name. */
  name: string;
  /** The resolved path of the module replaced, wherever it is imported from. */
  pattern: RegExp;
  /** The original, for a replacement that runs it: its file, and the name the replacement imports it by (declared in src/assets.d.ts). */
  keep?: { original: string; alias: string };
  /** Our module, bundled in the original's place. */
  replacement: string;
  /** Replace it in the browser's bundle only, not in the one that renders the pages. */
  clientOnly?: boolean;
}

/**
 * A plugin that bundles `replacement` wherever `pattern` resolves, for modules of
 * Docusaurus's that no swizzle or package alias reaches (they are imported relatively
 * inside its packages, or set in its bundler config). With `keep`, the original stays
 * importable under its alias: the query on its path keeps it out of `pattern`, so it is
 * not replaced by itself. A production build whose bundles hold no `replacement` fails,
 * so a Docusaurus that moved the module does not quietly bring back what the replacement
 * was for. The check reads the finished compilation's modules, not the replacement rule's
 * calls: a rebuild from the bundler's persistent cache resolves nothing again, and the
 * rule is not called at all.
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
        },
      );
      const check = {
        // Rspack's compiler too: the same hook, and modules with the same `resource`.
        apply(compiler: Compiler) {
          compiler.hooks.done.tap(options.name, ({ compilation }) => {
            for (const module of compilation.modules) {
              // A replaced module keeps the original's identifier; its resource is the file bundled.
              const { resource } = module as { resource?: string };
              if (resource?.split('?')[0] === options.replacement) replaced = true;
            }
          });
        },
      };
      const { keep } = options;
      return {
        ...(keep && { resolve: { alias: { [`${keep.alias}$`]: `${keep.original}?original` } } }),
        plugins: [replace, check],
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
