import { describe, expect, it } from 'vitest';

import { REQUEST_ID, requestIds } from './request-id.js';

describe('request ids', () => {
  it('are unique within a process and between processes, in the documented form', () => {
    const one = requestIds();
    const two = requestIds();
    const ids = new Set<string>();
    for (let i = 0; i < 50_000; i++) {
      for (const id of [one(), two()]) {
        expect(id).toMatch(REQUEST_ID);
        ids.add(id);
      }
    }
    expect(ids.size).toBe(100_000);
    // Two processes (two generators) never share a prefix in practice: 72 random bits each.
    expect(one().slice(0, 12)).not.toBe(two().slice(0, 12));
  });
});
