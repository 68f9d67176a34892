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

describe('who reads which route (the checked-in policy)', () => {
  const ALL = ['admin', 'partner', 'staff'];
  const INTERNAL = ['admin', 'staff'];
  it.each([
    ['/docs/player-manager-mono/', ALL],
    ['/DOCS/Player-Manager-Mono/packages/player-adapter-dash.js', ALL],
    ['/docs/category/player-framework', ALL],
    ['/docs/ui-toolkit', ALL],
    ['/docs/ui-toolkit-mono/packages/hooks/', ALL],
    ['/docs/Spat-Nav/Detailed_README_SpatNav', ALL],
    ['/docs/layout-engine/CHANGELOG', ALL],
    ['/docs/norigin-reference-app/', ALL],
    ['/docs/demo-app/', ALL],
    ['/docs/whitelabel/', ALL],
    ['/blog', ALL],
    ['/blog/rss.xml', ALL],
    ['/markdown-page', ALL],
    ['/docs/frontend-guidelines/GitFlow', INTERNAL],
    ['/docs/tv-app-training/', INTERNAL],
    ['/docs/knowledge-nugget-app/CHANGELOG', INTERNAL],
    ['/docs/player-manager-mono-custom-test/packages/player-core/', INTERNAL],
    ['/docs/france24-demo/', INTERNAL],
    ['/docs/support-documentation', INTERNAL],
    ['/admin', ['admin']],
    ['/ADMIN/insights', ['admin']],
    ['/account', ALL],
    ['/Account/', ALL],
  ])('%s is read by %j', (path, groups) => {
    expect(readersOf(path)).toEqual(groups);
  });

  it('opens the public routes to everyone', () => {
    for (const path of ['/', '/login', '/docs/', '/docs/Norigin-Spatial-Navigation/CHANGELOG'])
      expect(readersOf(path), path).toBe('public');
  });

  it("gives every release of a synced package its section's readers, public or private", () => {
    // Where a package section synced from its releases puts an older version (site/sources.yaml).
    for (const section of ['/docs/Norigin-Spatial-Navigation/', '/docs/layout-engine/', '/docs/frontend-guidelines/'])
      for (const release of ['2.3.0/', '2.3.0/CONTRIBUTING', '10.0.1/docs/setup'])
        expect(readersOf(section + release), section + release).toEqual(readersOf(section));
  });

  it('matches no rule for paths outside every section, and for paths that cannot name a page', () => {
    for (const path of ['/docs/no-such-project/', '/nope', '/docs/player-manager-monox', '/docs/%ZZ'])
      expect(readersOf(path), path).toBeNull();
  });

  it('gives a partner the player docs but not the guidelines; staff read both', () => {
    expect(canRead(['partner'], '/docs/player-manager-mono/')).toBe(true);
    expect(canRead(['partner'], '/docs/frontend-guidelines/')).toBe(false);
    expect(canRead(['staff'], '/docs/frontend-guidelines/')).toBe(true);
    expect(canRead(['admin'], '/docs/frontend-guidelines/')).toBe(true);
    expect(canRead(null, '/docs/player-manager-mono/')).toBe(false);
    expect(canRead(null, '/docs/Norigin-Spatial-Navigation/')).toBe(true);
    expect(canRead([], '/docs/player-manager-mono/')).toBe(false);
    expect(canRead(['staff'], '/docs/no-such-project/')).toBe(false);
    // Administration is for administrators only, though staff read every other section.
    expect(canRead(['staff'], '/admin')).toBe(false);
    expect(canRead(['admin'], '/admin/insights')).toBe(true);
  });

  it('names the section of a route, the longest match winning', () => {
    expect(sectionOf('/docs/player-manager-mono-custom-test/')).toBe('internal');
    expect(sectionOf('/docs/player-manager-mono/CHANGELOG')).toBe('player');
    expect(sectionOf('/docs/')).toBe('public');
    expect(sectionOf('/docs/x')).toBeNull();
  });

  it('has four access units: public, administration, what partners share with staff, and internal', () => {
    expect(accessUnits().map((unit) => unit.id)).toEqual(['public', 'admin', 'admin+partner+staff', 'admin+staff']);
  });
});

