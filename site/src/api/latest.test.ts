import { describe, expect, it } from 'vitest';

import { createLatest } from './latest';

/** A promise and the function that settles it, to let answers arrive in any order. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

describe('createLatest', () => {
  it('keeps the answer to the newest load when an older one arrives last', async () => {
    const latest = createLatest();
    const shown: string[] = [];
    const load = async (answer: Promise<string>): Promise<void> => {
      const isNewest = latest.begin();
      const value = await answer;
      if (isNewest()) shown.push(value);
    };
    const everyone = deferred<string>();
    const filtered = deferred<string>();
    const first = load(everyone.promise);
    const second = load(filtered.promise);
    filtered.resolve('readers matching "ann"');
    await second;
    everyone.resolve('all readers');
    await first;
    expect(shown).toEqual(['readers matching "ann"']);
  });

  it('counts loads per panel, so one panel’s load never makes another’s stale', () => {
    const readers = createLatest();
    const tokens = createLatest();
    const readersLoad = readers.begin();
    const tokensLoad = tokens.begin();
    expect(readersLoad()).toBe(true);
    expect(tokensLoad()).toBe(true);
    const newerReaders = readers.begin();
    expect(readersLoad()).toBe(false);
    expect(newerReaders()).toBe(true);
    expect(tokensLoad()).toBe(true);
  });
});
