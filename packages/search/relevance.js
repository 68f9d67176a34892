/**
 * Why "xyzzyqq" found "Release Flow": when a query word is in no page, Pagefind does not
 * answer "nothing". It retries with ever shorter prefixes of the word until one is in the
 * index (its "backtracking", added so that a half-typed word still meets its stemmed form,
 * and without a limit or an option to turn it off, Pagefind issues #599 and #780). "xyzzyqq"
 * came down to "x", which the guideline has in "## x.y.z". Ranking and the excerpt options
 * play no part.
 *
 * So each result is checked against what the reader typed: every word of the query must
 * share its first letters with a word Pagefind matched on the page. A stemmed or half-typed
 * form shares almost all of them ("players" → "player", "installation" → "installing");
 * a backtracked one shares almost none ("xyzzyqq" → "x", "musk" → "Munich").
 */

/**
 * Lower-case letters and digits runs of a text, diacritics removed:
 * `@noriginmedia/player-adapter-dash.js` → noriginmedia, player, adapter, dash, js.
 *
 * @param {string} text
 * @returns {string[]}
 */
export function wordParts(text) {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * @param {string} a
 * @param {string} b
 */
function commonPrefixLength(a, b) {
  let length = 0;
  while (length < a.length && length < b.length && a[length] === b[length]) length++;
  return length;
}

/**
 * How many leading letters of a query word a matched word must share: all of a short word,
 * and of a longer one all but the last five (what stemming and an unfinished word remove).
 *
 * @param {string} part
 * @returns {number}
 */
export function requiredPrefix(part) {
  return Math.min(part.length, Math.max(3, part.length - 5));
}

/**
 * Whether the words Pagefind matched on a page (`matched`) answer every word of `query`.
 *
 * @param {string} query
 * @param {readonly string[]} matched
 * @returns {boolean}
 */
export function answersQuery(query, matched) {
  // A common word is matched at hundreds of places on one page, in a handful of spellings.
  const pageParts = [...new Set(matched)].flatMap(wordParts);
  return wordParts(query).every((part) =>
    pageParts.some((word) => commonPrefixLength(part, word) >= requiredPrefix(part)),
  );
}

/**
 * The words of the pages checked last, by page text: Pagefind keeps each page it read and
 * hands out the same text for it, so a page's split is made once, not once per query
 * At most 64 pages, the same bound whoever searches.
 *
 * @type {Map<string, string[]>}
 */
const splitPages = new Map();

/**
 * The page's words at Pagefind's match locations (its own split of the page text).
 *
 * @param {string} text
 * @param {readonly number[]} locations
 * @returns {string[]}
 */
export function matchedWords(text, locations) {
  let words = splitPages.get(text);
  if (words === undefined) {
    if (splitPages.size >= 64) splitPages.clear();
    splitPages.set(text, (words = text.split(/[\r\n\s]+/)));
  }
  return locations.map((location) => words[location] ?? '').filter(Boolean);
}
