import type { StartedProcess } from './process.mjs';

export interface RunningNginx extends StartedProcess {
  baseURL: string;
  port: number;
}

export interface NginxOptions {
  /** Its own folder for the configuration, temporary files, pid and log; emptied first. */
  dir: string;
  /** What goes in the http block, given the port to listen on. */
  http: (port: number) => string;
  nginxPath?: string;
  workerConnections?: number;
}

export declare function nginxConfig(options: NginxOptions & { port: number }): string;
export declare function startNginx(options: NginxOptions): Promise<RunningNginx>;
