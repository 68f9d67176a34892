import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from '@docusaurus/types';

import { moduleReplacement } from './replace-module';

/**
 * Puts src/startup/client-entry.ts in the place of Docusaurus's client entry, so a page
 * starts in a few short tasks instead of one long one (that file says why, and what it
 * cost). A plugin because the entry is set inside Docusaurus's bundler config, which no
 * swizzle reaches; the original still runs, unchanged, as the replacement's last step.
 */
export default function stagedStartup(context: { siteDir: string }): Plugin {
  const core = createRequire(join(context.siteDir, 'package.json')).resolve('@docusaurus/core/package.json');
  return moduleReplacement(
    {
      name: 'staged-startup',
      pattern: /@docusaurus[\\/]core[\\/]lib[\\/]client[\\/]clientEntry\.js$/,
      keep: {
        original: join(dirname(core), 'lib', 'client', 'clientEntry.js'),
        alias: '@portal/docusaurus-client-entry',
      },
      replacement: join(context.siteDir, 'src', 'startup', 'client-entry.ts'),
      clientOnly: true,
    },
    context.siteDir,
  );
}
