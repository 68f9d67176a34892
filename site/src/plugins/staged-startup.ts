import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from '@docusaurus/types';

// Docusaurus core's client entry, the browser bundle's entry point.
const CLIENT_ENTRY = /@docusaurus[\\/]core[\\/]lib[\\/]client[\\/]clientEntry\.js$/;

interface ResolveData {
  createData?: { resource?: string };
}

/**
 * Puts src/startup/client-entry.ts in the place of Docusaurus's client entry, so a page
 * starts in a few short tasks instead of one long one (that file says why, and what it
 * cost). A plugin because the entry is set inside Docusaurus's bundler config, which no
 * swizzle reaches; the replacement imports the original under a name of its own (with a
 * query that keeps it out of CLIENT_ENTRY), so the original still runs, unchanged.
 * A production build that never met the entry (a Docusaurus that moved it) fails, rather
 * than quietly starting in one long task again.
 */
export default function stagedStartup(context: { siteDir: string }): Plugin {
  const replacement = join(context.siteDir, 'src', 'startup', 'client-entry.ts');
  const core = createRequire(join(context.siteDir, 'package.json')).resolve('@docusaurus/core/package.json');
  const original = join(dirname(core), 'lib', 'client', 'clientEntry.js');
  let replaced = false;
  return {
    name: 'staged-startup',
    configureWebpack(_config, isServer, { currentBundler }) {
      if (isServer) return {};
      const replace = new currentBundler.instance.NormalModuleReplacementPlugin(CLIENT_ENTRY, (data: ResolveData) => {
        if (data.createData?.resource === undefined) return;
        data.createData.resource = replacement;
        replaced = true;
      });
      return {
        resolve: { alias: { '@portal/docusaurus-client-entry$': `${original}?original` } },
        plugins: [replace],
      };
    },
    async postBuild() {
      if (!replaced) {
        throw new Error(
          `staged-startup: the client bundle has no module matching ${String(CLIENT_ENTRY)}, so ` +
            'src/startup/client-entry.ts did not replace it; find where this Docusaurus keeps its client entry.',
        );
      }
    },
  };
}
