import { describe, expect, it } from 'vitest';

import {
  accessStyles,
  accessUnits,
  canRead,
  claimedGroups,
  compilePolicy,
  groupsOfAccount,
  isPublicRoute,
  loginUrlFor,
  normalizeRoute,
  policy,
  policyFile,
  readersClass,
  readersOf,
  safeNextPath,
  searchBundlesFor,
  sectionOf,
  unitsOfGroups,
  withShelves,
  searchBundles,
  mayRead,
  lockedItemSelector,
  ALL_UNITS,
  type PolicyFile,
} from './index.js';

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
    '/docs/frontend-guidelines/GitFlow',
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

describe('which unit a route belongs to (the checked-in policy)', () => {
  it.each([
    ['/docs/player-manager-mono/', 'player'],
    ['/docs/player-manager-mono/apps/playground-web/', 'player'],
    ['/DOCS/Player-Manager-Mono/packages/player-adapter-dash.js', 'player-adapter-dash'],
    ['/docs/player-manager-mono/packages/player-core/CHANGELOG', 'player-core'],
    ['/docs/player-manager-mono/packages/tracking-adapter-conviva/', 'tracking-adapter-conviva'],
    ['/docs/category/player-framework', 'player'],
    ['/docs/ui-toolkit', 'ui-toolkit'],
    ['/docs/ui-toolkit-mono/packages/hooks/', 'ui-hooks'],
    ['/docs/Spat-Nav/Detailed_README_SpatNav', 'navigation'],
    ['/docs/layout-engine/CHANGELOG', 'layout'],
    ['/docs/norigin-reference-app/', 'reference-app'],
    ['/docs/demo-app/', 'demo-app'],
    ['/docs/category/reference-and-demo-apps', 'apps'],
    ['/docs/whitelabel/', 'whitelabel'],
    ['/blog', 'blog'],
    ['/blog/rss.xml', 'blog'],
    ['/markdown-page', 'conventions'],
    ['/docs/frontend-guidelines/GitFlow', 'internal'],
    ['/docs/tv-app-training/', 'internal'],
    ['/docs/player-manager-mono-custom-test/packages/player-core/', 'internal'],
    ['/docs/support-documentation', 'internal'],
    ['/admin', 'administration'],
    ['/ADMIN/insights', 'administration'],
    ['/account', 'account'],
    ['/Account/', 'account'],
  ])('%s is the unit %s', (path, unit) => {
    expect(readersOf(path)).toEqual([unit]);
    expect(sectionOf(path)).toBe(unit);
  });

  it('opens the public routes to everyone', () => {
    for (const path of ['/', '/login', '/docs/', '/docs/Norigin-Spatial-Navigation/CHANGELOG'])
      expect(readersOf(path), path).toBe('public');
  });

  it("gives every release of a synced package its section's unit, public or private", () => {
    // Where a package section synced from its releases puts an older version (site/sources.yaml).
    for (const section of ['/docs/Norigin-Spatial-Navigation/', '/docs/layout-engine/', '/docs/frontend-guidelines/'])
      for (const release of ['2.3.0/', '2.3.0/CONTRIBUTING', '10.0.1/docs/setup'])
        expect(readersOf(section + release), section + release).toEqual(readersOf(section));
  });

  it('matches no rule for paths outside every unit, and for paths that cannot name a page', () => {
    for (const path of ['/docs/no-such-project/', '/nope', '/docs/player-manager-monox', '/docs/%ZZ'])
      expect(readersOf(path), path).toBeNull();
  });

  it('has a unit for each package of the monorepos, and a search bundle per unit and per shelf', () => {
    expect(policy.unitNames).toContain('player-adapter-shaka');
    expect(policy.unitNames).toContain('tracking-adapter-youbora');
    expect(policy.unitNames).toContain('ui-reusable-react');
    expect(accessUnits().map((unit) => unit.id)).toEqual(['public', ...policy.unitNames]);
    expect(searchBundles().map((bundle) => bundle.id)).toEqual([
      'public',
      ...policy.unitNames,
      'shelf-staff',
      'shelf-partner',
      'shelf-admin',
    ]);
  });
});

