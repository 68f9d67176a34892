export declare function pagefindBuildExcerpt(script: string): string | null;
export declare function fastBuildExcerpt(): (
  content: string,
  start: number,
  length: number,
  locations: number[],
  not_before?: number,
  not_from?: number,
) => { excerpt: string; plain_excerpt: string };
export declare const EXCERPT_VERSION: string;
export declare function withFastExcerpts(script: string): string;
