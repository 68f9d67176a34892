// Pagefind's scripts (pagefind.js, and pagefind-worker.js, where a browser searches) made to
// take the files a search starts with from one answer of the gate instead of fetching each:
// `createInstance({ portalFiles })` hands them over (packages/search/files.js makes and
// reads that answer), and every fetch of Pagefind's looks there first, by path, and uses a
// file once. A file not handed over is fetched as Pagefind does: one request instead of
// one per file for a reader of many units.

import { createHash } from 'node:crypto';

/** Pagefind 1.5.2's one fetch of an index file, and where an index instance is made. */
const FETCH = 'async performFetch(queued){try{queued.resolve(await fetch(queued.input));}';
const CONSTRUCTOR = 'constructor(opts={}){';

/** The files handed over, by path (the worker is one per page, shared by its instances). */
const GIVEN = `var portalGivenFiles=new Map();var portalFetch=(input)=>{const path=new URL(typeof input==="string"?input:input.url,"http://portal.invalid").pathname;const body=portalGivenFiles.get(path);if(body===undefined)return fetch(input);portalGivenFiles.delete(path);return Promise.resolve(new Response(body));};\n`;

/** Changes when the change does, so search bundles kept by an earlier build are made again. */
export const GIVEN_FILES_VERSION = createHash('sha256')
  .update(GIVEN + FETCH + CONSTRUCTOR)
  .digest('hex')
  .slice(0, 16);

/**
 * A Pagefind script that takes the files `createInstance`'s `portalFiles` option gives
 * (`{ [path]: ArrayBuffer }`) before it fetches any. Throws when the script does not have
 * Pagefind 1.5.2's fetch and instance constructor, once each: a newer Pagefind must be
 * compared with this before it is used.
 *
 * @param {string} script a search bundle's pagefind.js or pagefind-worker.js
 * @returns {string}
 */
export function withGivenFiles(script) {
  for (const part of [FETCH, CONSTRUCTOR]) {
    const at = script.indexOf(part);
    if (at === -1 || script.indexOf(part, at + 1) !== -1)
      throw new Error(
        `A Pagefind script does not carry the code packages/built-site/pagefind-files.js changes (${part}) once: Pagefind changed; compare its fetches with the change before using it.`,
      );
  }
  return (
    GIVEN +
    script
      .replace(FETCH, () => FETCH.replace('await fetch(', 'await portalFetch('))
      .replace(
        CONSTRUCTOR,
        () =>
          `${CONSTRUCTOR}if(opts.portalFiles){for(const[path,body]of Object.entries(opts.portalFiles))portalGivenFiles.set(path,body);}`,
      )
  );
}
