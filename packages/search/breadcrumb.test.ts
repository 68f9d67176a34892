import { describe, expect, it } from 'vitest';

import { breadcrumbOf } from './breadcrumb.js';

describe('breadcrumbOf', () => {
  it('reads the breadcrumb the build wrote into the page’s metadata', () => {
    expect(
      breadcrumbOf('/docs/player-manager-mono/packages/player-adapter-shaka/?highlight=shaka', {
        title: 'player-adapter-shaka',
        trail: 'Player Framework › player-manager-mono',
      }),
    ).toEqual(['Player Framework', 'player-manager-mono']);
  });

  it('places a page without one by its URL: a blog post in the blog, a doc by its folders', () => {
    expect(breadcrumbOf('/blog/2025/05/01/release', { title: 'Release' })).toEqual(['Blog']);
    expect(breadcrumbOf('/docs/player-manager-mono/packages/player-core/', {})).toEqual(['player-manager-mono']);
    expect(breadcrumbOf('/docs/intro', {})).toEqual([]);
    expect(breadcrumbOf('/markdown-page', {})).toEqual([]);
  });
});
