import { describe, expect, it } from 'vitest';

import { SecretCache } from './secret-cache.js';

describe('SecretCache', () => {
  it('asks the store once for a record, and says when it did', async () => {
    const cache = new SecretCache<{ id: string }>(60);
    let asked = 0;
    const load = async () => {
      asked += 1;
      return { id: 'a' };
    };
    expect(await cache.find('h', load)).toEqual({ record: { id: 'a' }, loaded: true });
    expect(await cache.find('h', load)).toEqual({ record: { id: 'a' }, loaded: false });
    expect(asked).toBe(1);
  });

  it('remembers a hash the store did not know, but not a store that could not answer', async () => {
    const cache = new SecretCache<{ id: string }>(60);
    let asked = 0;
    expect(await cache.find('x', async () => (asked++, null))).toBe('unknown');
    expect(await cache.find('x', async () => (asked++, { id: 'late' }))).toBe('unknown');
    expect(asked).toBe(1);
    const failing = async (): Promise<{ id: string }> => {
      throw new Error('down');
    };
    expect(await cache.find('y', failing)).toBe('unavailable');
    expect(await cache.find('y', async () => ({ id: 'y' }))).toEqual({ record: { id: 'y' }, loaded: true });
  });

  it('forgets the records a test picks and keeps the rest', async () => {
    const cache = new SecretCache<{ id: string }>(60);
    cache.set('1', { id: 'one' });
    cache.set('2', { id: 'two' });
    cache.forget((record) => record.id === 'one');
    expect(cache.get('1')).toBeUndefined();
    expect(cache.get('2')).toEqual({ id: 'two' });
  });
});
