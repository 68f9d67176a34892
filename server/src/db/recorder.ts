/**
 * Events written off the request path, in batches. A request only puts its event in a
 * bounded queue; a timer writes what is queued, a batch at a time. When the database
 * cannot be reached the events wait in the queue and the writes retry with a growing
 * delay; when the queue is full, new events are dropped, counted and logged, and pages
 * keep being served. Recording resumes by itself when the database is back.
 */
export interface RecorderOptions<T> {
  /** Writes one batch; throws when it could not (the batch is kept and retried). */
  write: (batch: T[]) => Promise<void>;
  /** Most events held while the database cannot be reached. */
  limit?: number;
  batchSize?: number;
  intervalMs?: number;
  /** Longest wait between retries while the database is down. */
  maxBackoffMs?: number;
  log: {
    warn(object: Record<string, unknown>, message: string): void;
    info(object: Record<string, unknown>, message: string): void;
  };
  /** Named in the log lines. */
  name: string;
  /**
   * How many events an item holds (1 unless told): the queue's limit and the counts are in
   * events, so a queued block of page views (page-views.ts) counts as its views.
   */
  size?: (item: T) => number;
}

export interface RecorderStats {
  queued: number;
  written: number;
  dropped: number;
  failedWrites: number;
}

export class EventRecorder<T> {
  private queue: T[] = [];
  /** Events in the queue (the items' sizes added up). */
  private queued = 0;
  private written = 0;
  private dropped = 0;
  private failedWrites = 0;
  private flushing: Promise<void> | null = null;
  /** A drain queued behind the one under way (see flush). */
  private following: Promise<void> | null = null;
  private followingForced = false;
  private retryAt = 0;
  private backoffMs = 0;
  private lastDropLog = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly options: RecorderOptions<T>) {
    this.timer = setInterval(() => void this.flush(), options.intervalMs ?? 1000);
    this.timer.unref();
  }

  /** Whether `events` more events would pass the queue's limit (and be dropped). */
  full(events = 1): boolean {
    return this.queued + events > (this.options.limit ?? 10_000);
  }

  /** Counts events dropped before they reached the queue, and says so in the log now and then. */
  drop(events: number): void {
    this.dropped += events;
    const now = Date.now();
    if (now - this.lastDropLog > 10_000) {
      this.lastDropLog = now;
      this.options.log.warn(
        { recorder: this.options.name, dropped: this.dropped, queued: this.queued },
        'event queue full while the database cannot be reached: new events are dropped',
      );
    }
  }

  record(event: T): void {
    const size = this.options.size?.(event) ?? 1;
    if (this.full(size)) return this.drop(size);
    this.queue.push(event);
    this.queued += size;
    if (this.queue.length >= (this.options.batchSize ?? 500)) void this.flush(false, true);
  }

  /**
   * Writes what is queued (unless a retry is not due yet); resolves when every event queued
   * before the call is written, or a write failed.
   * With `fullOnly`, only whole batches: under load the queue is written in batches of
   * `batchSize`, not in the dribs that arrive while a write is under way (each statement
   * has a cost of its own); the timer writes the rest.
   */
  flush(force = false, fullOnly = false): Promise<void> {
    if (this.flushing === null) {
      this.flushing = this.drain(force, fullOnly).finally(() => {
        this.flushing = null;
      });
      return this.flushing;
    }
    if (fullOnly) return this.flushing;
    // A write is under way, and the drain it belongs to may write whole batches only, or
    // may have been one the backoff cut short: after it, write the rest, so the promise
    // covers every event queued before this call (the audit trail reads its own writes).
    // Forced when any of the callers waiting for it asked for that.
    this.followingForced ||= force;
    this.following ??= this.flushing.then(() => {
      const forced = this.followingForced;
      this.following = null;
      this.followingForced = false;
      return this.flush(forced);
    });
    return this.following;
  }

  private async drain(force: boolean, fullOnly: boolean): Promise<void> {
    if (!force && Date.now() < this.retryAt) return;
    const size = this.options.batchSize ?? 500;
    while (this.queue.length >= (fullOnly ? size : 1)) {
      const batch = this.queue.slice(0, size);
      try {
        await this.options.write(batch);
      } catch (error) {
        this.failedWrites += 1;
        this.backoffMs = Math.min(
          this.backoffMs === 0 ? 1000 : this.backoffMs * 2,
          this.options.maxBackoffMs ?? 30_000,
        );
        this.retryAt = Date.now() + this.backoffMs;
        if (this.failedWrites === 1 || this.backoffMs === (this.options.maxBackoffMs ?? 30_000))
          this.options.log.warn(
            { recorder: this.options.name, queued: this.queued, err: (error as Error).message },
            'cannot write events to the database; keeping them and retrying',
          );
        return;
      }
      this.queue.splice(0, batch.length);
      const sizeOf = this.options.size;
      const events = sizeOf ? batch.reduce((sum, item) => sum + sizeOf(item), 0) : batch.length;
      this.queued -= events;
      this.written += events;
      if (this.backoffMs > 0) {
        this.options.log.info({ recorder: this.options.name, dropped: this.dropped }, 'writing events again');
        this.backoffMs = 0;
        this.retryAt = 0;
      }
    }
  }

  get stats(): RecorderStats {
    return { queued: this.queued, written: this.written, dropped: this.dropped, failedWrites: this.failedWrites };
  }

  /** Stops the timer and writes what is left, once. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush(true);
  }
}
