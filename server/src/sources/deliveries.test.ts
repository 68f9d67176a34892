import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../db/database.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrations.js';
import { freshDatabase, freshPostgresUrl, type DatabaseKind } from '../test/databases.js';
import { Deliveries, type Delivery } from './deliveries.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe.each<DatabaseKind>(['pglite', 'postgres'])('the memory of release-hook deliveries on %s', (kind) => {
  let db: Database;
  let now = Date.UTC(2026, 10, 30, 10);
  const deliveries = (rebuildsPerHour = 3) =>
    new Deliveries({ db: () => db, clock: () => now, rebuildsPerHour, memoryDays: 7 });
  let count = 0;
  /** A delivery with a body of its own, naming `sources` (none joins a queued rebuild unless said). */
  const delivery = (sources: string[], extra: Partial<Delivery> = {}): Delivery => ({
    body: JSON.stringify({ action: 'published', n: (count += 1) }),
    deliveryId: null,
    event: 'release',
    sources: sources.map((id) => ({ id, joins: false })),
    ...extra,
  });

  beforeAll(async () => {
    db = await freshDatabase(kind);
    await migrate(db);
  });
  afterAll(() => db.close());

  it('takes a delivery once: the same body again is a replay, whatever delivery id it carries', async () => {
    const memory = deliveries();
    const first = delivery(['nav'], { deliveryId: 'guid-1' });
    expect(await memory.admit(first)).toMatchObject({ admitted: true });
    expect(await memory.admit(first)).toEqual({ admitted: false, replay: true });
    expect(await memory.admit({ ...first, deliveryId: 'guid-2' })).toEqual({ admitted: false, replay: true });
    expect(await memory.admit({ ...first, deliveryId: null })).toEqual({ admitted: false, replay: true });
    // A new body under a delivery id already taken is refused too.
    expect(await memory.admit(delivery(['nav'], { deliveryId: 'guid-1' }))).toEqual({ admitted: false, replay: true });
  });

  it('starts at most the hourly number of rebuilds of a source, and says when the next is allowed', async () => {
    const memory = deliveries(3);
    const started = now;
    for (const minutes of [0, 10, 20]) {
      now = started + minutes * MINUTE;
      expect(await memory.admit(delivery(['kit']))).toMatchObject({ admitted: true });
    }
    now = started + 30 * MINUTE;
    expect(await memory.admit(delivery(['kit']))).toEqual({
      admitted: false,
      limited: 'kit',
      retryAfterSeconds: 30 * 60,
    });
    // Another source has its own rate; a delivery that joins a queued rebuild starts none and is taken.
    expect(await memory.admit(delivery(['other']))).toMatchObject({ admitted: true });
    const joining = { ...delivery([]), sources: [{ id: 'kit', joins: true }] };
    expect(await memory.admit(joining)).toMatchObject({ admitted: true });
    // The refused delivery was not remembered: sent again once the hour has moved on, it is taken.
    now = started + 60 * MINUTE + 1000;
    expect(await memory.admit(delivery(['kit']))).toMatchObject({ admitted: true });
  });

  it('refuses a whole delivery when one of its sources is over its rate, and remembers none of it', async () => {
    const memory = deliveries(1);
    expect(await memory.admit(delivery(['solo']))).toMatchObject({ admitted: true });
    const both = delivery(['fresh', 'solo']);
    expect(await memory.admit(both)).toMatchObject({ admitted: false, limited: 'solo' });
    expect(await db.query('select 1 from hook_deliveries where $1 = any(counted)', ['fresh'])).toEqual([]);
  });

  it('counts a rebuild that a delivery meant to join but started, once told', async () => {
    const memory = deliveries(1);
    const joining = { ...delivery([]), sources: [{ id: 'late', joins: true }] };
    const taken = await memory.admit(joining);
    if (!taken.admitted) throw new Error('refused');
    await memory.recount(taken.digest, ['late']);
    expect(await memory.admit(delivery(['late']))).toMatchObject({ admitted: false, limited: 'late' });
  });

  it('forgets deliveries older than its memory, and takes such a body again', async () => {
    const memory = deliveries(100);
    // What the tests before left is past the memory a month on.
    now += 30 * DAY;
    expect(await memory.sweep()).toBeGreaterThan(0);
    const old = delivery(['swept']);
    expect(await memory.admit(old)).toMatchObject({ admitted: true });
    now += 7 * DAY - MINUTE;
    expect(await memory.sweep()).toBe(0);
    expect(await memory.admit(old)).toEqual({ admitted: false, replay: true });
    now += 2 * MINUTE;
    expect(await memory.sweep()).toBe(1);
    expect(await memory.admit(old)).toMatchObject({ admitted: true });
  });
});

describe('replicas taking the same delivery at the same moment', () => {
  it('admit it once between them, on one PostgreSQL database', async () => {
    const url = await freshPostgresUrl();
    const replicas = await Promise.all([1, 2, 3].map(() => openDatabase({ kind: 'postgres', url })));
    try {
      await migrate(replicas[0] as Database);
      const body = JSON.stringify({ action: 'published', release: { tag_name: 'v9.9.9' } });
      const answers = await Promise.all(
        replicas.map((db) =>
          new Deliveries({ db: () => db, clock: Date.now, rebuildsPerHour: 10, memoryDays: 1 }).admit({
            body,
            deliveryId: 'guid-once',
            event: 'release',
            sources: [{ id: 'nav', joins: false }],
          }),
        ),
      );
      expect(answers.filter((answer) => answer.admitted)).toHaveLength(1);
      expect(answers.filter((answer) => 'replay' in answer)).toHaveLength(2);
    } finally {
      await Promise.all(replicas.map((db) => db.close()));
    }
  });
});
