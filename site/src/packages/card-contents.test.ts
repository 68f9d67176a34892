import type { PropSidebarItem } from '@docusaurus/plugin-content-docs';
import { describe, expect, it } from 'vitest';

import { cardContents } from './card-contents';

type Category = Extract<PropSidebarItem, { type: 'category' }>;

const pkg = (label: string, href: string): Category => ({
  type: 'category',
  label,
  href,
  customProps: { npm: `@noriginmedia/${label.toLowerCase().replace(/ /g, '-')}` },
  collapsed: true,
  collapsible: true,
  items: [],
});
const group = (label: string, items: PropSidebarItem[], kind?: string): Category => ({
  type: 'category',
  label,
  ...(kind && { customProps: { kind } }),
  collapsed: true,
  collapsible: true,
  items,
});
const page = (label: string, href: string): PropSidebarItem => ({ type: 'link', label, href });

/** A package of one page: its README as a link, with its npm name. */
const onePage = (label: string, href: string): PropSidebarItem => ({
  type: 'link',
  label,
  href,
  customProps: { npm: `@noriginmedia/${label.toLowerCase().replace(/ /g, '-')}` },
});

const testBuild: Category = {
  ...group('Custom test build', [
    onePage('Player core', '/docs/t/core/'),
    onePage('Player manager', '/docs/t/manager/'),
    onePage('Shaka adapter', '/docs/t/shaka/'),
  ]),
  href: '/docs/t/',
};
const sameReaders = () => 'portal-r-staff';

describe('cardContents', () => {
  it('counts and names the packages of a category instead of "3 items"', () => {
    expect(cardContents(testBuild, sameReaders)).toBe('3 packages: Player core, Player manager and Shaka adapter');
  });

  it('looks into the groups of a monorepo, leaves out its About this package and stops after five names', () => {
    const mono: Category = {
      ...group('Player packages', [
        group('Players', [pkg('Player core', '/a/'), pkg('Player manager', '/b/')]),
        group('Player adapters', [pkg('Shaka adapter', '/c/'), pkg('DASH adapter', '/d/'), pkg('HLS adapter', '/e/')]),
        group('Tracking', [pkg('Tracking manager', '/f/'), pkg('Mux tracking', '/g/')]),
        group('About this package', [page('License', '/docs/p/LICENSE')], 'about'),
      ]),
      href: '/docs/p/',
    };
    expect(cardContents(mono, sameReaders)).toBe(
      '7 packages: Player core, Player manager, Shaka adapter, DASH adapter, HLS adapter and 2 more',
    );
  });

  it('names the pages of a category without packages', () => {
    const guides = { ...group('Guidelines', [page('Cypress', '/g/c'), page('GitFlow', '/g/g')]), href: '/g/' };
    expect(cardContents(guides, sameReaders)).toBe('2 pages: Cypress and GitFlow');
  });

  it('never names an entry that not every reader of the card may open, nor counts what it leaves out', () => {
    const markOf = (item: PropSidebarItem) =>
      item.type !== 'html' && item.href === '/docs/t/shaka/' ? 'portal-r-staff' : 'portal-r-partner_staff';
    expect(cardContents(testBuild, markOf)).toBe('Packages such as Player core and Player manager');
    expect(cardContents(testBuild, () => null)).toBe('3 packages: Player core, Player manager and Shaka adapter');
    const hidden = (item: PropSidebarItem) => (item === testBuild ? 'portal-r-partner_staff' : 'portal-r-staff');
    expect(cardContents(testBuild, hidden)).toBeNull();
  });

  it('says nothing for a category that holds only its About this package', () => {
    const app = {
      ...group('Demo App', [group('About this package', [page('Changelog', '/x')], 'about')]),
      href: '/d/',
    };
    expect(cardContents(app, sameReaders)).toBeNull();
  });
});
