import { describe, expect, it } from 'vitest';

import { routeKey } from './route-key.js';

describe('routeKey', () => {
  it.each([
    ['/', '/'],
    ['/docs/', '/docs'],
    ['/docs', '/docs'],
    ['/DOCS/Layout-Engine', '/docs/layout-engine'],
    ['/docs/layout-engine/', '/docs/layout-engine'],
    [
      '/docs/player-manager-mono/packages/player-adapter-dash.js/',
      '/docs/player-manager-mono/packages/player-adapter-dash.js',
    ],
    ['/docs/Norigin-Spatial-Navigation/CHANGELOG', '/docs/norigin-spatial-navigation/changelog'],
    ['/blog/welcome//', '/blog/welcome'],
    ['/docs/%4Cayout-engine', '/docs/layout-engine'],
  ])('treats %s as %s', (path, key) => {
    expect(routeKey(path)).toBe(key);
  });

  it.each([
    ['bad percent-encoding', '/docs/%E0%A4%A'],
    ['a NUL byte', '/docs/%00'],
    ['a backslash', '/docs\\layout-engine'],
    ['an encoded backslash', '/docs/%5c..%5csecret'],
    ['a dot-dot segment', '/docs/../404.html'],
    ['an encoded dot-dot segment', '/docs/%2e%2e/404.html'],
    ['a dot segment', '/docs/./layout-engine'],
    ['a relative path', 'docs/layout-engine'],
  ])('rejects %s', (_, path) => {
    expect(routeKey(path)).toBeNull();
  });
});
