import { join } from 'node:path';

import type { LoadContext, Preset } from '@docusaurus/types';

import type { Options } from './options';

/**
 * The gate-files plugin alone, as a preset: presets' plugins come before the site's own,
 * and listed before the classic preset it comes first of all, so its postBuild can wait
 * for every other plugin's (after-other-plugins.ts).
 */
export default function gateFilesPreset(_context: LoadContext, options: Options): Preset {
  return { plugins: [[join(__dirname, 'index.ts'), options]] };
}
