/** One self-hosted variable font: its npm package, the Latin file in it, and the core file made from that. */
export interface SelfHostedFont {
  family: string;
  npmPackage: string;
  latinFile: string;
  coreFile: string;
}

export const FONTS: readonly SelfHostedFont[] = [
  {
    family: 'Inter Variable',
    npmPackage: '@fontsource-variable/inter',
    latinFile: 'inter-latin-wght-normal.woff2',
    coreFile: 'inter-core.woff2',
  },
  {
    family: 'JetBrains Mono Variable',
    npmPackage: '@fontsource-variable/jetbrains-mono',
    latinFile: 'jetbrains-mono-latin-wght-normal.woff2',
    coreFile: 'jetbrains-mono-core.woff2',
  },
];

/**
 * The weights the design sets text in (400 body, 500 to 650 UI and headings, 700 for h1
 * and bold): the core files keep only this stretch of the variable weight axis.
 */
export const WEIGHTS = { min: 400, max: 700 } as const;

/**
 * The characters in the core files: ASCII (control characters included, so that no page
 * ever needs the other face for them) and the marks the portal's prose, code and interface
 * use, among them the zero-width space Docusaurus puts in every heading's anchor link.
 * Anything else in the npm file's Latin range comes from that file, when a page needs it.
 */
export const CORE_TEXT =
  Array.from({ length: 0x7f }, (_, code) => String.fromCodePoint(code)).join('') +
  '\u00a0©«±·»×ÉäåæéöøüèçñßÄÖÜ–—‘’“”•…‹›\u200b\u200c\u200d\u2060\ufeff';

export type CodeRange = readonly [from: number, to: number];

/** `U+0000-00FF,U+0131` → sorted, merged ranges of code points. */
export function parseUnicodeRange(text: string): CodeRange[] {
  const ranges = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part): CodeRange => {
      const match = /^U\+([0-9A-F]+)(?:-([0-9A-F]+))?$/i.exec(part);
      if (!match?.[1]) throw new Error(`Not a unicode-range part: "${part}"`);
      const from = parseInt(match[1], 16);
      return [from, match[2] ? parseInt(match[2], 16) : from];
    });
  return mergeRanges(ranges);
}

function mergeRanges(ranges: CodeRange[]): CodeRange[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged.at(-1);
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** Ranges of the given code points. */
export function rangesOf(codePoints: Iterable<number>): CodeRange[] {
  return mergeRanges([...codePoints].map((code): CodeRange => [code, code]));
}

/** The code points of `ranges` that are not in `minus`. */
export function subtractRanges(ranges: readonly CodeRange[], minus: readonly CodeRange[]): CodeRange[] {
  const out: CodeRange[] = [];
  for (const [from, to] of ranges) {
    let start = from;
    for (const [cutFrom, cutTo] of minus) {
      if (cutTo < start || cutFrom > to) continue;
      if (cutFrom > start) out.push([start, cutFrom - 1]);
      start = Math.max(start, cutTo + 1);
      if (start > to) break;
    }
    if (start <= to) out.push([start, to]);
  }
  return out;
}

/** The code points of both lists. */
export function intersectRanges(a: readonly CodeRange[], b: readonly CodeRange[]): CodeRange[] {
  const out: CodeRange[] = [];
  for (const [aFrom, aTo] of a) {
    for (const [bFrom, bTo] of b) {
      const from = Math.max(aFrom, bFrom);
      const to = Math.min(aTo, bTo);
      if (from <= to) out.push([from, to]);
    }
  }
  return mergeRanges(out);
}

/** Ranges as a CSS `unicode-range` value. */
export function formatUnicodeRange(ranges: readonly CodeRange[]): string {
  const hex = (code: number) => code.toString(16).toUpperCase().padStart(4, '0');
  return ranges.map(([from, to]) => (from === to ? `U+${hex(from)}` : `U+${hex(from)}-${hex(to)}`)).join(', ');
}

/**
 * The split of one font's Latin range: the core file serves the core characters the npm
 * file has (no character moves to the typeface that it was not set in before), the npm
 * file the rest of its range.
 */
export function splitLatinRange(latinRange: string): { core: string; rest: string } {
  const latin = parseUnicodeRange(latinRange);
  const coreText = rangesOf(Array.from(CORE_TEXT, (char) => char.codePointAt(0) ?? 0));
  const core = intersectRanges(latin, coreText);
  return { core: formatUnicodeRange(core), rest: formatUnicodeRange(subtractRanges(latin, core)) };
}

/**
 * The `@font-face` rules of both fonts, for a stylesheet beside the core files:
 * `latinRanges` maps each family to its npm package's Latin `unicode-range`. `swap`: the
 * text is shown at once, in the metric-matched fallback (src/css/custom.css) if the font is
 * not there yet, so its arrival moves nothing.
 */
export function fontFaceCss(latinRanges: Readonly<Record<string, string>>): string {
  const face = (font: SelfHostedFont, url: string, range: string) =>
    [
      '@font-face {',
      `  font-family: '${font.family}';`,
      '  font-style: normal;',
      '  font-display: swap;',
      `  font-weight: ${WEIGHTS.min} ${WEIGHTS.max};`,
      `  src: url('${url}') format('woff2-variations');`,
      `  unicode-range: ${range};`,
      '}',
    ].join('\n');
  return (
    FONTS.flatMap((font) => {
      const latin = latinRanges[font.family];
      if (!latin) throw new Error(`No Latin unicode-range for ${font.family}`);
      const { core, rest } = splitLatinRange(latin);
      return [face(font, `./${font.coreFile}`, core), face(font, `~${font.npmPackage}/files/${font.latinFile}`, rest)];
    }).join('\n\n') + '\n'
  );
}
