import { describe, expect, it } from 'vitest';
import type { PropSidebarItem } from '@docusaurus/plugin-content-docs';

import { internalPath, linkMark, sidebarItemMark, unionOfReaders } from './item-marks';

const link = (href: string): PropSidebarItem => ({ type: 'link', label: href, href });
const category = (href: string | undefined, items: PropSidebarItem[]): PropSidebarItem => ({
  type: 'category',
  label: href ?? 'no link',
  collapsed: true,
  collapsible: true,
  items,
  ...(href !== undefined && { href }),
});

/** A page of the internal unit: one unit, hidden (not listed) from a reader without it. */
const INTERNAL = 'portal-r portal-r-internal portal-one-unit';

describe('sidebarItemMark', () => {
  it('marks a link with the readers of its target', () => {
    expect(sidebarItemMark(link('/docs/france24-demo/'))).toBe(INTERNAL);
    expect(sidebarItemMark(link('/docs/layout-engine/CHANGELOG'))).toBe(
      'portal-r portal-r-layout portal-one-unit portal-listed',
    );
    expect(sidebarItemMark(link('/docs/Norigin-Spatial-Navigation/'))).toBe('portal-r-public');
  });

  it('reads the target without its query or hash', () => {
    expect(sidebarItemMark(link('/docs/france24-demo/?tab=web#setup'))).toBe(INTERNAL);
  });

  /** The apps category's own unit, the demo app's and the internal France 24 demo's: listed when locked (the apps are). */
  const APPS = 'portal-r portal-r-apps portal-r-demo-app portal-r-internal portal-listed';

  it('marks a category with every unit that opens something in it', () => {
    // The Reference and Demo Apps category: partner-readable apps and the internal France 24 demo.
    const apps = category('/docs/category/reference-and-demo-apps', [
      link('/docs/demo-app/'),
      category(undefined, [link('/docs/france24-demo/')]),
    ]);
    expect(sidebarItemMark(apps)).toBe(APPS);
  });

  it('gives an item inside a category its own mark after the category was marked, and the same again', () => {
    const france24 = category(undefined, [link('/docs/france24-demo/')]);
    const apps = category('/docs/category/reference-and-demo-apps', [link('/docs/demo-app/'), france24]);
    expect(sidebarItemMark(apps)).toBe(APPS);
    expect(sidebarItemMark(france24)).toBe(INTERNAL);
    expect(sidebarItemMark(apps)).toBe(APPS);
    expect(sidebarItemMark(category(undefined, [{ type: 'html', value: '<hr>' }]))).toBeNull();
  });

  it('marks a category without a link of its own by what is below it', () => {
    expect(sidebarItemMark(category(undefined, [link('/docs/frontend-guidelines/Cypress')]))).toBe(INTERNAL);
  });

  it('marks a category as public when one page in it is public', () => {
    const navigation = category('/docs/category/navigation-and-layout', [
      link('/docs/Norigin-Spatial-Navigation/'),
      link('/docs/layout-engine/'),
    ]);
    expect(sidebarItemMark(navigation)).toBe('portal-r-public');
  });

  it('leaves external links and HTML items unmarked', () => {
    expect(sidebarItemMark(link('https://github.com/NoriginMedia'))).toBeNull();
    expect(sidebarItemMark(link('//example.com/x'))).toBeNull();
    expect(sidebarItemMark(category(undefined, [link('mailto:x@example.com')]))).toBeNull();
    expect(sidebarItemMark({ type: 'html', value: '<hr>' })).toBeNull();
  });

  it('marks a link that no rule matches as read by nobody', () => {
    expect(sidebarItemMark(link('/docs/not-in-the-policy/'))).toBe('portal-r-none');
  });
});

describe('linkMark', () => {
  it('marks internal links by their target and leaves external ones alone', () => {
    expect(linkMark('/blog')).toBe('portal-r portal-r-blog portal-one-unit portal-listed');
    expect(linkMark('/docs/support-documentation')).toBe(INTERNAL);
    expect(linkMark('https://www.linkedin.com/company/norigin-media')).toBeNull();
  });
});

describe('unionOfReaders', () => {
  it('is public when anything is, else every group once, sorted', () => {
    expect(unionOfReaders([['internal'], 'public'])).toBe('public');
    expect(unionOfReaders([['layout', 'blog'], ['internal', 'blog'], null])).toEqual(['blog', 'internal', 'layout']);
    expect(unionOfReaders([null])).toBeNull();
  });
});

describe('internalPath', () => {
  it('is the path of a link on this site and null for one that leaves it', () => {
    expect(internalPath('/docs/x#y')).toBe('/docs/x');
    expect(internalPath('#top')).toBe('/');
    expect(internalPath('HTTPS://example.com')).toBeNull();
  });
});
