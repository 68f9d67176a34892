import { PUBLIC } from '@portal/access';
import { describe, expect, it } from 'vitest';

import { lockedLinkData } from '../access/link-locks';
import { lockedLinks, lockedLinksReport, markedLinks, someReaderMisses } from './locked-links';

describe('the marks of a link in a page’s text', () => {
  it('name the units of a page not everyone reads, in the policy’s words', () => {
    expect(lockedLinkData('/docs/frontend-guidelines/ShakaFork#why')).toEqual({
      'data-units': 'internal',
      'data-locked-in':
        'Locked: this page is part of Internal: guidelines, training and client work, which you cannot read.',
      'data-locked-out': 'Sign in to read this page (part of Internal: guidelines, training and client work).',
    });
    expect(lockedLinkData('/docs/layout-engine/')['data-units']).toBe('layout');
  });

  it('leave public pages, other sites and paths that are no page alone', () => {
    expect(lockedLinkData('/docs/Norigin-Spatial-Navigation/GUIDE')).toEqual({});
    expect(lockedLinkData('https://example.com/docs/layout-engine/')).toEqual({});
    expect(lockedLinkData('#usage')).toEqual({});
    expect(lockedLinkData('/docs/x', () => null)).toEqual({});
  });
});

describe('the build’s list of locked links', () => {
  const page = (...links: string[]) => `<main>${links.join(' ')}<a href=/docs/open/>open</a></main>`;
  const readers = (path: string) =>
    path.startsWith('/docs/shaka') ? ['shaka'] : path.startsWith('/docs/open') ? PUBLIC : ['internal'];

  it('reads the marked links of minified and quoted HTML', () => {
    expect(
      markedLinks(
        '<a data-units=internal class="" href=/docs/g/Shaka#x>a</a><a href="/docs/y" data-units="a b">b</a><a href=/docs/open/>c</a>',
      ),
    ).toEqual([
      { to: '/docs/g/Shaka', needs: ['internal'] },
      { to: '/docs/y', needs: ['a', 'b'] },
    ]);
  });

  it('lists, per unit of the page, each link its readers may not follow, once', () => {
    const found = lockedLinks(
      [
        {
          route: '/docs/shaka/',
          html: page(
            '<a data-units=internal href=/docs/guides/fork>fork</a>',
            '<a data-units=internal href=/docs/guides/fork#again>again</a>',
            '<a data-units=shaka href=/docs/shaka/api>own</a>',
          ),
        },
        { route: '/docs/open/', html: page('<a data-units=shaka href=/docs/shaka/>shaka</a>') },
        { route: '/docs/guides/fork', html: page('<a data-units=internal href=/docs/guides/other>other</a>') },
      ],
      readers,
      (own, needs) => !needs.includes(own),
    );
    expect(Object.fromEntries(found)).toEqual({
      shaka: [{ from: '/docs/shaka/', to: '/docs/guides/fork', needs: ['internal'] }],
      public: [{ from: '/docs/open/', to: '/docs/shaka/', needs: ['shaka'] }],
    });
    expect(lockedLinksReport(found)).toEqual([
      'Locked links: 2 links lead some readers of their page to a page they may not read (shown locked to them):',
      '  readers of public: 1',
      '    /docs/open/ → /docs/shaka/ (needs shaka)',
      '  readers of shaka: 1',
      '    /docs/shaka/ → /docs/guides/fork (needs internal)',
    ]);
    expect(lockedLinksReport(new Map())).toEqual([
      'Locked links: no page links its readers to a page they may not read.',
    ]);
  });
});

describe('who of a page’s readers may miss a page it links to', () => {
  it('is anyone for a public page, and an organisation licensed for a package alone', () => {
    expect(someReaderMisses('public', ['layout'])).toBe(true);
    expect(someReaderMisses('player-adapter-shaka', ['internal'])).toBe(true);
    expect(someReaderMisses('player-adapter-shaka', ['player-adapter-shaka'])).toBe(false);
  });

  it('is nobody for the internal pages, which only groups that read everything read', () => {
    expect(someReaderMisses('internal', ['player-core'])).toBe(false);
  });
});
