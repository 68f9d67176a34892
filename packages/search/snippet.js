/**
 * What a result shows of its page. Pagefind's excerpt is the page's indexed text around the
 * matched words, HTML-escaped with the words in `<mark>`; where the page shows code, that
 * text is JSX and HTML (`<PlayerProvider manager={manager}>`), which reads as noise in a
 * list of results. `readableExcerpt` keeps words and drops the markup: a component's tag
 * becomes its name (the reader may have searched for it), an HTML element's tag goes.
 */

const MARK_OPEN = '\uE000';
const MARK_CLOSE = '\uE001';

/** @type {Record<string, string>} */
const ENTITIES = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'", '&amp;': '&' };

/** @param {string} text */
const escapeHtml = (text) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char,
  );

/**
 * A tag, with marks possibly around its name: `<PlayerView />`, `</div>`, `<img src="a.png">`,
 * or one the excerpt's end cut off (`<div class="a`).
 */
const TAG = /<\/?\s*([\uE000\uE001]*)([A-Za-z][\w.:-]*)([\uE000\uE001]*)(?:(?:\s[^<>]*)?\/?>|\s[^<>]*$|$)/g;

/**
 * @param {string} _tag
 * @param {string} before marks before the name
 * @param {string} name
 * @param {string} after marks after it
 */
const tagAsText = (_tag, before, name, after) =>
  /^[a-z]/.test(name) ? ` ${before}${after} ` : ` ${before}${name}${after} `;

/**
 * The excerpt as readable text: markup out, HTML escaped anew, and the matched words in
 * `<mark>` again (balanced, whatever the markup cut apart).
 *
 * @param {string} excerpt Pagefind's excerpt (escaped HTML with `<mark>`)
 * @returns {string} HTML whose only elements are `<mark>`
 */
export function readableExcerpt(excerpt) {
  const text = excerpt
    .replace(/<mark>/g, MARK_OPEN)
    .replace(/<\/mark>/g, MARK_CLOSE)
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:lt|gt|quot|#39|#x27|amp);/g, (entity) => ENTITIES[entity] ?? entity)
    // An element of the page's HTML goes; a component keeps its name.
    .replace(TAG, tagAsText)
    // What is left of a tag the excerpt cut in two, and the braces of JSX expressions.
    .replace(/\/>|<\/|[<>{}]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  let html = '';
  let open = false;
  for (const part of text.split(/([\uE000\uE001])/)) {
    if (part === MARK_OPEN) {
      if (!open) html += '<mark>';
      open = true;
    } else if (part === MARK_CLOSE) {
      if (open) html += '</mark>';
      open = false;
    } else html += escapeHtml(part);
  }
  if (open) html += '</mark>';
  return html.replace(/<mark>(\s*)<\/mark>/g, '$1');
}
