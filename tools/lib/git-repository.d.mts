/** Runs git in `cwd` as a fixed author; its output. */
export declare function git(cwd: string, ...args: string[]): string;
/** A repository with a release per tag: README and CHANGELOG change, a docs/ page comes in 1.1. */
export declare function makeRepository(dir: string, tags: string[]): void;
