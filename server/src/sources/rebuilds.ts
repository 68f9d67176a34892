import { type ChildProcess, spawn } from 'node:child_process';

import type { RebuildJob } from '@portal/contract';

import type { BuildUser } from './build-user.js';

export interface RebuildsOptions {
  /** The rebuild command and its arguments, separated by spaces; `--only=<source id>` is added. */
  command: string;
  /**
   * Run after a rebuild has been served, before the next one starts: archives the newest
   * releases ahead of the releases that will replace them (site/src/archives). Null: none.
   */
  archiveCommand: string | null;
  cwd: string;
  /** The commands' whole environment (config's `sources.buildEnv`): none of the gate's secrets. */
  env: Record<string, string>;
  /** Who the commands run as; null: as the gate. */
  user: BuildUser | null;
  /** A command still running after this is stopped, with every process it started. */
  timeoutMs: number;
  /** Serves what the command built for `job`: a site release every replica serves, or LiveSite.reload and the broadcast. */
  serve: (job: RebuildJob) => Promise<'replaced' | 'unchanged'>;
  log: { info(object: object, message: string): void; error(object: object, message: string): void };
}

/** The most rebuilds remembered for /admin (the newest). */
const KEPT = 50;
/** The most characters of a failed rebuild's output kept for /admin. */
const OUTPUT_TAIL = 4000;
/** How long a stopped command's processes get to end before they are killed. */
const KILL_GRACE_MS = 5000;

/**
 * The rebuild command's exit code when the sync changed nothing the served build was made
 * from, so it built nothing (scripts/rebuild.mjs); a code no Node.js failure exits with.
 */
export const UNCHANGED_EXIT_CODE = 3;

/** "15 minutes", "1 second": a time limit as the job's error says it. */
export function durationText(ms: number): string {
  const [amount, unit] = ms % 60_000 === 0 ? [ms / 60_000, 'minute'] : [Math.round(ms / 1000), 'second'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

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

  /** The rebuild of `source` that waits to start, which a new request for it joins. */
  waiting(source: string): RebuildJob | undefined {
    return this.jobs.find((job) => job.source === source && job.state === 'queued');
  }

  /** Queues a rebuild of `source`, or returns the one already waiting for it. */
  request(source: string, reason: string): RebuildJob {
    const waiting = this.waiting(source);
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
    if (this.child) stopGroup(this.child);
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
      const code = await this.execute(this.options.command, [`--only=${job.source}`], [0, UNCHANGED_EXIT_CODE]);
      // A command that built nothing leaves the served build as it is: it is not read again.
      job.state =
        code === UNCHANGED_EXIT_CODE || (await this.options.serve(job)) !== 'replaced' ? 'unchanged' : 'served';
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
        await this.execute(this.options.archiveCommand, [], [0]);
        this.options.log.info({ source: job.source, job: job.id }, 'newest releases archived');
      } catch (error) {
        this.options.log.error({ source: job.source, job: job.id, err: error }, 'archiving the newest releases failed');
      }
    }
  }

  /** Runs `commandLine` with `extra` arguments; its exit code, when it is one of `succeeded`. */
  private execute(commandLine: string, extra: string[], succeeded: number[]): Promise<number> {
    const [command, ...args] = commandLine.split(' ').filter(Boolean);
    const { env, user, timeoutMs } = this.options;
    return new Promise((resolve, reject) => {
      let output = '';
      let stoppedByTimer = false;
      // Its own process group, so a stop reaches everything it started (npm, Docusaurus, workers).
      const child = spawn(command as string, [...args, ...extra], {
        cwd: this.options.cwd,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        env: user?.home ? { ...env, HOME: user.home } : env,
        ...(user ? { uid: user.uid, gid: user.gid } : {}),
      });
      this.child = child;
      const timer = setTimeout(() => {
        stoppedByTimer = true;
        stopGroup(child);
      }, timeoutMs);
      const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-OUTPUT_TAIL));
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(new Error(`${commandLine} could not start: ${error.message}`));
      });
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        this.child = null;
        if (stoppedByTimer)
          reject(
            new Error(
              `${output.trim()}\n(stopped after ${durationText(timeoutMs)}, the limit SOURCES_REBUILD_TIMEOUT_MINUTES sets; nothing of it is served)`,
            ),
          );
        else if (code !== null && succeeded.includes(code)) resolve(code);
        else reject(new Error(`${output.trim()}\n(${signal ? `stopped by ${signal}` : `exit code ${String(code)}`})`));
      });
    });
  }
}

/** Ends a command's whole process group: asked first, killed if it is still there after the grace. */
function stopGroup(child: ChildProcess): void {
  const signal = (name: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, name);
    } catch {
      // The group has already ended.
    }
  };
  signal('SIGTERM');
  setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS).unref();
}
