import { describe, expect, it } from 'vitest';

import { isPublicRoute, loginUrlFor, normalizeRoute, safeNextPath } from './index.js';

describe('isPublicRoute', () => {
  it.each([
    '/',
    '',
    '/login',
    '/LOGIN/',
    '/docs',
    '/docs/',
    '/Docs',
    '/docs/Norigin-Spatial-Navigation',
    '/docs/Norigin-Spatial-Navigation/',
    '/docs/norigin-spatial-navigation/CHANGELOG',
    '/DOCS/NORIGIN-SPATIAL-NAVIGATION/contributing/',
    '/docs/Norigin-Spatial-Navigation/deep/nested/page',
    '/docs/Norigin%2DSpatial%2DNavigation/',
  ])('%s is public', (path) => {
    expect(isPublicRoute(path || '/')).toBe(true);
  });

  it.each([
    // siblings that merely start like the open section
    '/docs/Norigin-Spatial-Navigation-internal',
    '/docs/Norigin-Spatial-NavigationX/',
    '/docs/Norigin-Spatial-Navigation.md',
    // everything else is private by default
    '/docs/layout-engine/',
    '/docs/player-manager-mono/packages/player-adapter-dash.js',
    '/docs/Spat-Nav/Detailed_README_SpatNav',
    '/docs/category/player-framework',
    '/blog',
    '/blog/rss.xml',
    '/markdown-page',
    '/login/extra',
    '/loginx',
    '/docsx',
    '/assets/js/main.js',
    // tricks that must not reach the open section or climb out of it
    '/docs/Norigin-Spatial-Navigation/../layout-engine',
    '/docs/Norigin-Spatial-Navigation/%2e%2e/layout-engine',
    '/docs/Norigin-Spatial-Navigation/./',
    '/docs//Norigin-Spatial-Navigation',
    '//docs/Norigin-Spatial-Navigation',
    '/docs/Norigin-Spatial-Navigation%2f..%2flayout-engine',
    '/docs/Norigin-Spatial-Navigation\\..\\layout-engine',
    '/docs/Norigin-Spatial-Navigation/%00',
    '/docs/Norigin-Spatial-Navigation/%E0%A4%A',
    'docs/Norigin-Spatial-Navigation',
    '/docs%2fNorigin-Spatial-Navigation%2f..%2f..%2fblog',
  ])('%s is private', (path) => {
    expect(isPublicRoute(path)).toBe(false);
  });
});

describe('normalizeRoute', () => {
  it('ignores case and trailing slashes', () => {
    expect(normalizeRoute('/DOCS/Layout-Engine/')).toBe('/docs/layout-engine');
    expect(normalizeRoute('/docs/player-manager-mono/packages/player-adapter-dash.js')).toBe(
      '/docs/player-manager-mono/packages/player-adapter-dash.js',
    );
    expect(normalizeRoute('///')).toBe('/');
  });

  it('decodes percent-encoding once', () => {
    expect(normalizeRoute('/docs/%4cayout-engine')).toBe('/docs/layout-engine');
    expect(normalizeRoute('/docs/%252e%252e')).toBe('/docs/%2e%2e');
  });

  it.each(['/a/../b', '/a/./b', '/a//b', '/a\\b', '/a%00', '/%ZZ', 'relative', '/a/%2e%2e/b'])('refuses %s', (path) => {
    expect(normalizeRoute(path)).toBeNull();
  });
});

describe('safeNextPath', () => {
  it.each([
    ['/docs/layout-engine/', '/docs/layout-engine/'],
    ['/docs/layout-engine/?tab=tizen#install', '/docs/layout-engine/?tab=tizen#install'],
    ['/blog', '/blog'],
    ['/', '/'],
  ])('keeps the same-origin path %s', (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });

  it.each([
    undefined,
    null,
    42,
    '',
    'docs/layout-engine',
    'https://evil.example/',
    'http://evil.example',
    '//evil.example',
    '//evil.example/docs',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    ' /docs',
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    'https:evil.example',
    '/docs\u0000',
    'x'.repeat(3000),
  ])('sends %j to /', (next) => {
    expect(safeNextPath(next)).toBe('/');
  });
});

describe('loginUrlFor', () => {
  it('carries the wanted page in next', () => {
    expect(loginUrlFor('/docs/layout-engine/?a=1')).toBe('/login?next=%2Fdocs%2Flayout-engine%2F%3Fa%3D1');
  });

  it('drops a next that would leave the site', () => {
    expect(loginUrlFor('//evil.example')).toBe('/login');
  });
});
