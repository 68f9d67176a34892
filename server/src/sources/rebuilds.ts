import { type ChildProcess, spawn } from 'node:child_process';

import type { RebuildJob } from '@portal/contract';

export interface RebuildsOptions {
  /** The rebuild command and its arguments, separated by spaces; `--only=<source id>` is added. */
  command: string;
  /**
   * Run after a rebuild has been served, before the next one starts: archives the newest
   * releases ahead of the releases that will replace them (site/src/archives). Null: none.
   */
  archiveCommand: string | null;
  cwd: string;
  /** Serves what the command built (LiveSite.reload, then the broadcast to the other replicas). */
  serve: () => Promise<'replaced' | 'unchanged'>;
  log: { info(object: object, message: string): void; error(object: object, message: string): void };
}

/** The most rebuilds remembered for /admin (the newest). */
const KEPT = 50;
/** The most characters of a failed rebuild's output kept for /admin. */
const OUTPUT_TAIL = 4000;

/**
 * The rebuilds that release hooks ask for, one at a time in the order asked: each runs the
 * rebuild command for one source (sync it, build the site into a new folder, swap the
 * folders: scripts/rebuild.mjs), then serves the new build. A hook for a source that
 * already waits joins that rebuild. A failed rebuild leaves the served site as it was.
 */
export class Rebuilds {
  private readonly jobs: RebuildJob[] = [];
  private queue: Promise<void> = Promise.resolve();
  private nextId = 1;
  private child: ChildProcess | null = null;
  private closed = false;

  constructor(private readonly options: RebuildsOptions) {}

  /** Queues a rebuild of `source`, or returns the one already waiting for it. */
  request(source: string, reason: string): RebuildJob {
    const waiting = this.jobs.find((job) => job.source === source && job.state === 'queued');
    if (waiting) return waiting;
    const job: RebuildJob = {
      id: this.nextId++,
      source,
      reason,
      state: 'queued',
      queuedAt: new Date().toISOString(),
      startedAt: null,
      finishedAt: null,
      error: null,
    };
    this.jobs.unshift(job);
    if (this.jobs.length > KEPT) this.jobs.length = KEPT;
    this.queue = this.queue.then(() => this.run(job));
    return job;
  }

  /** The rebuilds, newest first. */
  list(): RebuildJob[] {
    return this.jobs.map((job) => ({ ...job }));
  }

  /** Stops the running rebuild (the gate is closing) and runs no other. */
  close(): void {
    this.closed = true;
    this.child?.kill('SIGTERM');
  }

  private async run(job: RebuildJob): Promise<void> {
    if (this.closed) {
      Object.assign(job, {
        state: 'failed',
        error: 'the gate closed before it ran',
        finishedAt: new Date().toISOString(),
      });
      return;
    }
    job.state = 'running';
    job.startedAt = new Date().toISOString();
    this.options.log.info({ source: job.source, job: job.id }, 'rebuild started');
    try {
      await this.execute(this.options.command, [`--only=${job.source}`]);
      job.state = (await this.options.serve()) === 'replaced' ? 'served' : 'unchanged';
      this.options.log.info({ source: job.source, job: job.id, state: job.state }, 'rebuild finished');
    } catch (error) {
      job.state = 'failed';
      job.error = (error as Error).message.slice(-OUTPUT_TAIL);
      this.options.log.error({ source: job.source, job: job.id, err: error }, 'rebuild failed');
    } finally {
      job.finishedAt = new Date().toISOString();
    }
    // The release is served; its archive is made while no reader waits for it. A failure
    // costs only time: the next release's rebuild builds what is missing.
    if (job.state === 'served' && this.options.archiveCommand && !this.closed) {
      try {
        await this.execute(this.options.archiveCommand, []);
        this.options.log.info({ source: job.source, job: job.id }, 'newest releases archived');
      } catch (error) {
        this.options.log.error({ source: job.source, job: job.id, err: error }, 'archiving the newest releases failed');
      }
    }
  }

  private execute(commandLine: string, extra: string[]): Promise<void> {
    const [command, ...args] = commandLine.split(' ').filter(Boolean);
    return new Promise((resolve, reject) => {
      let output = '';
      const child = spawn(command as string, [...args, ...extra], {
        cwd: this.options.cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.child = child;
      const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_TAIL));
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      child.on('error', (error) => reject(new Error(`${commandLine} could not start: ${error.message}`)));
      child.on('close', (code, signal) => {
        this.child = null;
        if (code === 0) resolve();
        else reject(new Error(`${output.trim()}\n(${signal ? `stopped by ${signal}` : `exit code ${String(code)}`})`));
      });
    });
  }
}
