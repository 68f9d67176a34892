import { afterEach, describe, expect, it, vi } from 'vitest';

import { reportSearch } from './report';

afterEach(() => vi.unstubAllGlobals());

function gate(fail = false): { url: string; init: RequestInit }[] {
  const sent: { url: string; init: RequestInit }[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return fail
      ? Promise.reject(new TypeError('Failed to fetch'))
      : Promise.resolve(new Response(null, { status: 204 }));
  });
  return sent;
}

describe('reportSearch', () => {
  it('tells the gate the finished query and its result count, surviving the page’s end', () => {
    const sent = gate();
    reportSearch('  useFocusable  ', 3);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toBe('/api/search-events');
    expect(sent[0]?.init).toMatchObject({ method: 'POST', keepalive: true, credentials: 'same-origin' });
    expect(JSON.parse(String(sent[0]?.init.body))).toEqual({ query: 'useFocusable', results: 3 });
  });

  it('sends at most 200 characters of a query', () => {
    const sent = gate();
    reportSearch('a'.repeat(500), 0);
    expect((JSON.parse(String(sent[0]?.init.body)) as { query: string }).query).toHaveLength(200);
  });

  it('sends nothing for a blank query', () => {
    const sent = gate();
    reportSearch('   ', 0);
    expect(sent).toEqual([]);
  });

  it('costs the reader nothing when the gate cannot be reached', async () => {
    gate(true);
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      expect(() => reportSearch('player', 1)).not.toThrow();
      // Node reports an unhandled rejection once the microtasks have run, before the next macrotask.
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
