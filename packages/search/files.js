// The files a search needs before its first answer, for all of a reader's bundles in one
// answer of the gate (GET SEARCH_FILES_PATH). Each bundle's own files (its entry, metadata,
// word list and index chunks) are small but many, and a reader of many units opens a bundle
// per unit: one request instead of several per bundle. The build's
// Pagefind scripts take the files from here instead of fetching each
// (packages/built-site/pagefind-files.js).
//
// The format: a 4-byte little-endian length, a JSON list of that many bytes with one
// [path, byte length] per file, or [path, byte length, "gzip"] for a file sent in the gzip
// form the build made of it (the word lists), then the files' bytes one after the other in
// the list's order.

import { OLDER_RELEASES } from '@portal/built-site';

/** Where the gate answers the search's files of the bundles asked for (`?bundles=/search/a/,/search/b/`). */
export const SEARCH_FILES_PATH = '/api/search/files';

/** Most bundles one request may name (the policy has some forty units, each with its releases). */
export const MOST_SEARCH_BUNDLES = 256;

/** A bundle's path as `searchBundlesFor` and `releaseBundles` make them. */
export const BUNDLE_PATH = new RegExp(`^/search/[a-z0-9][a-z0-9-]*/(${OLDER_RELEASES}/\\d+\\.\\d+\\.\\d+/)?$`);

/** A bundle's files a search fetches before it can answer, relative to the bundle. */
const START_FILE =
  /^(pagefind-entry\.json|portal-words\.json|pagefind\.[\w-]+\.pf_meta|(index|filter)\/[\w-]+\.pf_(index|filter))$/;

/** A file of a bundle: the bundle (`/search/<unit>/`, or an older release's in it) and the path in it. */
const BUNDLE_FILE = new RegExp(`^(/search/[^/]+/(?:${OLDER_RELEASES}/[^/]+/)?)(.+)$`);

/**
 * Whether a file of a bundle is one a search fetches before its first answer. Result
 * fragments (one per page, fetched per result) and the engine's own scripts and WebAssembly
 * are not.
 *
 * @param {string} relative the file's path inside its bundle (`index/en_1a2b.pf_index`)
 */
export function isSearchStartFile(relative) {
  return START_FILE.test(relative);
}

/**
 * The bundle whose search starts with the file at `url` (`/search/layout/` for
 * `/search/layout/index/en_1a2b.pf_index`), or null when no search starts with it.
 *
 * @param {string} url a file's path on the site
 * @returns {string | null}
 */
export function searchStartBundleOf(url) {
  const match = BUNDLE_FILE.exec(url);
  return match?.[1] !== undefined && match[2] !== undefined && BUNDLE_PATH.test(match[1]) && isSearchStartFile(match[2])
    ? match[1]
    : null;
}

/**
 * One body of `files`, in the format above.
 *
 * @param {readonly (readonly [path: string, body: Uint8Array, encoding?: 'gzip'])[]} files
 * @returns {Uint8Array<ArrayBuffer>}
 */
export function packSearchFiles(files) {
  const list = files.map(([path, body, encoding]) =>
    encoding === undefined ? [path, body.byteLength] : [path, body.byteLength, encoding],
  );
  const header = new TextEncoder().encode(JSON.stringify(list));
  const out = new Uint8Array(4 + header.byteLength + files.reduce((sum, [, body]) => sum + body.byteLength, 0));
  new DataView(out.buffer).setUint32(0, header.byteLength, true);
  out.set(header, 4);
  let at = 4 + header.byteLength;
  for (const [, body] of files) {
    out.set(body, at);
    at += body.byteLength;
  }
  return out;
}

/**
 * The files of a body `packSearchFiles` made, by path, as they are (gzip undone). Rejects a
 * body it did not make.
 *
 * @param {ArrayBuffer} body
 * @returns {Promise<Record<string, ArrayBuffer>>}
 */
export async function unpackSearchFiles(body) {
  const length = body.byteLength >= 4 ? new DataView(body).getUint32(0, true) : -1;
  if (length < 0 || 4 + length > body.byteLength) throw new Error('The search files answer is cut short');
  /** @type {[path: string, size: number, encoding?: 'gzip'][]} */
  const list = JSON.parse(new TextDecoder().decode(new Uint8Array(body, 4, length)));
  let at = 4 + length;
  const files = list.map(([path, size, encoding]) => {
    if (at + size > body.byteLength) throw new Error(`The search files answer is cut short at ${path}`);
    const bytes = body.slice(at, at + size);
    at += size;
    const file =
      encoding === 'gzip'
        ? new Response(new Response(bytes).body?.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer()
        : bytes;
    return Promise.all([path, file]);
  });
  return Object.fromEntries(await Promise.all(files));
}
