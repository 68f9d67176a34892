import type { Plugin } from '@docusaurus/types';

import { codeColourCss } from '../theme-code-colours';

/**
 * The code colours of both modes as CSS variables (src/theme-code-colours.ts), inline in
 * every page's head: the site's one Prism theme reads them, so the first paint already has
 * the right colours in either mode.
 */
export default function codeColours(): Plugin {
  return {
    name: 'code-colours',
    injectHtmlTags() {
      return { headTags: [{ tagName: 'style', innerHTML: codeColourCss() }] };
    },
  };
}
