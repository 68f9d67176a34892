export interface RunningRedis {
  url: string;
  port: number;
  pause(): Promise<void>;
  resume(): Promise<void>;
  /** SIGSTOP: connections stay open and nothing answers. */
  freeze(): Promise<void>;
  thaw(): Promise<void>;
  stop(): Promise<void>;
}
export declare function startRedis(options?: { port?: number }): Promise<RunningRedis>;
