import { describe, expect, it } from 'vitest';

import { codeColourCss, codeColourModes, codeTheme } from '../src/theme-code-colours';

function channels(colour: string): [number, number, number] {
  const hex = /^#([0-9a-f]{6})$/i.exec(colour);
  if (hex) {
    const value = parseInt(hex[1] as string, 16);
    return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
  }
  const rgb = /^rgb\((\d+), ?(\d+), ?(\d+)\)$/.exec(colour);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  throw new Error(`unreadable colour ${colour}`);
}

/** WCAG 2 contrast ratio of two sRGB colours. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string): number => {
    const [r, g, b] = channels(colour).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe('code block colours', () => {
  for (const [name, mode] of [
    ['light (GitHub)', codeColourModes.light],
    ['dark (Dracula)', codeColourModes.dark],
  ] as const) {
    it(`${name}: every token colour has at least 4.5:1 contrast on the code background`, () => {
      const colours = [mode.plain, ...[...mode.tokens.values()].map((style) => style.color)];
      expect(mode.tokens.size).toBeGreaterThan(5);
      for (const colour of colours) {
        expect(contrast(colour, mode.background), `${colour} on ${mode.background}`).toBeGreaterThanOrEqual(4.5);
      }
    });
  }

  it('gives light code a pale background and dark code a deep one', () => {
    expect(Math.min(...channels(codeColourModes.light.background))).toBeGreaterThan(200);
    expect(Math.max(...channels(codeColourModes.dark.background))).toBeLessThan(80);
  });

  it('has one Prism theme whose every colour is a variable both modes set', () => {
    const css = codeColourCss();
    const [light = '', dark = ''] = css.split("[data-theme='dark']");
    const referenced = [codeTheme.plain, ...codeTheme.styles.map((entry) => entry.style)]
      .flatMap((style) => Object.values(style))
      .map((value) => /^var\((--[\w-]+)\)$/.exec(String(value))?.[1]);
    expect(referenced.length).toBeGreaterThan(10);
    for (const name of referenced) {
      expect(name, 'a theme value that is not a variable').toBeDefined();
      expect(light).toContain(`${name}:`);
      expect(dark).toContain(`${name}:`);
    }
  });

  it('keeps the adjusted colours: GitHub strings and Dracula comments', () => {
    expect(codeColourModes.light.tokens.get('string')?.color).toBe('#c20f5c');
    expect(codeColourModes.dark.tokens.get('comment')?.color).toBe('#8b9bd0');
    expect(codeColourModes.dark.tokens.get('keyword')?.fontStyle).toBe('italic');
  });
});
