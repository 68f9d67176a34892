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

  it("counts a row of page views: a reader's views of a page in an hour, and how they read it", () => {
    expect(describeDetail('page.view', { views: 1, lastAt: '2026-11-22T21:14:00.000Z' })).toBe('1 view in the hour');
    expect(describeDetail('page.view', { views: 240, via: 'mcp' })).toBe('240 views in the hour, by MCP');
    expect(describeDetail('page.view', { views: 3, via: 'token' })).toBe('3 views in the hour, with a token');
  });

  it('writes a time or nothing', () => {
    expect(formatTime('2026-11-22T21:14:00.000Z')).toMatch(/22 Nov 2026/);
    expect(formatTime(null)).toBeNull();
    expect(formatTime('not a date')).toBeNull();
  });
});
