import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  getSessionState,
  groupsFromBody,
  licenceEndingFromBody,
  loadSession,
  logout,
  resetSessionStoreForTests,
  sessionWithoutAsking,
  subscribeSession,
} from './session-store';

function answer(status: number, body?: unknown, contentType = 'application/json'): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? {});
  return new Response(status === 204 ? null : text, { status, headers: { 'Content-Type': contentType } });
}

beforeEach(() => resetSessionStoreForTests());
afterEach(() => vi.unstubAllGlobals());

describe('loadSession', () => {
  it('starts as loading, so the server-rendered HTML and the first client render agree', () => {
    expect(getSessionState()).toEqual({ status: 'loading' });
  });

  it('asks GET /api/session with the cookie and without the HTTP cache', async () => {
    const fetchImpl = vi.fn(async () => answer(401, { error: 'no session' }));
    await loadSession(fetchImpl);
    expect(fetchImpl).toHaveBeenCalledWith(
      '/api/session',
      expect.objectContaining({ credentials: 'same-origin', cache: 'no-store' }),
    );
  });

  it('is signed in with the e-mail, the groups and the units the server names', async () => {
    await loadSession(async () =>
      answer(200, { email: 'reader@example.com', groups: ['staff', 'admin'], units: ['internal', 'blog'] }),
    );
    expect(getSessionState()).toEqual({
      status: 'signedIn',
      email: 'reader@example.com',
      groups: ['admin', 'staff'],
      units: ['internal', 'blog'],
      licenceEnding: null,
    });
  });

  it('keeps what the reader stops reading soon, and drops an ending that is not well formed', async () => {
    const ending = {
      organisation: 'Lumen Media',
      units: [{ unit: 'layout', unitLabel: 'Layout Engine', endsAt: '2026-12-12T23:59:59.999Z' }],
    };
    await loadSession(async () =>
      answer(200, { email: 'dev@lumen.example', units: ['layout'], licenceEnding: ending }),
    );
    expect(getSessionState()).toMatchObject({ status: 'signedIn', licenceEnding: ending });
    for (const broken of [
      { organisation: 'Lumen Media', units: [] },
      { organisation: 'Lumen Media', units: [{ unit: 'layout', unitLabel: 'Layout Engine', endsAt: 'soon' }] },
      { organisation: 7, units: ending.units },
      'Lumen Media',
    ])
      expect(licenceEndingFromBody(broken)).toBeNull();
  });

  it('is signed in without groups when the server names none', async () => {
    await loadSession(async () => answer(200, { email: 'reader@example.com' }));
    expect(getSessionState()).toEqual({
      status: 'signedIn',
      email: 'reader@example.com',
      groups: [],
      units: [],
      licenceEnding: null,
    });
  });

  it('is signed out, for certain, when the server answers 401', async () => {
    await loadSession(async () => answer(401, { error: 'no session' }));
    expect(getSessionState()).toEqual({ status: 'signedOut', confirmed: true });
  });

  it('is signed out, without certainty, after a network error', async () => {
    await loadSession(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(getSessionState()).toEqual({ status: 'signedOut', confirmed: false });
  });

  it('is signed out, without certainty, when a development server answers with HTML', async () => {
    await loadSession(async () => answer(200, '<!doctype html><html></html>', 'text/html'));
    expect(getSessionState()).toEqual({ status: 'signedOut', confirmed: false });
  });

  it('is signed out, without certainty, when the identity service is down (503)', async () => {
    await loadSession(async () => answer(503, { error: 'unavailable' }));
    expect(getSessionState()).toEqual({ status: 'signedOut', confirmed: false });
  });

  it('asks the server once per page load and tells subscribers when the answer arrives', async () => {
    const fetchImpl = vi.fn(async () => answer(200, { email: 'reader@example.com' }));
    const listener = vi.fn();
    subscribeSession(listener);
    await Promise.all([loadSession(fetchImpl), loadSession(fetchImpl)]);
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});

describe('sessionWithoutAsking', () => {
  it('knows a visitor without the portal_groups cookie on a public or not-found page is signed out', () => {
    for (const cookie of ['', 'theme=dark', 'xportal_groups=staff', 'portal_groups_old=staff; a=b'])
      expect(sessionWithoutAsking({ cookie, privatePage: false }), cookie).toEqual({
        status: 'signedOut',
        confirmed: true,
      });
  });

  it('asks when the hint cookie is there, whatever its value', () => {
    for (const cookie of ['portal_groups=staff', 'theme=dark; portal_groups=partner.staff', 'portal_groups='])
      expect(sessionWithoutAsking({ cookie, privatePage: false }), cookie).toBeNull();
  });

  it('asks on a page the gate served privately, even without the hint', () => {
    expect(sessionWithoutAsking({ cookie: '', privatePage: true })).toBeNull();
  });
});

describe('loadSession with the page hint', () => {
  it('does not ask the server about a signed-out visitor on a public page', async () => {
    const fetchImpl = vi.fn(async () => answer(401));
    const state = await loadSession(fetchImpl, { cookie: 'theme=dark', privatePage: false });
    expect(fetchImpl).not.toHaveBeenCalled();
    expect(state).toEqual({ status: 'signedOut', confirmed: true });
    expect(getSessionState()).toEqual({ status: 'signedOut', confirmed: true });
  });

  it('asks the server when the hint says a session exists', async () => {
    const fetchImpl = vi.fn(async () =>
      answer(200, { email: 'reader@example.com', groups: ['partner'], units: ['blog'] }),
    );
    await loadSession(fetchImpl, { cookie: 'portal_groups=partner', privatePage: false });
    expect(fetchImpl).toHaveBeenCalledTimes(1);
    expect(getSessionState()).toEqual({
      status: 'signedIn',
      email: 'reader@example.com',
      groups: ['partner'],
      units: ['blog'],
      licenceEnding: null,
    });
  });
});

describe('groupsFromBody', () => {
  it('keeps a list of group names, sorted and without repeats', () => {
    expect(groupsFromBody(['staff', 'partner', 'staff'])).toEqual(['partner', 'staff']);
  });

  it('treats anything but a list of well-formed group names as no groups', () => {
    for (const malformed of [
      undefined,
      null,
      'staff',
      { staff: true },
      [42],
      ['Staff'],
      ['staff', 'partner x'],
      ['staff"><script>'],
      [''],
      Array.from({ length: 17 }, (_, index) => `g${index}`),
    ])
      expect(groupsFromBody(malformed)).toEqual([]);
  });
});

describe('logout', () => {
  it('posts to /api/logout and then loads the home page in full', async () => {
    const assign = vi.fn();
    vi.stubGlobal('window', { location: { assign } });
    const fetchImpl = vi.fn(async () => answer(204));
    await logout(fetchImpl);
    expect(fetchImpl).toHaveBeenCalledWith('/api/logout', expect.objectContaining({ method: 'POST' }));
    expect(assign).toHaveBeenCalledWith('/');
  });

  it('stays on the page and rejects when the server did not end the session', async () => {
    const assign = vi.fn();
    vi.stubGlobal('window', { location: { assign } });
    await expect(logout(async () => answer(500, { error: 'boom' }))).rejects.toThrow('HTTP 500');
    expect(assign).not.toHaveBeenCalled();
  });
});