describe('searchBundlesFor', () => {
  it('gives a signed-out visitor, and a signed-in reader without groups, the public bundle only', () => {
    expect(searchBundlesFor(null)).toEqual(['/search/public/']);
    expect(searchBundlesFor([])).toEqual(['/search/public/']);
  });

  it('gives a partner the public bundle and the partner-readable one, public first', () => {
    expect(searchBundlesFor(['partner'])).toEqual(['/search/public/', '/search/admin+partner+staff/']);
  });

  it('gives staff every bundle of the docs and the blog, and admins the administration pages’ too', () => {
    const docs = ['/search/public/', '/search/admin+partner+staff/', '/search/admin+staff/'];
    expect(searchBundlesFor(['staff'])).toEqual(docs);
    expect(searchBundlesFor(['admin'])).toEqual(['/search/public/', '/search/admin/', ...docs.slice(1)]);
  });

  it('never gives a reader, whatever their groups, the bundle of a unit they may not read', () => {
    const names = policy.groupNames;
    for (let mask = 0; mask < 1 << names.length; mask++) {
      const groups = names.filter((_, index) => mask & (1 << index));
      const units = searchBundlesFor(groups).map((bundle) => bundle.slice('/search/'.length, -1));
      expect(units[0]).toBe('public');
      for (const unit of units.slice(1)) expect(unit.split('+').some((group) => groups.includes(group))).toBe(true);
      // And every unit they may read is there.
      for (const unit of accessUnits())
        if (unit.readers !== 'public' && unit.readers.some((group) => groups.includes(group)))
          expect(units).toContain(unit.id);
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
    expect(policy.fullAccess).toEqual(['admin', 'staff']);
  });

  it('names every problem at once', () => {
    const file = valid() as unknown as {
      groups: Record<string, { label: string; reads: unknown }>;
      sections: Record<string, { paths: string[] }>;
      accounts: { emailDomains: { domain: string; groups: string[] }[] };
    };
    file.groups.partner = { label: '', reads: ['player', 'ghosts'] };
    file.groups['Bad Name'] = { label: 'x', reads: 'all' };
    file.sections.orphan = { paths: ['/docs/orphan'] };
    file.sections.layout = { paths: ['/docs/whitelabel'] };
    (file.sections as Record<string, { paths: string[]; groups?: string[] }>).vault = {
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
    expect(message).toContain('group "partner" reads section "ghosts", which the policy does not define');
    expect(message).toContain('group "Bad Name": a name is lower-case letters, digits and dashes');
    expect(message).toContain('"/docs/whitelabel" is in both section');
    expect(message).toContain('e-mail domain rule "not a domain" is not a domain name');
    expect(message).toContain('gives group "wizards"');
    expect(message).toContain('section "vault" is for group "wardens", which the policy does not define');
  });

  it('gives a section with groups "all" to every group, one added later included', () => {
    const file = valid();
    (file.groups as Record<string, { label: string; reads: 'all' | string[] }>).reviewers = {
      label: 'Reviewers',
      reads: ['blog'],
    };
    const compiled = compilePolicy(file);
    expect(readersOf('/account', compiled)).toEqual(['admin', 'partner', 'reviewers', 'staff']);
    expect(readersOf('/docs/player-manager-mono/', compiled)).toEqual(['admin', 'partner', 'staff']);
  });

  it('refuses a section that no group reads', () => {
    const file = valid();
    (file.sections as Record<string, { paths: string[] }>).attic = { paths: ['/docs/attic'] };
    const groups = file.groups as Record<string, { label: string; reads: 'all' | string[] }>;
    for (const group of Object.values(groups)) group.reads = ['blog'];
    expect(() => compilePolicy(file)).toThrow(/section "attic" is read by no group/);
  });
});

describe('marking links for each reader', () => {
  it('names a class per set of readers', () => {
    expect(readersClass('public')).toBe('portal-r-public');
    expect(readersClass(['staff', 'admin'])).toBe('portal-r-admin_staff');
    expect(readersClass(null)).toBe('portal-r-none');
  });

  it('hides an item from a signed-in reader in none of its groups, and its card column with it', () => {
    const css = accessStyles();
    expect(css).toContain('html.portal-signed-in:not(.portal-g-staff):not(.portal-g-admin) .portal-r-admin_staff');
    expect(css).toContain(
      'html.portal-signed-in:not(.portal-g-staff):not(.portal-g-admin) article.col:has(> .portal-r-admin_staff)',
    );
    // Seven non-empty sets of three groups, plus "nobody", each twice (item and card column).
    expect(css.split(',\n')).toHaveLength(16);
  });
});
