import { describe, expect, it } from 'vitest';

import { EventRecorder } from './recorder.js';

const quiet = { warn: () => undefined, info: () => undefined };

/** A write the test lets finish when it chooses. */
function gatedWrites() {
  const written: string[][] = [];
  const waiting: Array<() => void> = [];
  let failNext = false;
  const write = (batch: string[]) =>
    new Promise<void>((resolve, reject) => {
      waiting.push(() => {
        if (failNext) {
          failNext = false;
          return reject(new Error('database unreachable'));
        }
        written.push([...batch]);
        resolve();
      });
    });
  const release = async () => {
    for (let next = waiting.shift(); next; next = waiting.shift()) {
      next();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { written, write, release, failOnce: () => (failNext = true) };
}

describe('the event recorder', () => {
  it('resolves a flush only when every event queued before it is written, even behind a write under way', async () => {
    const writes = gatedWrites();
    const recorder = new EventRecorder<string>({ name: 'test', write: writes.write, batchSize: 2, log: quiet });
    recorder.record('a');
    recorder.record('b'); // a whole batch: a write of whole batches starts
    recorder.record('c'); // queued while that write is under way
    let done = false;
    const flushed = recorder.flush().then(() => (done = true));
    await writes.release();
    await new Promise((resolve) => setImmediate(resolve));
    await writes.release();
    await flushed;
    expect(done).toBe(true);
    expect(writes.written.flat()).toEqual(['a', 'b', 'c']);
    expect(recorder.stats).toMatchObject({ queued: 0, written: 3 });
    await recorder.close();
  });

  it('keeps the events of a failed write, and a forced flush writes them', async () => {
    const writes = gatedWrites();
    const recorder = new EventRecorder<string>({ name: 'test', write: writes.write, log: quiet });
    recorder.record('a');
    writes.failOnce();
    const first = recorder.flush();
    await writes.release();
    await first;
    expect(recorder.stats).toMatchObject({ queued: 1, written: 0, failedWrites: 1 });
    // The backoff holds an unforced flush back; a forced one writes.
    await recorder.flush();
    expect(recorder.stats.written).toBe(0);
    const forced = recorder.flush(true);
    await writes.release();
    await forced;
    expect(writes.written).toEqual([['a']]);
    expect(recorder.stats).toMatchObject({ queued: 0, written: 1 });
    await recorder.close();
  });

  it('forces the write that follows one under way when any caller waiting for it forces', async () => {
    const writes = gatedWrites();
    const recorder = new EventRecorder<string>({ name: 'test', write: writes.write, batchSize: 2, log: quiet });
    recorder.record('a');
    writes.failOnce();
    const failed = recorder.flush(); // fails: a retry is not due for a second
    recorder.record('b');
    const unforced = recorder.flush(); // waits behind the failing write
    const forced = recorder.flush(true); // the same wait, but this caller forces
    await writes.release();
    await failed;
    await new Promise((resolve) => setImmediate(resolve));
    await writes.release();
    await Promise.all([unforced, forced]);
    expect(writes.written.flat()).toEqual(['a', 'b']);
    await recorder.close();
  });

  it('drops what passes the limit and counts it', async () => {
    const writes = gatedWrites();
    const recorder = new EventRecorder<string>({ name: 'test', write: writes.write, limit: 2, log: quiet });
    for (const event of ['a', 'b', 'c', 'd']) recorder.record(event);
    expect(recorder.stats).toMatchObject({ queued: 2, dropped: 2 });
    const flushed = recorder.flush();
    await writes.release();
    await flushed;
    expect(writes.written.flat()).toEqual(['a', 'b']);
    await recorder.close();
  });
});
