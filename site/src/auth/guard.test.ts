import { describe, expect, it } from 'vitest';

import { loginRedirectFor } from './guard';

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

  it('leaves a signed-in reader anywhere', () => {
    expect(loginRedirectFor({ status: 'signedIn', email: 'reader@example.com' }, at('/blog'))).toBeNull();
  });
});
