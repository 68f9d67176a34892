import { describe, expect, it } from 'vitest';

import { describeExpiry, expiryChoices, statusOf } from './format';

const NOW = Date.parse('2026-03-10T12:00:00Z');
const inDays = (days: number): string => new Date(NOW + days * 86_400_000).toISOString();

describe('the choices of expiry', () => {
  it('offers a week, a month and the longest the server allows', () => {
    expect(expiryChoices(90)).toEqual([7, 30, 90]);
  });

  it('never offers more than the server allows, and always offers its limit', () => {
    expect(expiryChoices(14)).toEqual([7, 14]);
    expect(expiryChoices(3)).toEqual([3]);
  });
});

describe('a token’s status and expiry', () => {
  it('calls a token past its expiry expired, and a revoked one revoked whatever its expiry', () => {
    expect(statusOf({ expiresAt: inDays(1), revokedAt: null }, NOW)).toBe('active');
    expect(statusOf({ expiresAt: inDays(-1), revokedAt: null }, NOW)).toBe('expired');
    expect(statusOf({ expiresAt: inDays(5), revokedAt: inDays(-1) }, NOW)).toBe('revoked');
  });

  it('says how long a live token has left: a new 7-day token has 7 days, the last day and a half in hours', () => {
    expect(describeExpiry({ expiresAt: inDays(7 - 1e-6), revokedAt: null }, NOW)).toMatch(/\(in 7 days\)$/);
    expect(describeExpiry({ expiresAt: inDays(30), revokedAt: null }, NOW)).toMatch(/\(in 30 days\)$/);
    expect(describeExpiry({ expiresAt: inDays(1.25), revokedAt: null }, NOW)).toMatch(/\(in 30 hours\)$/);
    expect(describeExpiry({ expiresAt: inDays(0.01), revokedAt: null }, NOW)).toMatch(/\(within the hour\)$/);
    expect(describeExpiry({ expiresAt: inDays(-2), revokedAt: null }, NOW)).toMatch(/^ended /);
  });
});
