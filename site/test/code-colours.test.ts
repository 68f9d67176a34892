import { describe, expect, it } from 'vitest';

import { darkCodeTheme, lightCodeTheme } from '../src/theme-code-colours';

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
  for (const [name, theme] of [
    ['light (GitHub)', lightCodeTheme],
    ['dark (Dracula)', darkCodeTheme],
  ] as const) {
    it(`${name}: every token colour has at least 4.5:1 contrast on the code background`, () => {
      const background = theme.plain.backgroundColor as string;
      const colours = [theme.plain.color as string, ...theme.styles.map((entry) => entry.style.color)].filter(
        (colour): colour is string => typeof colour === 'string',
      );
      expect(colours.length).toBeGreaterThan(5);
      for (const colour of colours) {
        expect(contrast(colour, background), `${colour} on ${background}`).toBeGreaterThanOrEqual(4.5);
      }
    });
  }
});