describe('the units a reader holds', () => {
  it('gives a partner the products but not the internal pages or administration; staff all but administration', () => {
    const partner = unitsOfGroups(['partner']);
    const staff = unitsOfGroups(['staff']);
    expect(canRead(partner, '/docs/player-manager-mono/')).toBe(true);
    expect(canRead(partner, '/docs/player-manager-mono/packages/player-adapter-shaka/')).toBe(true);
    expect(canRead(partner, '/docs/frontend-guidelines/')).toBe(false);
    expect(canRead(partner, '/admin')).toBe(false);
    expect(canRead(partner, '/account')).toBe(true);
    expect(canRead(staff, '/docs/frontend-guidelines/')).toBe(true);
    expect(canRead(staff, '/admin')).toBe(false);
    expect(canRead(unitsOfGroups(['admin']), '/admin/insights')).toBe(true);
    // The organisations page is the administration unit's, like /admin itself.
    expect(canRead(unitsOfGroups(['admin']), '/admin/organisations')).toBe(true);
    expect(canRead(partner, '/admin/organisations')).toBe(false);
    expect(canRead(staff, '/admin/organisations/')).toBe(false);
    expect(canRead(null, '/admin/organisations')).toBe(false);
    expect(canRead(null, '/docs/player-manager-mono/')).toBe(false);
    expect(canRead(null, '/docs/Norigin-Spatial-Navigation/')).toBe(true);
    expect(canRead([], '/docs/player-manager-mono/')).toBe(false);
    expect(canRead(staff, '/docs/no-such-project/')).toBe(false);
  });

  it('gives the full-access groups the unit of files no page loads, and nobody else', () => {
    expect(policy.fullAccess).toEqual([ALL_UNITS]);
    expect(unitsOfGroups(['staff'])).toContain(ALL_UNITS);
    expect(unitsOfGroups(['admin'])).toContain(ALL_UNITS);
    expect(unitsOfGroups(['partner'])).not.toContain(ALL_UNITS);
  });

  it('holds the union of its groups, in the policy order, and nothing for an unknown group', () => {
    expect(unitsOfGroups(['partner', 'admin'])).toEqual(unitsOfGroups(['admin']));
    expect(unitsOfGroups(['nobody'])).toEqual([]);
    expect(unitsOfGroups([])).toEqual([]);
  });
});

describe('searchBundlesFor', () => {
  it('gives a signed-out visitor, and a signed-in reader without units, the public bundle only', () => {
    expect(searchBundlesFor(null)).toEqual(['/search/public/']);
    expect(searchBundlesFor([])).toEqual(['/search/public/']);
  });

  it('gives a reader the public bundle and one per unit they hold, public first', () => {
    expect(searchBundlesFor(['player-core', 'blog'])).toEqual([
      '/search/public/',
      '/search/player-core/',
      '/search/blog/',
    ]);
  });

  it('never gives a reader, whatever their groups, a bundle of pages of a unit they do not hold, and misses none', () => {
    const names = policy.groupNames;
    const covers = new Map(searchBundles().map((bundle) => [bundle.id, bundle.units]));
    for (let mask = 0; mask < 1 << names.length; mask++) {
      const held = unitsOfGroups(names.filter((_, index) => mask & (1 << index)));
      const bundles = searchBundlesFor(held).map((bundle) => bundle.slice('/search/'.length, -1));
      expect(bundles[0]).toBe('public');
      const searched = bundles.slice(1).flatMap((bundle) => [...(covers.get(bundle) ?? [])]);
      expect(searched.every((unit) => held.includes(unit))).toBe(true);
      expect(new Set(searched)).toEqual(new Set(held.filter((unit) => policy.unitNames.includes(unit))));
    }
  });
});

describe("an account's groups", () => {
  it.each([
    ['a verified company address', { email: 'Dev@Norigin.Example', emailVerified: true }, ['staff']],
    ['an unverified company address', { email: 'dev@norigin.example', emailVerified: false }, []],
    ['a subdomain of the company domain', { email: 'dev@eu.norigin.example', emailVerified: true }, []],
    ['a look-alike domain', { email: 'dev@norigin.example.evil.example', emailVerified: true }, []],
    ['another domain', { email: 'dev@partner.example', emailVerified: true }, []],
    ['no e-mail', { email: null, emailVerified: true }, []],
    [
      'the claim, verified or not',
      { email: 'dev@partner.example', emailVerified: false, claims: { groups: ['partner'] } },
      ['partner'],
    ],
    [
      'the claim and the domain together, in policy order',
      { email: 'dev@norigin.example', emailVerified: true, claims: { groups: ['admin'] } },
      ['staff', 'admin'],
    ],
    [
      'unknown and malformed names in the claim',
      { email: 'x@y.example', emailVerified: true, claims: { groups: ['root', 7, 'partner', 'PARTNER'] } },
      ['partner'],
    ],
    ['a claim that is not a list', { email: 'x@y.example', emailVerified: true, claims: { groups: 'staff' } }, []],
  ])('%s', (_name, account, groups) => {
    expect(groupsOfAccount(account)).toEqual(groups);
  });

  it('keeps what the claim says apart from what the domain gives', () => {
    expect(claimedGroups({ groups: ['admin', 'nope'] })).toEqual(['admin']);
    expect(claimedGroups(undefined)).toEqual([]);
  });
});

