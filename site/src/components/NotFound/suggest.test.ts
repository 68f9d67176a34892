import { describe, expect, it } from 'vitest';

import { nearestPath, searchWordsOf } from './suggest';

describe('searchWordsOf', () => {
  it('turns the end of a path into words to search for', () => {
    expect(searchWordsOf('/docs/no-such-package/')).toBe('no such package');
    expect(searchWordsOf('/docs/player-manager-mono/packages/playerAdapterDash.js')).toBe(
      'packages player adapter dash js',
    );
    expect(searchWordsOf('/no/such/page')).toBe('such page');
    expect(searchWordsOf('/%E0%A4%A')).toBe('%e0%a4%a');
    expect(searchWordsOf('/')).toBe('');
  });
});

describe('nearestPath', () => {
  const paths = ['/', '/docs/', '/docs/layout-engine/', '/docs/layout-engine/CHANGELOG', '/blog', '/blog/welcome'];

  it('finds the page a typing mistake or two away', () => {
    expect(nearestPath('/docs/layout-engin', paths)).toBe('/docs/layout-engine/');
    expect(nearestPath('/docs/layuot-engine/changelog', paths)).toBe('/docs/layout-engine/CHANGELOG');
    expect(nearestPath('/blog/welcom', paths)).toBe('/blog/welcome');
  });

  it('offers nothing when no page is close', () => {
    expect(nearestPath('/no/such/page', paths)).toBeNull();
    expect(nearestPath('/docs/no-such-package/', paths)).toBeNull();
    expect(nearestPath('/x', paths)).toBeNull();
  });
});
