export interface RunningRedis {
  url: string;
  port: number;
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}
export declare function startRedis(options?: { port?: number }): Promise<RunningRedis>;