describe('checking a policy', () => {
  const valid = (): PolicyFile => JSON.parse(JSON.stringify(policyFile)) as PolicyFile;

  it('accepts the checked-in policy', () => {
    expect(() => compilePolicy(valid())).not.toThrow();
    expect(policy.fullAccessGroups).toEqual(['admin', 'staff']);
  });

  it('names every problem at once', () => {
    const file = valid() as unknown as {
      groups: Record<string, { label: string; reads: unknown }>;
      units: Record<string, { paths: string[] }>;
      accounts: { emailDomains: { domain: string; groups: string[] }[] };
    };
    file.groups.partner = { label: '', reads: ['player', 'ghosts'] };
    file.groups['Bad Name'] = { label: 'x', reads: 'all' };
    file.units.orphan = { paths: ['/docs/orphan'] };
    file.units.layout = { paths: ['/docs/whitelabel'] };
    file.units['player.core'] = { paths: ['/docs/elsewhere'] };
    (file.units as Record<string, { paths: string[]; groups?: string[] }>).vault = {
      paths: ['/vault'],
      groups: ['wardens'],
    };
    file.accounts.emailDomains.push({ domain: 'not a domain', groups: ['wizards'] });
    let message = '';
    try {
      compilePolicy(file as unknown as PolicyFile);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('group "partner" has no label');
    expect(message).toContain('group "partner" reads unit "ghosts", which the policy does not define');
    expect(message).toContain('group "Bad Name": a name is lower-case letters, digits and dashes');
    expect(message).toContain('unit "player.core": a name is lower-case letters, digits and dashes');
    expect(message).toContain('"/docs/whitelabel" is in both unit');
    expect(message).toContain('e-mail domain rule "not a domain" is not a domain name');
    expect(message).toContain('gives group "wizards"');
    expect(message).toContain('unit "vault" is for group "wardens", which the policy does not define');
  });

  it('gives a unit with groups "all" to every group, one added later included', () => {
    const file = valid();
    (file.groups as Record<string, { label: string; reads: 'all' | string[] }>).reviewers = {
      label: 'Reviewers',
      reads: ['blog'],
    };
    const compiled = compilePolicy(file);
    expect(unitsOfGroups(['reviewers'], compiled)).toEqual(['account', 'blog', 'shelf-reviewers']);
    expect(canRead(unitsOfGroups(['reviewers'], compiled), '/account', compiled)).toBe(true);
  });

  it('refuses a unit that no group reads', () => {
    const file = valid();
    (file.units as Record<string, { paths: string[] }>).attic = { paths: ['/docs/attic'] };
    const groups = file.groups as Record<string, { label: string; reads: 'all' | string[] }>;
    for (const group of Object.values(groups)) group.reads = ['blog'];
    expect(() => compilePolicy(file)).toThrow(/unit "attic" is read by no group/);
  });
});

describe('marking links for each reader', () => {
  it('marks an item with each unit that opens it', () => {
    expect(readersClass('public')).toBe('portal-r-public');
    expect(readersClass(['player-core'])).toBe('portal-r portal-r-player-core portal-one-unit portal-listed');
    expect(readersClass(['player-core', 'blog'])).toBe('portal-r portal-r-player-core portal-r-blog portal-listed');
    // The company's own pages are not listed for a reader without them; the policy says so.
    expect(readersClass(['internal'])).toBe('portal-r portal-r-internal portal-one-unit');
    expect(readersClass(['internal', 'player-core'])).toBe(
      'portal-r portal-r-internal portal-r-player-core portal-listed',
    );
    expect(readersClass(null)).toBe('portal-r-none');
  });

  it('lists a licensable unit locked by default, hides the others, and takes the policy’s word over both', () => {
    const listed = (compiled: ReturnType<typeof compilePolicy>) =>
      compiled.units.filter((unit) => unit.listed).map((unit) => unit.name);
    expect(listed(policy)).toContain('player-adapter-shaka');
    expect(listed(policy)).toContain('blog');
    expect(listed(policy)).not.toContain('internal');
    expect(listed(policy)).not.toContain('administration');
    expect(listed(policy)).not.toContain('account');
    const file: PolicyFile = {
      ...policyFile,
      units: {
        ...policyFile.units,
        blog: { ...policyFile.units.blog, whenLocked: 'hidden' },
        internal: { ...policyFile.units.internal, whenLocked: 'listed' },
      },
    };
    expect(listed(compilePolicy(file))).toContain('internal');
    expect(listed(compilePolicy(file))).not.toContain('blog');
    expect(() =>
      compilePolicy({
        ...policyFile,
        units: { ...policyFile.units, blog: { ...policyFile.units.blog, whenLocked: 'shown' as 'listed' } },
      }),
    ).toThrow('unit "blog": whenLocked must be "listed" or "hidden"');
  });

  it('hides an item from a signed-in reader holding none of its units, and its card column with it', () => {
    const css = accessStyles();
    expect(css).toContain('.portal-u-player-core .portal-r-player-core');
    expect(css).toContain('html.portal-signed-in .portal-r:not(:is(');
    expect(css).toContain('html.portal-signed-in article.col:has(> .portal-r:not(:is(');
    // One selector per unit, not per combination of units.
    expect(css.match(/\.portal-u-/g)).toHaveLength(4 * (policy.unitNames.length + 1));
    // A listed unit's sidebar item is not hidden but locked, with nothing below a package's own entry.
    expect(css).toContain(':not(li.portal-listed)');
    expect(css).toContain(`${lockedItemSelector()}.portal-one-unit > .menu__list`);
  });
});

describe('shelves: the search bundles of every unit a group reads', () => {
  it('gives a reader a shelf only when they hold every unit on it', () => {
    const partner = unitsOfGroups(['partner']);
    expect(partner).toContain('shelf-partner');
    expect(partner).not.toContain('shelf-staff');
    expect(unitsOfGroups(['staff'])).toEqual(expect.arrayContaining(['shelf-partner', 'shelf-staff']));
    // All but one of the partner's units: no shelf.
    expect(withShelves(partner.filter((unit) => unit !== 'blog' && !unit.startsWith('shelf-')))).not.toContain(
      'shelf-partner',
    );
  });

  it('searches the fewest bundles that cover exactly what a reader holds', () => {
    expect(searchBundlesFor(unitsOfGroups(['partner']))).toEqual(['/search/public/', '/search/shelf-partner/']);
    expect(searchBundlesFor(unitsOfGroups(['staff']))).toEqual(['/search/public/', '/search/shelf-staff/']);
    expect(searchBundlesFor(unitsOfGroups(['admin']))).toEqual(['/search/public/', '/search/shelf-admin/']);
    // A licence for a few units: one bundle each.
    expect(searchBundlesFor(withShelves(['player-core', 'layout']))).toEqual([
      '/search/public/',
      '/search/player-core/',
      '/search/layout/',
    ]);
    // The partner's shelf and one more unit.
    expect(searchBundlesFor(withShelves([...unitsOfGroups(['partner']), 'administration']))).toEqual([
      '/search/public/',
      '/search/shelf-partner/',
      '/search/administration/',
    ]);
    // The partner's units and the internal ones are every unit staff read: the staff's shelf.
    expect(searchBundlesFor(withShelves([...unitsOfGroups(['partner']), 'internal']))).toEqual([
      '/search/public/',
      '/search/shelf-staff/',
    ]);
  });

  it('labels each shelf with itself, so holding one of its units is not enough to read it', () => {
    const shelf = searchBundles().find((bundle) => bundle.id === 'shelf-partner');
    expect(shelf?.readers).toEqual(['shelf-partner']);
    expect(shelf?.units).toEqual(unitsOfGroups(['partner']).filter((unit) => !unit.startsWith('shelf-')));
    expect(mayRead(['blog'], shelf?.readers ?? null)).toBe(false);
  });
});
