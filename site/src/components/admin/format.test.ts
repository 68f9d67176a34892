import { describe, expect, it } from 'vitest';

import { formatTime } from './format';

describe('what the admin pages show of an event', () => {
  it('writes a time or nothing', () => {
    expect(formatTime('2026-11-22T21:14:00.000Z')).toMatch(/22 Nov 2026/);
    expect(formatTime(null)).toBeNull();
    expect(formatTime('not a date')).toBeNull();
  });
});
