// Pagefind's excerpt builder, replaced in every search bundle's scripts (pagefind.js, and
// pagefind-worker.js, where a browser searches and reads the results) by one that
// splits a page's text into words once instead of on every call. Pagefind reads a result
// (`result.data()`) by building its excerpt and then one for each heading section that has
// a match, and each of those calls split the whole page again, once more per section.
// The answers are the same, character for character (pagefind-excerpt.test.ts compares both).

// Not type-checked: fastBuildExcerpt's own text goes into Pagefind's scripts and EXCERPT_VERSION, so no type comment can go inside it.
// eslint-disable-next-line @typescript-eslint/ban-ts-comment
// @ts-nocheck

import { createHash } from 'node:crypto';

/** Where Pagefind's excerpt builder starts in its scripts, and the function that follows it. */
const EXCERPT_START = 'var build_excerpt=(';
const EXCERPT_NEXT = 'var calculate_sub_results=';

/** SHA-256 of Pagefind 1.5.2's `build_excerpt` as its scripts carry it: what is replaced. */
const PAGEFIND_BUILD_EXCERPT_SHA256 = '6f3202716abc6d0e270198ea57c515d7cabe26bdf9fbb104dc525abf2d4f0dea';

/**
 * The text of a Pagefind script's `build_excerpt` (`var build_excerpt=(…)=>{…};`), or null
 * when the script has none, or more than one.
 *
 * @param {string} script
 * @returns {string | null}
 */
export function pagefindBuildExcerpt(script) {
  const at = script.indexOf(EXCERPT_START);
  const end = at === -1 ? -1 : script.indexOf(EXCERPT_NEXT, at);
  if (end === -1 || script.indexOf(EXCERPT_START, at + 1) !== -1) return null;
  return script.slice(at, end);
}

/**
 * Makes a `build_excerpt` with Pagefind's arguments and answers that keeps the words of the
 * last page it split. Pagefind marks the matched words in the page's word list and then
 * cuts the excerpt out of it; this cuts the excerpt first and marks only the words in it,
 * so the kept list is never changed. Self-contained: its source is put into Pagefind's scripts.
 *
 * @returns {(content: string, start: number, length: number, locations: number[], not_before?: number, not_from?: number) => { excerpt: string, plain_excerpt: string }}
 */
export function fastBuildExcerpt() {
  let lastContent = null;
  let lastWords = [];
  let lastZws = false;
  return (content, start, length, locations, not_before, not_from) => {
    if (content !== lastContent) {
      lastZws = content.includes('\u200B');
      lastWords = lastZws ? content.split('\u200B') : content.split(/[\r\n\s]+/g);
      lastContent = content;
    }
    const endcap = not_from ?? lastWords.length;
    const startcap = not_before ?? 0;
    if (endcap - startcap < length) length = endcap - startcap;
    if (start + length > endcap) start = endcap - length;
    if (start < startcap) start = startcap;
    const joiner = lastZws ? '' : ' ';
    const words = lastWords.slice(start, start + length);
    const plain_excerpt = words.join(joiner).trim();
    for (const word of locations) {
      // Pagefind marks every location, then cuts; only those inside the cut reach the excerpt.
      const at = word - start;
      if (!(at >= 0 && at < length) || words[at]?.startsWith('<mark>')) continue;
      words[at] = `<mark>${words[at]}</mark>`;
    }
    return { excerpt: words.join(joiner).trim(), plain_excerpt };
  };
}

const FAST_BUILD_EXCERPT = `var build_excerpt=(${fastBuildExcerpt.toString()})();`;

/** Changes when the replacement does, so search bundles kept by an earlier build are made again. */
export const EXCERPT_VERSION = createHash('sha256').update(FAST_BUILD_EXCERPT).digest('hex').slice(0, 16);

/**
 * A Pagefind script with its excerpt builder replaced. Throws when the script does not
 * carry Pagefind 1.5.2's own: a newer Pagefind must be compared with this one before it is used.
 *
 * @param {string} script a search bundle's pagefind.js or pagefind-worker.js
 * @returns {string}
 */
export function withFastExcerpts(script) {
  const original = pagefindBuildExcerpt(script);
  if (original === null || createHash('sha256').update(original).digest('hex') !== PAGEFIND_BUILD_EXCERPT_SHA256) {
    throw new Error(
      "A Pagefind script does not carry the build_excerpt that packages/built-site/pagefind-excerpt.js replaces: Pagefind changed; compare its excerpts with the replacement's, and update PAGEFIND_BUILD_EXCERPT_SHA256.",
    );
  }
  return script.replace(original, () => FAST_BUILD_EXCERPT);
}
