import { PgBoss, type Db, type JobWithMetadata } from 'pg-boss';

import type { RebuildJob } from '@portal/contract';

import type { Database } from '../db/database.js';

/** The queue's name in pg-boss's tables (its own schema, `pgboss`, in the portal's database). */
const QUEUE = 'site-build';
/** Every build is of the one site: one at a time across every builder (pg-boss's group limit, and a lock). */
const GROUP = { id: 'site' };
/** The advisory lock a builder holds while it builds: pg-boss's group limit alone let two builders overlap. */
const BUILD_LOCK = 0x5173_b11d;
/** The most builds listed for /admin (the newest). */
const LISTED = 50;
/** How often a builder looks for a job when none is waiting. */
const POLL_SECONDS = 1;

export interface BuildRequest {
  source: string;
  reason: string;
}

/** What a finished build did: served a new release, or found nothing to change. */
export type BuildOutcome = 'served' | 'unchanged';

export interface BuildQueueOptions {
  db: Database;
  /** A build still running after this is given up by the queue (the builder stops it sooner). */
  timeoutMs: number;
  log: { warn(object: object, message: string): void };
}

/**
 * The builds release hooks ask for, as jobs in PostgreSQL (pg-boss, over the portal's own
 * database: PGlite or a PostgreSQL server). A gate only adds jobs; a builder works them
 * (`work`), one at a time across every builder; a request for a source that already waits
 * joins that job. Each job keeps what came of it, for /admin/sources, on every replica.
 */
export class BuildQueue {
  private constructor(
    private readonly boss: PgBoss,
    private readonly options: BuildQueueOptions,
  ) {}

  /** Opens the queue: pg-boss's schema is made or brought up to date on first use. */
  static async open(options: BuildQueueOptions): Promise<BuildQueue> {
    const boss = new PgBoss({
      db: executor(options.db),
      ...(options.db.kind === 'pglite' ? { backend: 'pglite' as const } : {}),
      schedule: false,
    });
    boss.on('error', (error) => options.log.warn({ err: error }, 'the build queue reported an error'));
    await boss.start();
    await boss.createQueue(QUEUE, {
      policy: 'short',
      retryLimit: 0,
      // pg-boss's own limit, past the builder's: a builder that died mid-build frees the queue.
      expireInSeconds: Math.ceil(options.timeoutMs / 1000) + 60,
      deleteAfterSeconds: 30 * 24 * 60 * 60,
    });
    return new BuildQueue(boss, options);
  }

  /** Queues a build of `source`, or joins the one already waiting for it; the job, and whether it joined. */
  async request({ source, reason }: BuildRequest): Promise<{ job: RebuildJob; joined: boolean }> {
    const id = await this.boss.send(QUEUE, { source, reason }, { singletonKey: source, group: GROUP });
    if (id !== null) {
      const made = (await this.boss.findJobs<BuildRequest>(QUEUE, { id }))[0];
      if (made) return { job: jobOf(made), joined: false };
    }
    const waiting = await this.waiting(source);
    if (waiting) return { job: waiting, joined: true };
    // Started between the two reads: ask once more, now that nothing waits.
    return this.request({ source, reason });
  }

  /** The build of `source` that waits to start, which a new request for it joins. */
  async waiting(source: string): Promise<RebuildJob | undefined> {
    const [job] = await this.boss.findJobs<BuildRequest>(QUEUE, { key: source, queued: true });
    return job && jobOf(job);
  }

  /** The builds, newest first. */
  async list(): Promise<RebuildJob[]> {
    const jobs = await this.boss.findJobs<BuildRequest>(QUEUE, { limit: 100_000 });
    return jobs
      .map(jobOf)
      .sort((a, b) => b.queuedAt.localeCompare(a.queuedAt))
      .slice(0, LISTED);
  }

  /**
   * Works the queue: `build` gets each job in turn (one at a time across every builder); what
   * it answers is the job's outcome, what it throws the job's error.
   */
  async work(build: (job: BuildRequest & { id: string }) => Promise<BuildOutcome>): Promise<void> {
    await this.boss.work<BuildRequest, { state: BuildOutcome }>(
      QUEUE,
      { batchSize: 1, localConcurrency: 1, groupConcurrency: 1, pollingIntervalSeconds: POLL_SECONDS },
      async ([job]) => {
        if (!job) throw new Error('the queue handed over no job');
        const data = { ...job.data, id: job.id };
        return { state: await this.options.db.exclusive(BUILD_LOCK, () => build(data)) };
      },
    );
  }

  /** Whether a job waits or runs: a builder that drains the queue stops when none does. */
  async busy(): Promise<boolean> {
    const jobs = await this.boss.findJobs(QUEUE, { limit: 100_000 });
    return jobs.some((job) => job.state === 'created' || job.state === 'retry' || job.state === 'active');
  }

  /** Stops working (a running build is waited for up to `graceMs`) and closes the queue. */
  async close(graceMs = 0): Promise<void> {
    await this.boss.stop({ graceful: graceMs > 0, timeout: Math.max(graceMs, 1000), close: false });
  }
}

/** pg-boss's statements through the portal's database: no second pool, and PGlite's one connection shared. */
function executor(db: Database): Db {
  return {
    executeSql: async (text: string, values?: unknown[]) => ({
      rows: values?.length ? await db.query(text, values) : await db.script(text),
    }),
  };
}

/** A pg-boss job as /admin/sources shows it. */
function jobOf(job: JobWithMetadata<BuildRequest>): RebuildJob {
  const output = (job.output ?? {}) as { state?: BuildOutcome; message?: string };
  const state: RebuildJob['state'] =
    job.state === 'created' || job.state === 'retry'
      ? 'queued'
      : job.state === 'active'
        ? 'running'
        : job.state === 'completed'
          ? (output.state ?? 'served')
          : 'failed';
  return {
    id: job.id,
    source: job.data.source,
    reason: job.data.reason,
    state,
    queuedAt: new Date(job.createdOn).toISOString(),
    startedAt: state === 'queued' || !job.startedOn ? null : new Date(job.startedOn).toISOString(),
    finishedAt: job.completedOn ? new Date(job.completedOn).toISOString() : null,
    error:
      state === 'failed'
        ? (output.message ?? (job.state === 'cancelled' ? 'the build was cancelled' : 'the build ended without a word'))
        : null,
  };
}
