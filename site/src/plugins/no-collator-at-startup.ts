import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from '@docusaurus/types';

import { moduleReplacement } from './replace-module';

/**
 * Puts src/startup/shallow-memo.ts in the place of Docusaurus theme-common's `reactUtils`,
 * so no page builds the browser's collator while it starts (that file says why, and what
 * it cost). A plugin because the hook is used inside theme-common, which imports the file
 * relatively: neither a swizzle nor an alias of a package path reaches it.
 */
export default function noCollatorAtStartup(context: { siteDir: string }): Plugin {
  const themeCommon = createRequire(join(context.siteDir, 'package.json')).resolve('@docusaurus/theme-common');
  return moduleReplacement(
    {
      name: 'no-collator-at-startup',
      pattern: /@docusaurus[\\/]theme-common[\\/]lib[\\/]utils[\\/]reactUtils\.js$/,
      keep: {
        original: join(dirname(themeCommon), 'utils', 'reactUtils.js'),
        alias: '@portal/theme-common-react-utils',
      },
      replacement: join(context.siteDir, 'src', 'startup', 'shallow-memo.ts'),
    },
    context.siteDir,
  );
}
