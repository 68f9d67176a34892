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

export const darkCodeTheme = recolour(themes.dracula, { 'rgb(98, 114, 164)': '#8b9bd0' });
