import { describe, expect, it } from 'vitest';

import { nearestTrail, type TrailItem } from './nearest-trail';

const sidebar: TrailItem[] = [
  { type: 'link', label: 'Getting Started', href: '/docs/' },
  {
    type: 'category',
    label: 'Navigation and Layout',
    href: '/docs/category/navigation-and-layout',
    items: [
      {
        type: 'category',
        label: 'Norigin Spatial Navigation',
        href: '/docs/Norigin-Spatial-Navigation/',
        items: [
          { type: 'link', label: 'Guide (3.x)', href: '/docs/Norigin-Spatial-Navigation/guide' },
          { type: 'link', label: 'API reference', href: '/docs/Norigin-Spatial-Navigation/api' },
          { type: 'html', label: 'divider' },
        ],
      },
    ],
  },
];

describe('nearestTrail', () => {
  it('leads a symbol page the sidebar does not list to its package’s API reference', () => {
    expect(nearestTrail(sidebar, '/docs/Norigin-Spatial-Navigation/api/useFocusable')).toEqual([
      { label: 'Navigation and Layout', href: '/docs/category/navigation-and-layout' },
      { label: 'Norigin Spatial Navigation', href: '/docs/Norigin-Spatial-Navigation/' },
      { label: 'API reference', href: '/docs/Norigin-Spatial-Navigation/api' },
    ]);
  });

  it('matches whole folders, in any case and with a trailing slash, never a page by a longer name', () => {
    expect(nearestTrail(sidebar, '/docs/norigin-spatial-navigation/API/Direction/')?.at(-1)?.label).toBe(
      'API reference',
    );
    // "/api-changes" is no page under "/api": its nearest entry is the package.
    expect(nearestTrail(sidebar, '/docs/Norigin-Spatial-Navigation/api-changes')?.at(-1)?.label).toBe(
      'Norigin Spatial Navigation',
    );
  });

  it('is null for a page no entry is above, and for the entry’s own page', () => {
    expect(nearestTrail(sidebar, '/blog/some-post')).toBeNull();
    expect(nearestTrail(sidebar.slice(1), '/docs/category/navigation-and-layout')).toBeNull();
  });
});
