import { afterEach, describe, expect, it, vi } from 'vitest';

import { stubApi } from '@site/src/api/fetch-stub';

import { adminApi, AdminApiError, failureMessage, query } from './api';

afterEach(() => vi.unstubAllGlobals());

const adminRoutes = stubApi;

describe('query', () => {
  it('writes only the parameters that are set', () => {
    expect(query({ q: 'ann', group: '', status: undefined, sort: null, page: 2 })).toBe('?q=ann&page=2');
  });

  it('writes nothing when none is set', () => {
    expect(query({ q: '', reader: undefined })).toBe('');
  });

  it('encodes what a reader typed', () => {
    expect(query({ reader: 'ann+tv@example.com', q: 'a&b=c' })).toBe('?reader=ann%2Btv%40example.com&q=a%26b%3Dc');
  });

  it('keeps a zero, which is a value', () => {
    expect(query({ days: 0 })).toBe('?days=0');
  });
});

describe('the admin pages’ calls', () => {
  it('reads readers, the trail, insights and tokens with their filters', async () => {
    const calls = adminRoutes();
    await adminApi.readers({ q: 'ann', group: 'partner', status: '', sort: 'email', page: 2, limit: 50 });
    await adminApi.audit({ kind: 'page.view', reader: 'ann@example.com', before: 'e9', limit: 100 });
    await adminApi.insights({ group: undefined, days: 30 });
    await adminApi.tokens('ann@example.com');
    await adminApi.tokens(undefined);
    expect(calls.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'GET /api/admin/readers?q=ann&group=partner&sort=email&page=2&limit=50',
      'GET /api/admin/audit?kind=page.view&reader=ann%40example.com&before=e9&limit=100',
      'GET /api/admin/insights?days=30',
      'GET /api/admin/tokens?reader=ann%40example.com',
      'GET /api/admin/tokens',
    ]);
  });

  it('changes readers at paths that carry their id encoded', async () => {
    const calls = adminRoutes();
    await adminApi.setGroups('uid/1', ['partner', 'staff']);
    await adminApi.setDisabled('uid/1', true);
    await adminApi.setDisabled('uid/1', false);
    await adminApi.invite('new@example.com', ['partner'], 'provider');
    expect(calls).toEqual([
      { method: 'PUT', url: '/api/admin/readers/uid%2F1/groups', body: { groups: ['partner', 'staff'] } },
      { method: 'POST', url: '/api/admin/readers/uid%2F1/disable', body: undefined },
      { method: 'POST', url: '/api/admin/readers/uid%2F1/enable', body: undefined },
      {
        method: 'POST',
        url: '/api/admin/invitations',
        body: { email: 'new@example.com', groups: ['partner'], method: 'provider' },
      },
    ]);
  });

  it('deletes readers, invitations and tokens, answering nothing', async () => {
    const calls = adminRoutes(204);
    await expect(adminApi.remove('uid 2')).resolves.toBeUndefined();
    await adminApi.withdraw('a+b@example.com');
    await adminApi.revokeToken('tok#1');
    expect(calls.map(({ method, url }) => `${method} ${url}`)).toEqual([
      'DELETE /api/admin/readers/uid%202',
      'DELETE /api/admin/invitations/a%2Bb%40example.com',
      'DELETE /api/admin/tokens/tok%231',
    ]);
  });

  it('names an export with its filters and format, asking nothing', () => {
    const calls = adminRoutes();
    expect(adminApi.exportUrl('csv', { kind: 'admin.groups', reader: '', from: '2026-11-01' })).toBe(
      '/api/admin/audit?kind=admin.groups&from=2026-11-01&format=csv',
    );
    expect(calls).toEqual([]);
  });

  it('fails with the server’s reason', async () => {
    adminRoutes(400, { error: 'unknown group "guests"' });
    const failure = await adminApi.setGroups('u1', ['guests']).catch((caught: unknown) => caught);
    expect(failure).toBeInstanceOf(AdminApiError);
    expect(failure).toMatchObject({ status: 400, message: 'unknown group "guests"' });
  });
});

describe('the words for a failed admin call', () => {
  it('prefers the server’s reason, even to a lost session', () => {
    expect(failureMessage(401, { error: 'session revoked' })).toBe('session revoked');
  });

  it.each([
    [401, 'Your session has ended. Sign in again.'],
    [403, 'This needs an administrator account.'],
    [429, 'Too many changes in a minute. Wait a moment, then try again.'],
    [500, 'The portal could not do that right now. Nothing was changed; try again shortly.'],
    [503, 'The portal could not do that right now. Nothing was changed; try again shortly.'],
    [404, 'The portal answered 404.'],
  ])('says what %i means without a reason', (status, words) => {
    expect(failureMessage(status, null)).toBe(words);
  });
});
