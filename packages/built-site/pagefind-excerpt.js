// Pagefind's excerpt builder, replaced in every search bundle's scripts (pagefind.js, and
// pagefind-worker.js, where a browser searches and reads the results) by one that
// splits a page's text into words once instead of on every call. Pagefind reads a result
// (`result.data()`) by building its excerpt and then one for each heading section that has
// a match, and each of those calls split the whole page again: a page with 100 such
// sections was split 101 times per read. The answers are the same, character for
// character (pagefind-excerpt.test.ts compares both); the timings are in
// docs/performance.md.

import { createHash } from 'node:crypto';

/** Pagefind 1.5.2's `build_excerpt`, as its pagefind.js carries it: what is replaced. */
export const PAGEFIND_BUILD_EXCERPT =
  'var build_excerpt=(content,start,length,locations,not_before,not_from)=>{let is_zws_delimited=content.includes("\\u200B");let fragment_words=[];if(is_zws_delimited){fragment_words=content.split("\\u200B");}else{fragment_words=content.split(/[\\r\\n\\s]+/g);}let endcap=not_from??fragment_words.length;let startcap=not_before??0;if(endcap-startcap<length){length=endcap-startcap;}if(start+length>endcap){start=endcap-length;}if(start<startcap){start=startcap;}const joiner=is_zws_delimited?"":" ";const plain_excerpt=fragment_words.slice(start,start+length).join(joiner).trim();for(let word of locations){if(fragment_words[word]?.startsWith(`<mark>`)){continue;}fragment_words[word]=`<mark>${fragment_words[word]}</mark>`;}const excerpt=fragment_words.slice(start,start+length).join(joiner).trim();return{excerpt,plain_excerpt};};';

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
  const at = script.indexOf(PAGEFIND_BUILD_EXCERPT);
  if (at === -1 || script.indexOf(PAGEFIND_BUILD_EXCERPT, at + 1) !== -1) {
    throw new Error(
      "A Pagefind script does not carry the build_excerpt that packages/built-site/pagefind-excerpt.js replaces: Pagefind changed; compare its excerpts with the replacement's, and update PAGEFIND_BUILD_EXCERPT.",
    );
  }
  return script.slice(0, at) + FAST_BUILD_EXCERPT + script.slice(at + PAGEFIND_BUILD_EXCERPT.length);
}
