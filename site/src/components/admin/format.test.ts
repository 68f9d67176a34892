import { describe, expect, it } from 'vitest';

import { describeDetail, formatTime } from './format';

describe('what the admin pages show of an event', () => {
  it('says what changed in a group change, an invitation and a refusal', () => {
    expect(
      describeDetail('admin.groups', { before: { groups: ['partner'] }, after: { groups: ['partner', 'staff'] } }),
    ).toBe('groups partner → partner, staff');
    expect(describeDetail('admin.invite', { method: 'provider', after: { groups: ['partner'] } })).toBe(
      'by e-mail, for GitHub; groups partner',
    );
    expect(describeDetail('session.refused', { code: 'no-access' })).toBe('no access');
    expect(describeDetail('admin.groups', { before: {}, after: { groups: [] } })).toBe('groups none → none');
  });

  it('writes a time or nothing', () => {
    expect(formatTime('2026-11-22T21:14:00.000Z')).toMatch(/22 Nov 2026/);
    expect(formatTime(null)).toBeNull();
    expect(formatTime('not a date')).toBeNull();
  });
});
