import type { StartedProcess, StartOptions } from './process.mjs';

export declare const SERVER_ENTRY: string;
export declare const SITE_BUILD: string;

export interface RunningGate extends StartedProcess {
  /** `http://127.0.0.1:<port>` */
  baseURL: string;
  port: number;
}

export interface GateOptions {
  /** A free one unless given. */
  port?: number;
  host?: string;
  /** site/build unless given. */
  siteDir?: string;
  /** FIREBASE_AUTH_EMULATOR_HOST */
  emulatorHost?: string;
  /** FIREBASE_PROJECT_ID */
  projectId?: string;
  /** Unless given, a temporary folder of its own (removed when it stops); null: DATA_DIR from the environment. */
  dataDir?: string | null;
  /** Settings for the server, over this process's environment. */
  env?: Record<string, string | undefined>;
  /** 'listening': /healthz answers; 'database' (the default): /readyz reports the database reachable. */
  until?: 'listening' | 'database';
  /** Resolve, not reject, when the server exits before it is ready (tests of refused starts). */
  allowExit?: boolean;
  stdout?: StartOptions['stdout'];
  stderr?: StartOptions['stderr'];
  /** A process group of its own, out of reach of a terminal's Ctrl-C. */
  group?: boolean;
  timeoutMs?: number;
}

/** Starts a gate server and resolves once it is ready (see `until`). */
export declare function startGate(options?: GateOptions): Promise<RunningGate>;
