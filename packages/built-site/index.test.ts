import { describe, expect, it } from 'vitest';

import { isOlderRelease, markdownUrl, pageOfMarkdown, pageRoute } from './index.js';

describe('the .md address of a page', () => {
  it.each([
    ['/docs/layout-engine/', '/docs/layout-engine.md'],
    ['/docs/frontend-guidelines/GitFlow', '/docs/frontend-guidelines/GitFlow.md'],
    [
      '/docs/player-manager-mono/packages/player-adapter-dash.js/',
      '/docs/player-manager-mono/packages/player-adapter-dash.js.md',
    ],
    ['/docs/', '/docs.md'],
    ['/', '/index.md'],
  ])('%s → %s', (page, md) => {
    expect(markdownUrl(page)).toBe(md);
    expect(pageOfMarkdown(md)).toBe(page.replace(/(.)\/$/, '$1'));
  });

  it('is no page for a file that is not Markdown', () => {
    expect(pageOfMarkdown('/docs/layout-engine/')).toBeNull();
  });
});

describe('the route of a page file', () => {
  it.each([
    ['/docs/layout-engine/index.html', '/docs/layout-engine/'],
    ['/index.html', '/'],
    ['/404.html', '/404'],
  ])('%s answers %s', (file, route) => {
    expect(pageRoute(file)).toBe(route);
  });
});

describe('a page of an older release of a synced package', () => {
  it.each([
    ['/docs/Norigin-Spatial-Navigation/2.3.0/', true],
    ['/docs/Norigin-Spatial-Navigation/2.3.0', true],
    ['Norigin-Spatial-Navigation/2.3.0/README', true],
    ['/docs/Norigin-Spatial-Navigation/', false],
    ['/docs/Norigin-Spatial-Navigation/CHANGELOG', false],
    ['/docs/player-manager-mono/packages/player-adapter-dash.js/', false],
    ['/blog/2025/09/16/release-4.2.0', false],
  ])('%s: %s', (path, older) => {
    expect(isOlderRelease(path)).toBe(older);
  });
});
