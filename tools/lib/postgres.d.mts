export interface RunningPostgres {
  /** `postgres://portal@127.0.0.1:<port>/portal`, trust auth. */
  url: string;
  port: number;
  /** Stops the cluster, keeping its data. */
  pause(): void;
  /** Starts it again after `pause()`. */
  resume(): void;
  /** Stops it and removes its folder. */
  stop(): Promise<void>;
}

export declare function postgresBin(): string | null;
export declare function startPostgres(options?: { port?: number }): Promise<RunningPostgres>;
