import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from '@docusaurus/types';

// theme-common's own file, as its modules import it (relatively, so only the resolved path names it).
const REACT_UTILS = /@docusaurus[\\/]theme-common[\\/]lib[\\/]utils[\\/]reactUtils\.js$/;

interface ResolveData {
  createData?: { resource?: string };
}

/**
 * Puts src/startup/shallow-memo.ts in the place of Docusaurus theme-common's `reactUtils`,
 * so no page builds the browser's collator while it starts (that file says why, and what
 * it cost). A plugin because the hook is used inside theme-common, which neither a
 * swizzle nor an alias of a package path reaches. The replacement imports the original
 * under a name of its own, which is left alone.
 */
export default function noCollatorAtStartup(context: { siteDir: string }): Plugin {
  const replacement = join(context.siteDir, 'src', 'startup', 'shallow-memo.ts');
  const themeCommon = createRequire(join(context.siteDir, 'package.json')).resolve('@docusaurus/theme-common');
  const original = join(dirname(themeCommon), 'utils', 'reactUtils.js');
  return {
    name: 'no-collator-at-startup',
    configureWebpack(_config, _isServer, { currentBundler }) {
      const replace = new currentBundler.instance.NormalModuleReplacementPlugin(REACT_UTILS, (data: ResolveData) => {
        if (data.createData?.resource !== undefined) data.createData.resource = replacement;
      });
      // The query keeps the original's own path out of REACT_UTILS, so it is not replaced by itself.
      return {
        resolve: { alias: { '@portal/theme-common-react-utils$': `${original}?original` } },
        plugins: [replace],
      };
    },
  };
}
