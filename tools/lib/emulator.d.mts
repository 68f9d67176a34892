export declare const DEFAULT_PROJECT_ID: string;
export declare const DEFAULT_SEED_FILE: string;

export interface DemoReader {
  uid: string;
  email: string;
  password?: string;
  displayName?: string;
  emailVerified?: boolean;
  disabled?: boolean;
  github?: { uid: string; login: string };
  /** The `groups` custom claim to set. */
  groups?: string[];
  /** What kind of demo reader this is (`staff`, `partner`, `no access`, …), for `npm start` and the tests. */
  role?: string;
}

export interface RunningEmulator {
  /** `127.0.0.1:port`, the form FIREBASE_AUTH_EMULATOR_HOST takes. */
  host: string;
  projectId: string;
  port: number;
  hubPort: number;
  loggingPort: number;
  /** Leader of the emulator's own process group. */
  pid: number;
  stop(): Promise<void>;
}

/** Starts the emulator and waits until it answers; without `port`, on three free ports. */
export declare function startAuthEmulator(options?: {
  port?: number;
  hubPort?: number;
  loggingPort?: number;
  projectId?: string;
  quiet?: boolean;
  timeoutMs?: number;
  importDir?: string;
  exportOnExit?: string;
}): Promise<RunningEmulator>;
export declare function readSeed(seedFile?: string): DemoReader[];
export declare function seedReaders(host: string, projectId?: string, readers?: DemoReader[]): Promise<DemoReader[]>;
/** An administrator call to the emulator's Identity Toolkit API (`/accounts`, `/accounts:update`, …). */
export declare function emulatorRequest(
  host: string,
  projectId: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>>;
