export interface RunningVerdaccio {
  /** `http://127.0.0.1:<port>/` */
  registry: string;
  addUser(name: string, password: string): Promise<string>;
  /** `tag`: the dist-tag, which npm asks for when a lower version is published after a higher one. */
  publish(files: Record<string, string>, token: string, options?: { tag?: string }): void;
  publishTyped(
    release: {
      name: string;
      version: string;
      description: string;
      readme: string;
      declarations: string;
      tag?: string;
    },
    token: string,
  ): void;
  /** Publishes a tarball made by hand (files and symbolic links below `package/`) under `manifest`, skipping npm's checks. */
  publishTarball(
    release: {
      manifest: { name: string; version: string } & Record<string, unknown>;
      files: Record<string, string>;
      links?: Record<string, string>;
    },
    token: string,
  ): Promise<void>;
  npmrc(scope: string, token: string): string;
  stop(): Promise<void>;
}
export declare function startVerdaccio(options: { work: string }): Promise<RunningVerdaccio>;
