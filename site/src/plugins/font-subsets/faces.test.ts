import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { LoadContext } from '@docusaurus/types';

import { describe, expect, it } from 'vitest';

import fontSubsets from '.';
import {
  CORE_TEXT,
  fontFaceCss,
  FONTS,
  formatUnicodeRange,
  parseUnicodeRange,
  splitLatinRange,
  subtractRanges,
} from './faces';

const siteDir = join(import.meta.dirname, '..', '..', '..');
const require = createRequire(join(siteDir, 'package.json'));
const latinOf = (pkg: string) => (require(`${pkg}/unicode.json`) as { latin: string }).latin;

/** Every code point of a unicode-range value. */
function codePoints(range: string): Set<number> {
  const out = new Set<number>();
  for (const [from, to] of parseUnicodeRange(range)) for (let code = from; code <= to; code++) out.add(code);
  return out;
}

describe('unicode ranges', () => {
  it('parses, merges and prints ranges', () => {
    expect(parseUnicodeRange('U+0041-005A, U+0030-0039,U+005B,U+0131')).toEqual([
      [0x30, 0x39],
      [0x41, 0x5b],
      [0x131, 0x131],
    ]);
    expect(
      formatUnicodeRange([
        [0x20, 0x7e],
        [0x2013, 0x2013],
      ]),
    ).toBe('U+0020-007E, U+2013');
    expect(() => parseUnicodeRange('U+00ZZ')).toThrow(/unicode-range/);
  });

  it('subtracts ranges', () => {
    expect(
      subtractRanges(
        [[0, 100]],
        [
          [10, 19],
          [50, 50],
          [90, 200],
        ],
      ),
    ).toEqual([
      [0, 9],
      [20, 49],
      [51, 89],
    ]);
  });

  it("splits each package's Latin range into core and rest with nothing lost, added or shared", () => {
    for (const font of FONTS) {
      const latin = latinOf(font.npmPackage);
      const { core, rest } = splitLatinRange(latin);
      const all = codePoints(latin);
      const coreSet = codePoints(core);
      const restSet = codePoints(rest);
      expect([...coreSet].filter((code) => restSet.has(code))).toEqual([]);
      expect(new Set([...coreSet, ...restSet])).toEqual(all);
      // ASCII, and the zero-width space in every heading anchor, never need the larger file.
      for (let code = 0x20; code < 0x7f; code++) expect(coreSet.has(code)).toBe(true);
      expect(coreSet.has(0x200b)).toBe(true);
      // The core holds only characters the npm file had: nothing changes typeface.
      for (const char of CORE_TEXT) {
        const code = char.codePointAt(0) ?? 0;
        expect(coreSet.has(code)).toBe(all.has(code));
      }
    }
  });

  it('writes two swap faces per family over the same weights', () => {
    const css = fontFaceCss(Object.fromEntries(FONTS.map((font) => [font.family, latinOf(font.npmPackage)])));
    expect(css.match(/@font-face/g)).toHaveLength(4);
    expect(css.match(/font-display: swap;/g)).toHaveLength(4);
    expect(css.match(/font-weight: 400 700;/g)).toHaveLength(4);
    expect(css).toContain("src: url('./inter-core.woff2')");
    expect(css).toContain("src: url('~@fontsource-variable/inter/files/inter-latin-wght-normal.woff2')");
  });
});

describe('the font-subsets plugin', () => {
  it('writes core files much smaller than the npm files, and their stylesheet', async () => {
    const generatedFilesDir = await mkdtemp(join(tmpdir(), 'font-subsets-'));
    try {
      const plugin = fontSubsets({ siteDir, generatedFilesDir } as LoadContext);
      await plugin.loadContent?.();
      for (const font of FONTS) {
        const core = (await stat(join(generatedFilesDir, 'font-subsets', font.coreFile))).size;
        const npm = (await stat(require.resolve(`${font.npmPackage}/files/${font.latinFile}`))).size;
        expect(core).toBeGreaterThan(10_000);
        expect(core).toBeLessThan(npm * 0.7);
      }
      const css = await readFile(join(generatedFilesDir, 'font-subsets', 'faces.css'), 'utf8');
      expect(css).toContain("font-family: 'JetBrains Mono Variable';");
      expect(plugin.getClientModules?.()).toEqual([join(generatedFilesDir, 'font-subsets', 'faces.css')]);
    } finally {
      await rm(generatedFilesDir, { recursive: true, force: true });
    }
  });

  it('keeps each core file in the cache and cuts it only when nothing there was made from the same inputs', async () => {
    // A site of its own, so its node_modules/.cache is this test's: the packages are links to the real ones.
    const scratch = await mkdtemp(join(tmpdir(), 'font-cache-'));
    try {
      await writeFile(join(scratch, 'package.json'), '{}');
      for (const name of [...FONTS.map((font) => font.npmPackage), 'subset-font']) {
        await mkdir(dirname(join(scratch, 'node_modules', name)), { recursive: true });
        await symlink(dirname(require.resolve(`${name}/package.json`)), join(scratch, 'node_modules', name));
      }
      const run = async (name: string): Promise<Buffer[]> => {
        const generatedFilesDir = join(scratch, name);
        await fontSubsets({ siteDir: scratch, generatedFilesDir } as LoadContext).loadContent?.();
        return Promise.all(FONTS.map((font) => readFile(join(generatedFilesDir, 'font-subsets', font.coreFile))));
      };
      const cacheDir = join(scratch, 'node_modules', '.cache', 'portal-fonts');
      const first = await run('first');
      const kept = (await readdir(cacheDir)).sort();
      expect(kept).toHaveLength(FONTS.length);
      expect(kept.every((name) => /^[0-9a-f]{64}\.woff2$/.test(name))).toBe(true);
      // A second build takes the kept files, byte for byte.
      const second = await run('second');
      second.forEach((core, index) => expect(core.equals(first[index] as Buffer)).toBe(true));
      // What it takes is the cache's file, not a new cut: changed there, the build writes the change.
      const keptBytes = await Promise.all(kept.map((name) => readFile(join(cacheDir, name))));
      const marked = Buffer.concat([keptBytes[0] as Buffer, Buffer.from('kept')]);
      await writeFile(join(cacheDir, kept[0] as string), marked);
      const third = await run('third');
      expect(third.some((core) => core.equals(marked))).toBe(true);
      // A file under no key of today's inputs is never read, and an emptied cache is cut again.
      await rm(cacheDir, { recursive: true });
      const fourth = await run('fourth');
      fourth.forEach((core, index) => expect(core.equals(first[index] as Buffer)).toBe(true));
      expect((await readdir(cacheDir)).sort()).toEqual(kept);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
});
