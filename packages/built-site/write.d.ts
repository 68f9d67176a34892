import type { Readers } from '@portal/access';

import type { Manifest } from './index.js';

/** The Content-Type the gate sends for a file, by its extension. */
export declare function contentTypeOf(file: string): string;
/** CSP hashes of executable inline scripts (`<script>…</script>` without src, not JSON data). */
export declare function inlineScriptHashes(html: string): string[];
/** Every file of a build as a URL path (`/docs/index.html`), sorted; not the manifest, not precompressed forms. */
export declare function listBuildFiles(dir: string): Promise<string[]>;
/**
 * The pages whose inline scripts the CSP allows: the portal's own templates, which no package
 * text reaches. A script in any other page is never allowed.
 */
export declare const OWN_SCRIPT_PAGES: readonly string[];
/**
 * Writes the manifest of every file in `buildDir`: its route key, type, size, ETag, who may
 * read it (`readers`; a file missing there is read by nobody and fails the write) and its
 * precompressed forms. `concurrency`: files compressed at a time (8). `compressionCache`: a
 * folder that keeps the compressed forms between builds, by the hash of each file's bytes.
 * The CSP hashes are those of `ownScriptPages`' inline scripts (OWN_SCRIPT_PAGES); the pages
 * holding any other inline script are answered in `foreignScripts`.
 */
export declare function writeManifest(
  buildDir: string,
  readers: ReadonlyMap<string, Readers>,
  options?: { concurrency?: number; compressionCache?: string; ownScriptPages?: readonly string[] },
): Promise<Manifest & { foreignScripts: string[] }>;
/**
 * Writes a Pagefind index's bundle into `outDir` from its `getFiles()`, all but Pagefind's
 * own interfaces, each file complete on disk when it resolves. Returns the files written.
 */
export declare function writeSearchBundle(
  index: { getFiles(): Promise<{ errors: string[]; files: { path: string; content: Uint8Array }[] }> },
  outDir: string,
): Promise<number>;
/**
 * Writes a build cache's file aside and renames it into place, so a build stopped midway
 * leaves no half-written file under a name a later build trusts.
 */
export declare function keepFile(file: string, data: string | Uint8Array): Promise<void>;
/** Puts a build cache's file at `target`: a hard link (a copy across file systems). */
export declare function placeKept(kept: string, target: string): Promise<void>;
/** A kept folder placed at `target` file by file (`placeKept`). */
export declare function placeKeptFolder(kept: string, target: string): Promise<void>;
