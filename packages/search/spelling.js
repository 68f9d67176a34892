/**
 * Typo tolerance. Pagefind has no fuzzy search: a misspelt word finds nothing, or worse,
 * whatever a prefix of it finds (relevance.js drops those). So the build writes beside each
 * bundle the words its pages have (`WORDS_FILE`, gated with the bundle, so a reader only
 * ever learns the words of pages they may read), and a query word of five letters or more
 * that is no word and no word's beginning there is replaced by the most frequent word one
 * edit away: a letter inserted, deleted, changed, or two neighbours swapped.
 */

import { wordParts } from './relevance.js';

/** The word list's file in each bundle's folder. */
export const WORDS_FILE = 'portal-words.json';

/** Words shorter than this are not corrected: "tizn" could be too many things. */
export const MIN_CORRECTED_LENGTH = 5;

/** Words the list keeps: one edit from a word of five letters is at least four. */
const MIN_LISTED_LENGTH = MIN_CORRECTED_LENGTH - 1;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/**
 * The word list of a bundle from its pages' text: each word part (`wordParts`) of four
 * letters or more with how often it occurs, most frequent first.
 *
 * @param {Iterable<string>} texts
 * @returns {Record<string, number>}
 */
export function countWords(texts) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const text of texts)
    for (const part of wordParts(text))
      if (part.length >= MIN_LISTED_LENGTH && part.length <= 40) counts.set(part, (counts.get(part) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/**
 * The words of several bundles' lists, searchable by word and by beginning.
 */
export class Vocabulary {
  /** @param {readonly Record<string, number>[]} lists */
  constructor(lists) {
    /**
     * @private
     * @type {Map<string, number>}
     */
    this.counts = new Map();
    for (const list of lists)
      for (const [word, count] of Object.entries(list))
        if (typeof count === 'number') this.counts.set(word, (this.counts.get(word) ?? 0) + count);
    /**
     * @readonly
     * @type {readonly string[]}
     */
    this.sorted = [...this.counts.keys()].sort();
  }

  /** The word the pages have most often. */
  commonest() {
    let best = '';
    let bestCount = 0;
    for (const [word, count] of this.counts)
      if (count > bestCount) {
        best = word;
        bestCount = count;
      }
    return best;
  }

  /**
   * Whether some word starts with `prefix` (a word typed halfway is not a typo).
   *
   * @param {string} prefix
   */
  hasPrefix(prefix) {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.sorted[middle] ?? '') < prefix) low = middle + 1;
      else high = middle;
    }
    return (this.sorted[low] ?? '').startsWith(prefix);
  }

  /**
   * What `part` (a lower-case word part) should be: itself when it is a word or a word's
   * beginning, is short, or has no word one edit away; else the most frequent such word.
   *
   * @param {string} part
   * @returns {string}
   */
  correct(part) {
    if (part.length < MIN_CORRECTED_LENGTH || this.counts.size === 0 || this.hasPrefix(part)) return part;
    let best = part;
    let bestCount = 0;
    for (const candidate of oneEditFrom(part)) {
      const count = this.counts.get(candidate) ?? 0;
      if (count > bestCount || (count === bestCount && count > 0 && candidate < best)) {
        best = candidate;
        bestCount = count;
      }
    }
    return best;
  }

  /**
   * The query with its misspelt words corrected, or the query as typed when none is.
   *
   * @param {string} query
   * @returns {string}
   */
  correctQuery(query) {
    const parts = wordParts(query);
    const corrected = parts.map((part) => this.correct(part));
    return corrected.some((word, index) => word !== parts[index]) ? corrected.join(' ') : query;
  }
}

/**
 * Every string one edit from `word`: deletions, swaps of neighbours, changes, insertions.
 *
 * @param {string} word
 * @returns {Set<string>}
 */
export function oneEditFrom(word) {
  const edits = new Set();
  for (let i = 0; i <= word.length; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    if (tail.length > 0) edits.add(head + tail.slice(1));
    if (tail.length > 1) edits.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const letter of ALPHABET) {
      if (tail.length > 0 && letter !== tail[0]) edits.add(head + letter + tail.slice(1));
      edits.add(head + letter + tail);
    }
  }
  edits.delete(word);
  return edits;
}
