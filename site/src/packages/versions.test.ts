import { describe, expect, it } from 'vitest';

import {
  pathIn,
  placeOf,
  preferenceKey,
  preferredHref,
  preferredVersion,
  rememberVersion,
  type PackageVersions,
} from './versions';

const nav: PackageVersions = {
  id: 'nav',
  title: 'Nav',
  basePath: '/docs/Nav/',
  latest: '3.3.0',
  versions: [
    { version: '3.3.0', date: null, path: '/docs/Nav/', pages: ['', 'CHANGELOG', 'docs/setup'] },
    { version: '2.3.0', date: null, path: '/docs/Nav/2.3.0/', pages: ['', 'docs/setup', 'docs/legacy'] },
    { version: '1.0.5', date: null, path: '/docs/Nav/1.0.5/', pages: [''] },
  ],
};

function memory(): Storage {
  const items = new Map<string, string>();
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
    key: () => null,
    get length() {
      return items.size;
    },
  };
}

/** The place of a path that is in the package (the test fails here when it is not). */
function at(pathname: string) {
  const place = placeOf(pathname, [nav]);
  if (!place) throw new Error(`${pathname} is not in the package`);
  return place;
}

describe('where a page is among the versions of its package', () => {
  it('finds the version folder that holds the page, the newest for section pages', () => {
    expect(placeOf('/docs/Nav/2.3.0/docs/setup', [nav])).toMatchObject({
      version: { version: '2.3.0' },
      page: 'docs/setup',
    });
    expect(placeOf('/docs/Nav/2.3.0/', [nav])).toMatchObject({ version: { version: '2.3.0' }, page: '' });
    expect(placeOf('/docs/Nav/CHANGELOG', [nav])).toMatchObject({ version: { version: '3.3.0' }, page: 'CHANGELOG' });
    expect(placeOf('/docs/Nav', [nav])).toMatchObject({ version: { version: '3.3.0' }, page: '' });
    expect(placeOf('/docs/nav/changelog/', [nav])).toMatchObject({ version: { version: '3.3.0' }, page: 'CHANGELOG' });
    expect(placeOf('/docs/NAV/2.3.0/DOCS/SETUP', [nav])).toMatchObject({
      version: { version: '2.3.0' },
      page: 'docs/setup',
    });
    expect(placeOf('/docs/Navigator/', [nav])).toBeNull();
    expect(placeOf('/docs/layout-engine/', [nav])).toBeNull();
  });

  it('leads to the same page in another version, or to its landing page', () => {
    const setup = at('/docs/Nav/2.3.0/docs/setup');
    expect(pathIn(setup, '3.3.0')).toBe('/docs/Nav/docs/setup');
    expect(pathIn(setup, '1.0.5')).toBe('/docs/Nav/1.0.5/');
    expect(pathIn(at('/docs/Nav/2.3.0/docs/legacy'), '3.3.0')).toBe('/docs/Nav/');
    expect(pathIn(at('/docs/Nav/CHANGELOG'), '2.3.0')).toBe('/docs/Nav/2.3.0/');
    expect(pathIn(at('/docs/nav/changelog'), '3.3.0')).toBe('/docs/Nav/CHANGELOG');
  });
});

describe("the reader's chosen version", () => {
  it('is kept under docs-preferred-version-<package>, and only while the package has it', () => {
    const storage = memory();
    expect(preferredVersion(nav, storage)).toBeNull();
    rememberVersion(nav, '2.3.0', storage);
    expect(storage.getItem(preferenceKey('nav'))).toBe('2.3.0');
    expect(preferredVersion(nav, storage)).toBe('2.3.0');
    storage.setItem('docs-preferred-version-nav', '0.9.0');
    expect(preferredVersion(nav, storage)).toBeNull();
  });

  it('survives storage that refuses', () => {
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(preferredVersion(nav, refusing)).toBeNull();
    expect(() => rememberVersion(nav, '2.3.0', refusing)).not.toThrow();
  });

  it("sends the package's sidebar entry to the chosen version", () => {
    expect(preferredHref('/docs/Nav/', [nav], () => '2.3.0')).toBe('/docs/Nav/2.3.0/');
    expect(preferredHref('/docs/Nav/', [nav], () => null)).toBe('/docs/Nav/');
    expect(preferredHref('/docs/layout-engine/', [nav], () => '2.3.0')).toBe('/docs/layout-engine/');
  });
});
