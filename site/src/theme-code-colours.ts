import { themes, type PrismTheme } from 'prism-react-renderer';

/** `theme` with some token colours replaced (old colour → new), every other style kept. */
function recolour(theme: PrismTheme, colours: Record<string, string>): PrismTheme {
  return {
    ...theme,
    styles: theme.styles.map((entry) => {
      const colour = entry.style.color;
      return colour && colours[colour] ? { ...entry, style: { ...entry.style, color: colours[colour] } } : entry;
    }),
  };
}

/**
 * Prism's GitHub and Dracula themes with the token colours that fall short of 4.5:1 on
 * their own code background (WCAG 1.4.3, Lighthouse `color-contrast`) made darker (light)
 * or lighter (dark), keeping each hue. GitHub's grey, pink, teal, light blue and red were
 * 2.6 to 4.3:1 on #f6f8fa; Dracula's comments 3.0:1 on #282a36.
 */
export const lightCodeTheme = recolour(themes.github, {
  '#999988': '#6a6a5a',
  '#e3116c': '#c20f5c',
  '#36acaa': '#1a7775',
  '#00a4db': '#006d9c',
  '#d73a49': '#bf2d3c',
});

/**
 * Dracula's token colours on the portal's dark surface (#141821) instead of Dracula's
 * purple-grey, so code blocks sit in the page rather than on it; every token gains
 * contrast from the darker background.
 */
export const darkCodeTheme = recolour(
  { ...themes.dracula, plain: { ...themes.dracula.plain, backgroundColor: '#141821' } },
  { 'rgb(98, 114, 164)': '#8b9bd0' },
);

/** The style a token type ends up with in a theme (later entries win, as in prism-react-renderer). */
type TokenStyle = { color: string; fontStyle: string; opacity: string };

export interface CodeColours {
  background: string;
  plain: string;
  tokens: ReadonlyMap<string, TokenStyle>;
}

/** Every token type either theme styles, in a stable order. */
const TOKEN_TYPES = [
  ...new Set([lightCodeTheme, darkCodeTheme].flatMap((theme) => theme.styles.flatMap((s) => s.types))),
].sort();

function coloursOf(theme: PrismTheme): CodeColours {
  const plain = String(theme.plain.color);
  const tokens = new Map<string, TokenStyle>();
  for (const type of TOKEN_TYPES) {
    const style: TokenStyle = { color: plain, fontStyle: 'normal', opacity: '1' };
    for (const entry of theme.styles) {
      if (!entry.types.includes(type)) continue;
      if (entry.style.color) style.color = String(entry.style.color);
      if (entry.style.fontStyle) style.fontStyle = String(entry.style.fontStyle);
      if (entry.style.opacity !== undefined) style.opacity = String(entry.style.opacity);
    }
    tokens.set(type, style);
  }
  return { background: String(theme.plain.backgroundColor), plain, tokens };
}

/** What code looks like in each colour mode, resolved per token type. */
export const codeColourModes = { light: coloursOf(lightCodeTheme), dark: coloursOf(darkCodeTheme) } as const;

const slug = (type: string): string => type.replace(/[^a-z0-9]+/gi, '-');

/** Whether a token type is drawn in italics, or faded, in either mode (most are neither). */
const usesFontStyle = (type: string): boolean =>
  Object.values(codeColourModes).some((mode) => mode.tokens.get(type)?.fontStyle !== 'normal');
const usesOpacity = (type: string): boolean =>
  Object.values(codeColourModes).some((mode) => mode.tokens.get(type)?.opacity !== '1');

/**
 * The one Prism theme of the site, for both colour modes: every colour is a CSS variable
 * that each mode sets (codeColourCss). The server renders a code block exactly as the
 * browser would in either mode, so a code block hydrates as it is instead of being
 * rendered again after hydration to change its inline colours (src/theme/CodeBlock).
 */
export const codeTheme: PrismTheme = {
  plain: { color: 'var(--portal-code-plain)', backgroundColor: 'var(--portal-code-background)' },
  styles: TOKEN_TYPES.map((type) => ({
    types: [type],
    style: {
      color: `var(--portal-code-${slug(type)})`,
      ...(usesFontStyle(type) && { fontStyle: `var(--portal-code-${slug(type)}-style)` as 'normal' }),
      ...(usesOpacity(type) && { opacity: `var(--portal-code-${slug(type)}-opacity)` as unknown as number }),
    },
  })),
};

function variables(colours: CodeColours): string {
  const lines = [`--portal-code-background:${colours.background};`, `--portal-code-plain:${colours.plain};`];
  for (const [type, style] of colours.tokens) {
    lines.push(`--portal-code-${slug(type)}:${style.color};`);
    if (usesFontStyle(type)) lines.push(`--portal-code-${slug(type)}-style:${style.fontStyle};`);
    if (usesOpacity(type)) lines.push(`--portal-code-${slug(type)}-opacity:${style.opacity};`);
  }
  return lines.join('');
}

/** The variables codeTheme reads, for the light mode and the dark one. */
export function codeColourCss(): string {
  return `:root{${variables(codeColourModes.light)}}[data-theme='dark']{${variables(codeColourModes.dark)}}`;
}
