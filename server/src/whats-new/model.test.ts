import { describe, expect, it } from 'vitest';

import type { ApiModels } from '@portal/built-site/api-reference';

import { identifiersIn, type ModelSymbol, type NewsInput, whatsNew } from './model.js';
import { newsAtom, newsMarkdown, releaseHtml, useNote } from './render.js';
import { NewsQueryError, parseSince } from './service.js';

const NOW = new Date('2026-12-01T12:00:00Z');
const DAY = 86_400_000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY);

const fn = (name: string, declaration: string): ModelSymbol => ({ name, slug: name, kind: 'function', declaration });

/** Navigation: 3.2.1 (a patch) changes setFocus and removes pause; 3.3.0 adds resume. */
const nav: ApiModels<ModelSymbol> = {
  id: 'nav',
  package: '@noriginmedia/norigin-spatial-navigation',
  title: 'Norigin Spatial Navigation',
  basePath: '/docs/nav/',
  latest: '3.3.0',
  versions: [
    {
      version: '3.3.0',
      date: ago(2).toISOString(),
      path: '/docs/nav/api/',
      symbols: [
        fn('setFocus', 'function setFocus(key: string, options: FocusOptions): void'),
        fn('resume', 'function resume(): void'),
        fn('init', 'function init(): void'),
      ],
    },
    {
      version: '3.2.1',
      date: ago(5).toISOString(),
      path: '/docs/nav/3.2.1/api/',
      symbols: [
        fn('setFocus', 'function setFocus(key: string, options: FocusOptions): void'),
        fn('init', 'function init(): void'),
      ],
    },
    {
      version: '3.2.0',
      date: ago(40).toISOString(),
      path: '/docs/nav/3.2.0/api/',
      symbols: [
        fn('setFocus', 'function setFocus(key: string): void'),
        fn('pause', 'function pause(): void'),
        fn('init', 'function init(): void'),
      ],
    },
  ],
};
const player: ApiModels<ModelSymbol> = {
  id: 'player',
  package: '@noriginmedia/player',
  title: 'Player',
  basePath: '/docs/player/',
  latest: '2.0.0',
  versions: [
    {
      version: '2.0.0',
      date: ago(1).toISOString(),
      path: '/docs/player/api/',
      symbols: [fn('load', 'function load(url: string): void')],
    },
    {
      version: '1.0.0',
      date: ago(90).toISOString(),
      path: '/docs/player/1.0.0/api/',
      symbols: [fn('load', 'function load(): void')],
    },
  ],
};

function input(overrides: Partial<NewsInput> = {}): NewsInput {
  return {
    since: ago(10),
    sinceFrom: 'asked',
    now: NOW,
    models: [player, nav],
    sections: [
      { basePath: '/docs/nav/', title: 'Navigation' },
      { basePath: '/docs/player/', title: 'Player' },
    ],
    pages: [
      { url: '/docs/nav/', title: 'Navigation' },
      { url: '/docs/nav/guide', title: 'Guide' },
      { url: '/docs/nav/new-page', title: 'A new page' },
      { url: '/docs/player/', title: 'Player' },
    ],
    texts: new Map([
      ['/docs/nav/', { first: -Infinity, newest: -Infinity }],
      ['/docs/nav/guide', { first: -Infinity, newest: ago(1).getTime() }],
      ['/docs/nav/new-page', { first: ago(3).getTime(), newest: ago(3).getTime() }],
      ['/docs/player/', { first: -Infinity, newest: ago(1).getTime() }],
    ]),
    reading: {
      lastRead: new Map([
        ['/docs/nav/3.2.0/api/setFocus', ago(20).getTime()],
        ['/docs/nav/guide', ago(4).getTime()],
      ]),
      namesIn: (path) =>
        path === '/docs/nav/guide' ? identifiersIn('Call `pause()` when the player covers the screen.') : undefined,
    },
    watches: [],
    personalOrder: true,
    ...overrides,
  };
}

