import type { ChildProcess } from 'node:child_process';

export interface StartedProcess {
  name: string;
  child: ChildProcess;
  pid: number | undefined;
  /** Its exit code, or null when a signal ended it (or it could not be started). */
  exited: Promise<number | null>;
  /** The tail of what it printed on the streams started as 'collect'. */
  output(): string;
  running(): boolean;
  /** Sends a signal (to its whole process group when it has one). */
  signal(signal: NodeJS.Signals): void;
  /** Polls `check` until it returns true; throws if the process exits first or the time runs out. */
  waitUntil(check: () => unknown, options?: WaitOptions): Promise<void>;
  /** Sends the stop signal and resolves once it has exited. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export interface WaitOptions {
  what?: string;
  timeoutMs?: number;
  intervalMs?: number;
}

export interface StartOptions {
  /** For messages: "The Auth Emulator". */
  name?: string;
  cwd?: string;
  /** Added to this process's environment. */
  env?: Record<string, string | undefined>;
  stdout?: 'ignore' | 'inherit' | 'collect';
  stderr?: 'ignore' | 'inherit' | 'collect';
  /** Also write what is collected to this process's stderr. */
  echo?: boolean;
  /** A process group of its own: signals go to the whole group. */
  group?: boolean;
  stopSignal?: NodeJS.Signals;
  /** SIGKILL when the stop signal has not ended it by then. */
  killAfterMs?: number;
  /** Sent to it if this process exits while it runs (SIGKILL unless given). */
  onExitSignal?: NodeJS.Signals;
  keepChars?: number;
}

export declare const hasExited: (child: ChildProcess) => boolean;
export declare const sleep: (ms: number) => Promise<void>;
export declare function startProcess(command: string, args: string[], options?: StartOptions): StartedProcess;
export declare function waitUntil(
  check: () => unknown,
  options?: WaitOptions & { process?: StartedProcess },
): Promise<void>;
/** A check for waitUntil: `url` answers, and `accept` (by default: a 2xx status) likes the answer. */
export declare const answers: (
  url: string,
  accept?: (response: Response) => boolean | Promise<boolean>,
) => () => Promise<boolean>;
