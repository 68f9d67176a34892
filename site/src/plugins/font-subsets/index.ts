import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import subsetFont from 'subset-font';

import { CORE_TEXT, fontFaceCss, FONTS, WEIGHTS } from './faces';

/** Where the subsets and their CSS are written, inside Docusaurus's generated files (`@generated/font-subsets`). */
export const OUT_DIR = 'font-subsets';

/**
 * The two self-hosted typefaces, cut down to what the pages set in them, at build time.
 *
 * Each font's Latin file from npm (@fontsource-variable) becomes two faces of the same
 * family: a small "core" file with the characters the site's text uses (ASCII and the
 * typographic marks of src/plugins/font-subsets/faces.ts) over the weights the design uses
 * (400 to 700), and the untouched npm file for every other Latin character. The browser
 * downloads a face only when a page holds a character in its `unicode-range`, so a page
 * loads the core files only (about half the bytes), and a rarer character (an umlaut in a
 * code sample, say) still renders in the typeface. The faces' CSS goes into the site's
 * stylesheet as a client module; src/theme/Root.tsx preloads the body font's core file.
 *
 * A plugin because the files are made from the npm packages at build time (nothing built
 * is checked in) and the stylesheet and Root must name the very files it wrote. A core file
 * is kept in the site's node_modules/.cache under the hash of what makes it (the npm file,
 * the characters, the weights, subset-font's version), so only a cold build cuts it again.
 */
export default function fontSubsets(context: LoadContext): Plugin {
  const outDir = join(context.generatedFilesDir, OUT_DIR);
  const cacheDir = join(context.siteDir, 'node_modules', '.cache', 'portal-fonts');
  const require = createRequire(join(context.siteDir, 'package.json'));
  const subsetVersion = (
    JSON.parse(readFileSync(require.resolve('subset-font/package.json'), 'utf8')) as { version: string }
  ).version;
  /** The core file of a font: from the cache when the same inputs made one before, else cut now and kept. */
  const coreOf = async (source: Buffer): Promise<Buffer> => {
    const key = createHash('sha256')
      .update(source)
      .update(JSON.stringify([CORE_TEXT, WEIGHTS, subsetVersion]))
      .digest('hex');
    const kept = join(cacheDir, `${key}.woff2`);
    try {
      return await readFile(kept);
    } catch {
      const core = await subsetFont(source, CORE_TEXT, { targetFormat: 'woff2', variationAxes: { wght: WEIGHTS } });
      await mkdir(cacheDir, { recursive: true });
      // Whole or not at all: a build stopped mid-write leaves no half file under the key.
      await writeFile(`${kept}.${process.pid}`, core);
      await rename(`${kept}.${process.pid}`, kept);
      return core;
    }
  };
  return {
    name: 'font-subsets',
    async loadContent() {
      await mkdir(outDir, { recursive: true });
      await Promise.all(
        FONTS.map(async (font) => {
          const source = await readFile(require.resolve(`${font.npmPackage}/files/${font.latinFile}`));
          await writeFile(join(outDir, font.coreFile), await coreOf(source));
        }),
      );
      // Each package's own Latin range (the one its CSS gives that file).
      const latinRanges = Object.fromEntries(
        await Promise.all(
          FONTS.map(async (font) => {
            const ranges = JSON.parse(await readFile(require.resolve(`${font.npmPackage}/unicode.json`), 'utf8')) as {
              latin?: string;
            };
            return [font.family, ranges.latin ?? ''] as const;
          }),
        ),
      );
      await writeFile(join(outDir, 'faces.css'), fontFaceCss(latinRanges));
    },
    getClientModules() {
      return [join(outDir, 'faces.css')];
    },
  };
}
