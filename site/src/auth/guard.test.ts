import { describe, expect, it } from 'vitest';

import { loginRedirectFor, noAccessReloadFor, prefetchDecision } from './guard';

const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash });

describe('loginRedirectFor', () => {
  const signedOut = { status: 'signedOut', confirmed: true } as const;

  it('sends a signed-out reader of a private page to /login with the page as next', () => {
    expect(loginRedirectFor(signedOut, at('/docs/layout-engine/', '?tab=web', '#setup'))).toBe(
      '/login?next=%2Fdocs%2Flayout-engine%2F%3Ftab%3Dweb%23setup',
    );
  });

  it('leaves a signed-out reader on a public page', () => {
    for (const path of ['/', '/login', '/docs/', '/docs/Norigin-Spatial-Navigation/CHANGELOG']) {
      expect(loginRedirectFor(signedOut, at(path))).toBeNull();
    }
  });

  it('treats a look-alike of a public section as private', () => {
    expect(loginRedirectFor(signedOut, at('/docs/Norigin-Spatial-Navigation-internal'))).toBe(
      '/login?next=%2Fdocs%2FNorigin-Spatial-Navigation-internal',
    );
  });

  it('does nothing while the session is loading or when its answer was unreadable', () => {
    expect(loginRedirectFor({ status: 'loading' }, at('/blog'))).toBeNull();
    expect(loginRedirectFor({ status: 'signedOut', confirmed: false }, at('/blog'))).toBeNull();
  });

  it('never sends a signed-in reader to sign in, not even from a page outside their groups', () => {
    expect(loginRedirectFor(partner, at('/blog'))).toBeNull();
    expect(loginRedirectFor(partner, at('/docs/france24-demo/'))).toBeNull();
  });
});

const partner = { status: 'signedIn', email: 'partner@example.com', groups: ['partner'] } as const;
const staff = { status: 'signedIn', email: 'dev@norigin.example', groups: ['staff'] } as const;
const noGroups = { status: 'signedIn', email: 'someone@example.com', groups: [] } as const;

describe('noAccessReloadFor', () => {
  it("loads a route outside the reader's groups in full, with its query and hash", () => {
    expect(noAccessReloadFor(partner, at('/docs/france24-demo/', '?tab=web', '#setup'))).toBe(
      '/docs/france24-demo/?tab=web#setup',
    );
  });

  it('lets the app render a route the reader may read', () => {
    expect(noAccessReloadFor(partner, at('/docs/layout-engine/'))).toBeNull();
    expect(noAccessReloadFor(staff, at('/docs/france24-demo/'))).toBeNull();
  });

  it('lets every reader open public routes, a reader without groups too', () => {
    expect(noAccessReloadFor(noGroups, at('/docs/Norigin-Spatial-Navigation/'))).toBeNull();
    expect(noAccessReloadFor(noGroups, at('/docs/layout-engine/'))).toBe('/docs/layout-engine/');
  });

  it('leaves signed-out and loading readers to the login redirect and the gate', () => {
    expect(noAccessReloadFor({ status: 'signedOut', confirmed: true }, at('/docs/france24-demo/'))).toBeNull();
    expect(noAccessReloadFor({ status: 'loading' }, at('/docs/france24-demo/'))).toBeNull();
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