describe("what's new for a reader", () => {
  it('puts the package whose symbols the reader uses first, and those symbols first, with both declarations', () => {
    const news = whatsNew(input());
    expect(news.packages.map((pkg) => pkg.id)).toEqual(['nav', 'player']);
    const [newest, patch] = news.packages[0]?.releases ?? [];
    expect(newest?.version).toBe('3.3.0');
    expect(patch).toMatchObject({ version: '3.2.1', comparedWith: '3.2.0', breaking: true });
    expect(patch?.symbols.map((s) => [s.change, s.name, s.use])).toEqual([
      ['removed', 'pause', 'named'],
      ['changed', 'setFocus', 'read'],
    ]);
    expect(patch?.symbols[1]).toMatchObject({
      before: 'function setFocus(key: string): void',
      after: 'function setFocus(key: string, options: FocusOptions): void',
      url: '/docs/nav/3.2.1/api/setFocus',
    });
    // The removed symbol's page is the one of the release that had it.
    expect(patch?.symbols[0]?.url).toBe('/docs/nav/3.2.0/api/pause');
    expect(useNote(patch?.symbols[1] as never, '3.2.1')).toBe('you read `setFocus`; 3.2.1 changed its signature');
    // An added symbol in a minor release is not breaking.
    expect(newest).toMatchObject({ comparedWith: '3.2.1', breaking: false });
  });

  it('lists the pages changed since the reader read them and the pages added since the date, never a page not given', () => {
    const news = whatsNew(input());
    expect(news.changedPages.map((page) => page.url)).toEqual(['/docs/nav/guide']);
    expect(news.newPages.map((page) => page.url)).toEqual(['/docs/nav/new-page']);
    // Changed, but never read by this reader: not "changed since you read it".
    expect(news.changedPages.some((page) => page.url === '/docs/player/')).toBe(false);
  });

  it('keeps to one package when asked, and to releases after the date', () => {
    const news = whatsNew(input({ only: 'norigin-spatial-navigation' }));
    expect(news.packages.map((pkg) => pkg.id)).toEqual(['nav']);
    expect(news.newPages.map((page) => page.url)).toEqual(['/docs/nav/new-page']);
    // Navigation, which the reader watches (they read it lately), before the player they do not.
    expect(whatsNew(input({ since: ago(3) })).packages.flatMap((pkg) => pkg.releases.map((r) => r.version))).toEqual([
      '3.3.0',
      '2.0.0',
    ]);
  });

  it('orders by date alone when the reader switched the personal ordering off', () => {
    const news = whatsNew(input({ personalOrder: false }));
    expect(news.packages.map((pkg) => pkg.id)).toEqual(['player', 'nav']);
    expect(news.packages[1]?.releases[1]?.symbols.every((s) => s.use === null)).toBe(true);
  });

  it('watches what the reader read in the last 90 days, unless they stopped, and what they chose', () => {
    expect(whatsNew(input()).packages.find((pkg) => pkg.id === 'nav')?.watched).toBe(true);
    expect(whatsNew(input()).packages.find((pkg) => pkg.id === 'player')?.watched).toBe(false);
    const chosen = whatsNew(
      input({
        watches: [
          { kind: 'package', target: '/docs/nav/', watching: false },
          { kind: 'package', target: '/docs/player/', watching: true },
        ],
      }),
    );
    expect(chosen.packages.map((pkg) => [pkg.id, pkg.watched])).toEqual([
      ['nav', false],
      ['player', true],
    ]);
  });

  it('writes the same news as Markdown, the breaking patch said as such', () => {
    const markdown = newsMarkdown(whatsNew(input()), (path) => `https://docs.example${path}`, 'dev@partner.example');
    expect(markdown).toContain('### Norigin Spatial Navigation 3.2.1');
    expect(markdown).toContain('Compared with 3.2.0, the previous release in version order.');
    expect(markdown).toContain('**Breaking in a non-major release**');
    expect(markdown).toContain('before (3.2.0): `function setFocus(key: string): void`');
    expect(markdown).toContain('[Guide](https://docs.example/docs/nav/guide)');
  });
});

describe('the date a reader asks from', () => {
  it('takes a date or a time in the past, and says what is wrong with any other', () => {
    expect(parseSince('2026-11-01', NOW)?.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(parseSince('2026-11-01T09:30:00Z', NOW)?.toISOString()).toBe('2026-11-01T09:30:00.000Z');
    expect(parseSince(undefined, NOW)).toBeUndefined();
    for (const [given, words] of [
      ['2026-12-25', /future/],
      ['yesterday', /must be a date/],
      ['2026-02-30', /not a date that exists/],
      ['2019-01-01', /at most/],
    ] as const)
      expect(() => parseSince(given, NOW), given).toThrow(words);
    expect(() => parseSince('nope', NOW)).toThrow(NewsQueryError);
  });
});

describe("a package's text in the feed and the mail", () => {
  it('is text: a doc comment or declaration with markup is escaped, never HTML of its own', () => {
    const hostile = '<img src=x onerror=alert(1)><script>alert(2)</script>';
    const pkg: ApiModels<ModelSymbol> = {
      ...nav,
      versions: [
        {
          version: '3.3.0',
          date: ago(1).toISOString(),
          path: '/docs/nav/api/',
          symbols: [{ ...fn('setFocus', `function setFocus(key: "${hostile}"): void`), summary: hostile }],
        },
        {
          version: '3.2.0',
          date: ago(40).toISOString(),
          path: '/docs/nav/3.2.0/api/',
          symbols: [fn('setFocus', 'function setFocus(): void')],
        },
      ],
    };
    const news = whatsNew(input({ models: [pkg], since: ago(3) }));
    const [found] = news.packages;
    const html = releaseHtml(found as never, found?.releases[0] as never, (path) => `https://docs.example${path}`);
    const atom = newsAtom(news, {
      origin: 'https://docs.example',
      selfUrl: 'https://docs.example/feeds/whats-new.atom',
      email: 'dev@partner.example',
      now: NOW,
    });
    for (const text of [html, atom]) {
      expect(text).not.toContain('<script>');
      expect(text).not.toContain('<img src=x');
    }
    expect(html).toContain('&lt;script&gt;');
  });
});
