import { describe, expect, it } from 'vitest';

import { markdownUrl } from '../../../../server/src/manifest/markdown-urls';
import { markdownUrlOf } from './markdown-url';

describe('the Markdown address of a page', () => {
  it.each([
    ['/docs/layout-engine/', '/docs/layout-engine.md'],
    [
      '/docs/player-manager-mono/packages/player-adapter-dash.js/',
      '/docs/player-manager-mono/packages/player-adapter-dash.js.md',
    ],
    ['/docs/Norigin-Spatial-Navigation', '/docs/Norigin-Spatial-Navigation.md'],
    ['/docs/', '/docs.md'],
    ['/', '/index.md'],
  ])('is %s → %s, as the gate serves it', (permalink, expected) => {
    expect(markdownUrlOf(permalink)).toBe(expected);
    expect(markdownUrl(permalink)).toBe(expected);
  });
});
