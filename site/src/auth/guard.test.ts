import { describe, expect, it } from 'vitest';

import type { RouteConfig } from 'react-router-config';
import { unitsOfGroups } from '@portal/access';

import { loginRedirectFor, noAccessReloadFor, prefetchDecision, unknownRouteReloadFor } from './guard';
import { isAppRouteIn } from './route-match';

const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

const page = (path: string): RouteConfig => ({ path, exact: true });
/** A miniature of the generated route table: pages, the docs layout routes, and the catch-all. */
const routes: RouteConfig[] = [
  page('/'),
  page('/login'),
  page('/blog'),
  {
    path: '/docs',
    routes: [
      {
        path: '/docs',
        routes: [
          page('/docs/'),
          page('/docs/layout-engine/'),
          page('/docs/france24-demo/'),
          page('/docs/Norigin-Spatial-Navigation/'),
          page('/docs/Norigin-Spatial-Navigation/CHANGELOG'),
          page('/docs/Norigin-Spatial-Navigation-internal'),
        ],
      },
    ],
  },
  { path: '*' },
];
const isAppRoute = (pathname: string): boolean => isAppRouteIn(routes, pathname);

describe('isAppRouteIn', () => {
  it('knows the pages of the table, ignoring case and a trailing slash as the router does', () => {
    for (const path of ['/', '/blog', '/blog/', '/docs/layout-engine', '/DOCS/Layout-Engine/', '/docs/'])
      expect(isAppRouteIn(routes, path), path).toBe(true);
  });

  it('does not count a path only a layout route or the catch-all matches', () => {
    for (const path of ['/no/such/page', '/docs/no-such-package/', '/docs/layout-engine/missing', '/blogs'])
      expect(isAppRouteIn(routes, path), path).toBe(false);
  });
});

describe('loginRedirectFor', () => {
  const signedOut = { status: 'signedOut', confirmed: true } as const;

  it('sends a signed-out reader of a private page to /login with the page as next', () => {
    expect(loginRedirectFor(signedOut, at('/docs/layout-engine/', '?tab=web', '#setup'), isAppRoute)).toBe(
      '/login?next=%2Fdocs%2Flayout-engine%2F%3Ftab%3Dweb%23setup',
    );
  });

  it('leaves a signed-out reader on a public page', () => {
    for (const path of ['/', '/login', '/docs/', '/docs/Norigin-Spatial-Navigation/CHANGELOG']) {
      expect(loginRedirectFor(signedOut, at(path), isAppRoute)).toBeNull();
    }
  });

  it('treats a look-alike of a public section as private', () => {
    expect(loginRedirectFor(signedOut, at('/docs/Norigin-Spatial-Navigation-internal'), isAppRoute)).toBe(
      '/login?next=%2Fdocs%2FNorigin-Spatial-Navigation-internal',
    );
  });

  it('does nothing while the session is loading or when its answer was unreadable', () => {
    expect(loginRedirectFor({ status: 'loading' }, at('/blog'), isAppRoute)).toBeNull();
    expect(loginRedirectFor({ status: 'signedOut', confirmed: false }, at('/blog'), isAppRoute)).toBeNull();
  });

  it('never sends a signed-in reader to sign in, not even from a page outside their groups', () => {
    expect(loginRedirectFor(partner, at('/blog'), isAppRoute)).toBeNull();
    expect(loginRedirectFor(partner, at('/docs/france24-demo/'), isAppRoute)).toBeNull();
  });

  it('leaves a signed-out reader on the not-found page of an unknown path, anywhere in the site', () => {
    for (const path of ['/no/such/page', '/docs/no-such-package/', '/docs/layout-engine/missing'])
      expect(loginRedirectFor(signedOut, at(path), isAppRoute), path).toBeNull();
  });
});

const partner = {
  status: 'signedIn',
  email: 'partner@example.com',
  groups: ['partner'],
  units: unitsOfGroups(['partner']),
} as const;
const staff = {
  status: 'signedIn',
  email: 'dev@norigin.example',
  groups: ['staff'],
  units: unitsOfGroups(['staff']),
} as const;
const noGroups = { status: 'signedIn', email: 'someone@example.com', groups: [], units: [] } as const;

