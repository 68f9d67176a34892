import { createHash } from 'node:crypto';

import type { Database } from '../db/database.js';

export interface DeliveriesOptions {
  /** The store the replicas share (hook_deliveries, migration 014). */
  db: () => Database;
  /** Milliseconds since the epoch: injected so the rate's window is testable. */
  clock: () => number;
  /** Rebuilds the hooks of one source may start in an hour. */
  rebuildsPerHour: number;
  /** How long a delivery is remembered. */
  memoryDays: number;
}

/** A signed delivery that names sources to rebuild. */
export interface Delivery {
  /** The signed bytes, exactly as sent. */
  body: string;
  /** X-GitHub-Delivery, when the sender gave one (no signature covers it). */
  deliveryId: string | null;
  event: string;
  /** Each source it names, and whether its request joins a rebuild already queued (and so starts none). */
  sources: { id: string; joins: boolean }[];
}

export type Admission =
  | { admitted: true; digest: string }
  | { admitted: false; replay: true }
  | { admitted: false; limited: string; retryAfterSeconds: number };

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
/** Taken by every replica admitting a delivery, so two cannot both take a source's last place. */
const ADMISSION_LOCK = 727_365_014;

/** Refuses inside the transaction, so what it wrote is rolled back. */
class Refusal extends Error {
  constructor(readonly admission: Admission) {
    super('refused');
  }
}

/**
 * The memory of release-hook deliveries, shared by the replicas through PostgreSQL: a delivery
 * is admitted once (by its signed body's digest, and by its delivery id), and a source's hooks
 * start at most `rebuildsPerHour` rebuilds in any hour.
 */
export class Deliveries {
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: DeliveriesOptions) {}

  async admit(delivery: Delivery): Promise<Admission> {
    const now = this.options.clock();
    const digest = createHash('sha256').update(delivery.body).digest('hex');
    const counted = delivery.sources.filter((source) => !source.joins).map((source) => source.id);
    let admission: Admission = { admitted: true, digest };
    try {
      await this.options.db().transaction(async (tx) => {
        await tx.query('select pg_advisory_xact_lock($1)', [ADMISSION_LOCK]);
        const inserted = await tx.query(
          `insert into hook_deliveries (digest, delivery_id, event, counted, received_at)
           values ($1, $2, $3, $4::text[], $5::timestamptz) on conflict do nothing returning digest`,
          [digest, delivery.deliveryId, delivery.event, counted, new Date(now).toISOString()],
        );
        if (inserted.length === 0) throw new Refusal({ admitted: false, replay: true });
        for (const source of counted) {
          const [rate] = await tx.query<{ started: number; oldest: string | Date | null }>(
            `select count(*)::int as started, min(received_at) as oldest from hook_deliveries
             where $1 = any(counted) and received_at > $2::timestamptz and digest <> $3`,
            [source, new Date(now - HOUR).toISOString(), digest],
          );
          if (rate && rate.started >= this.options.rebuildsPerHour) {
            const frees = new Date(rate.oldest as string | Date).getTime() + HOUR;
            throw new Refusal({
              admitted: false,
              limited: source,
              retryAfterSeconds: Math.max(1, Math.ceil((frees - now) / 1000)),
            });
          }
        }
      });
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      admission = error.admission;
    }
    if (now - this.lastSweep >= HOUR) {
      this.lastSweep = now;
      // The delivery is already taken: a sweep that fails is tried again an hour on.
      await this.sweep(now).catch(() => undefined);
    }
    return admission;
  }

  /** Records what a delivery really started, when a queued rebuild it meant to join had started meanwhile. */
  async recount(digest: string, started: string[]): Promise<void> {
    await this.options
      .db()
      .query('update hook_deliveries set counted = $2::text[] where digest = $1', [digest, started]);
  }

  /** Forgets a delivery whose builds could not be queued, so that GitHub's redelivery of it is taken. */
  async forget(digest: string): Promise<void> {
    await this.options.db().query('delete from hook_deliveries where digest = $1', [digest]);
  }

  /** Forgets deliveries older than the memory; returns how many. */
  async sweep(now = this.options.clock()): Promise<number> {
    const [gone] = await this.options
      .db()
      .query<{ n: number }>(
        'with gone as (delete from hook_deliveries where received_at < $1::timestamptz returning 1) select count(*)::int as n from gone',
        [new Date(now - this.options.memoryDays * DAY).toISOString()],
      );
    return gone?.n ?? 0;
  }
}
