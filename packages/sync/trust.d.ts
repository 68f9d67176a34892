import type { Root } from 'mdast';

export declare const LIMITS: Readonly<{
  fileBytes: number;
  releaseBytes: number;
  releaseFiles: number;
  declarationFileBytes: number;
  declarationBytes: number;
  declarationFiles: number;
  symbols: number;
  nameLength: number;
  fieldLength: number;
}>;

export declare function releaseName(release: { package: string; version: string }): string;
export declare function symbolNameProblem(name: unknown): string | undefined;
export declare function filePathProblem(path: unknown): string | undefined;
export declare function inside(dir: string, path: string): string;
export declare function regularFile(dir: string, path: string): { path: string; size: number } | undefined;
export declare function isPackageName(name: unknown): name is string;
export declare function writeInside(dir: string, path: string, data: string | Uint8Array): string;

export interface ManifestFields {
  name?: string;
  description?: string;
  license?: string;
  homepage?: string;
  repository?: string;
  peerDependencies?: Record<string, string>;
}
export declare function manifestFields(data: unknown): ManifestFields;
export declare function releaseDate(value: unknown): string | null;

export declare function safeUrl(url: unknown): string | undefined;
export declare function untrustedMarkdown(
  source: string,
  options?: { resolve?: (url: string) => string | undefined },
): { tree: Root; droppedHtml: number };
export declare function markdownOf(tree: Root): string;
export declare function safeMarkdown(
  source: string,
  options?: { resolve?: (url: string) => string | undefined },
): string;
export declare function plainText(source: string): string;
export declare function markdownText(value: unknown): string;
export declare function markdownCode(value: unknown): string;
export declare function fencedCode(code: string, language?: string): string;
export declare function markupIn(markdown: string): string | undefined;