describe('noAccessReloadFor', () => {
  it("loads a route outside the reader's groups in full, with its query and hash", () => {
    expect(noAccessReloadFor(partner, at('/docs/france24-demo/', '?tab=web', '#setup'), isAppRoute)).toBe(
      '/docs/france24-demo/?tab=web#setup',
    );
  });

  it('lets the app render a route the reader may read', () => {
    expect(noAccessReloadFor(partner, at('/docs/layout-engine/'), isAppRoute)).toBeNull();
    expect(noAccessReloadFor(staff, at('/docs/france24-demo/'), isAppRoute)).toBeNull();
  });

  it('lets every reader open public routes, a reader without groups too', () => {
    expect(noAccessReloadFor(noGroups, at('/docs/Norigin-Spatial-Navigation/'), isAppRoute)).toBeNull();
    expect(noAccessReloadFor(noGroups, at('/docs/layout-engine/'), isAppRoute)).toBe('/docs/layout-engine/');
  });

  it('leaves an unknown path to unknownRouteReloadFor', () => {
    expect(noAccessReloadFor(partner, at('/docs/frontend-guidelines/no-such-page'), isAppRoute)).toBeNull();
  });

  it('leaves signed-out and loading readers to the login redirect and the gate', () => {
    expect(
      noAccessReloadFor({ status: 'signedOut', confirmed: true }, at('/docs/france24-demo/'), isAppRoute),
    ).toBeNull();
    expect(noAccessReloadFor({ status: 'loading' }, at('/docs/france24-demo/'), isAppRoute)).toBeNull();
  });
});

describe('unknownRouteReloadFor', () => {
  it('loads a path this app does not have in full when the app is sent there, with its query and hash', () => {
    expect(unknownRouteReloadFor(at('/docs/layout-engine/9.9.0/', '?q=grid', '#api'), '/docs/', isAppRoute)).toBe(
      '/docs/layout-engine/9.9.0/?q=grid#api',
    );
  });

  it('lets the app render its own pages, whoever may read them (the other rules decide that)', () => {
    expect(unknownRouteReloadFor(at('/docs/france24-demo/'), '/', isAppRoute)).toBeNull();
    expect(unknownRouteReloadFor(at('/docs/Norigin-Spatial-Navigation/changelog/'), '/', isAppRoute)).toBeNull();
  });

  it('never loads the page the server sent again, nor on a change of its query or hash', () => {
    expect(unknownRouteReloadFor(at('/docs/no-such-page'), null, isAppRoute)).toBeNull();
    expect(
      unknownRouteReloadFor(at('/docs/no-such-page', '?from=menu', '#top'), '/docs/no-such-page', isAppRoute),
    ).toBeNull();
  });
});

describe('prefetchDecision', () => {
  it('fetches public routes ahead for anyone, even before the session answers', () => {
    for (const session of [{ status: 'loading' } as const, { status: 'signedOut', confirmed: true } as const, noGroups])
      expect(prefetchDecision(session, '/docs/Norigin-Spatial-Navigation/')).toBe('load');
  });

  it('fetches a private route ahead only for a reader in its groups', () => {
    expect(prefetchDecision(partner, '/docs/layout-engine/')).toBe('load');
    expect(prefetchDecision(partner, '/docs/frontend-guidelines/')).toBe('skip');
    expect(prefetchDecision(staff, '/docs/frontend-guidelines/')).toBe('load');
  });

  it('never fetches a private route ahead for a signed-out reader, confirmed or not', () => {
    expect(prefetchDecision({ status: 'signedOut', confirmed: true }, '/blog')).toBe('skip');
    expect(prefetchDecision({ status: 'signedOut', confirmed: false }, '/blog')).toBe('skip');
  });

  it('holds a private route back while the session is loading', () => {
    expect(prefetchDecision({ status: 'loading' }, '/blog')).toBe('wait');
  });
});
