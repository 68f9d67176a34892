export interface RunningVerdaccio {
  /** `http://127.0.0.1:<port>/` */
  registry: string;
  addUser(name: string, password: string): Promise<string>;
  publish(files: Record<string, string>, token: string): void;
  publishTyped(
    release: { name: string; version: string; description: string; readme: string; declarations: string },
    token: string,
  ): void;
  npmrc(scope: string, token: string): string;
  stop(): Promise<void>;
}
export declare function startVerdaccio(options: { work: string }): Promise<RunningVerdaccio>;
