import { type ChildProcess, spawn } from 'node:child_process';

import type { BuildUser } from './build-user.js';

export interface BuildRunnerOptions {
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
  /** Who the commands run as; null: as this process. */
  user: BuildUser | null;
  /** A command still running after this is stopped, with every process it started. */
  timeoutMs: number;
  /** Serves what the command built for `job`: a site release every replica serves, or LiveSite.reload and the broadcast. */
  serve: (job: BuildJob) => Promise<'replaced' | 'unchanged'>;
  log: { info(object: object, message: string): void; error(object: object, message: string): void };
}

/** A build the queue hands over (sources/build-queue.ts). */
export interface BuildJob {
  id: string;
  source: string;
}

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
 * Runs one build the queue hands over (a builder's work): the rebuild command for its source
 * (sync it, build the site into a new folder, swap the folders: scripts/rebuild.mjs), then
 * serves the new build, then archives the newest releases. A failed build throws with the end
 * of its output and leaves the served site as it was.
 */
export class BuildRunner {
  private child: ChildProcess | null = null;
  private closed = false;

  constructor(private readonly options: BuildRunnerOptions) {}

  /** Stops the running build (the process is closing) and runs no other. */
  close(): void {
    this.closed = true;
    if (this.child) stopGroup(this.child);
  }

  /** Builds `job`'s source and serves the result; 'unchanged' when there was nothing new to serve. */
  async build(job: BuildJob): Promise<'served' | 'unchanged'> {
    if (this.closed) throw new Error('the builder closed before it ran');
    const { log } = this.options;
    log.info({ source: job.source, job: job.id }, 'rebuild started');
    let state: 'served' | 'unchanged';
    try {
      const code = await this.execute(this.options.command, [`--only=${job.source}`], [0, UNCHANGED_EXIT_CODE]);
      // A command that built nothing leaves the served build as it is: it is not read again.
      state = code === UNCHANGED_EXIT_CODE || (await this.options.serve(job)) !== 'replaced' ? 'unchanged' : 'served';
    } catch (error) {
      log.error({ source: job.source, job: job.id, err: error }, 'rebuild failed');
      throw new Error((error as Error).message.slice(-OUTPUT_TAIL), { cause: error });
    }
    log.info({ source: job.source, job: job.id, state }, 'rebuild finished');
    // The release is served; its archive is made while no reader waits for it. A failure
    // costs only time: the next release's rebuild builds what is missing.
    if (state === 'served' && this.options.archiveCommand && !this.closed) {
      try {
        await this.execute(this.options.archiveCommand, [], [0]);
        log.info({ source: job.source, job: job.id }, 'newest releases archived');
      } catch (error) {
        log.error({ source: job.source, job: job.id, err: error }, 'archiving the newest releases failed');
      }
    }
    return state;
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
