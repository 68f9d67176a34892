// A synced package's API models as the build leaves them for the gate (one file per package,
// in its section, so the gate serves it to the section's readers and no one else), and the
// API changes between two of its releases, worked out from the declarations: the same
// comparison makes the reference's "API changes" pages and MCP's api_changes.

/**
 * What the comparison needs of a symbol (the sync's model.json holds more).
 *
 * @typedef {object} ApiSymbolLike
 * @property {string} name
 * @property {string} kind
 * @property {string} [slug]
 * @property {string} declaration
 * @property {string} [summary]
 * @property {string} [from]
 */

/**
 * What one release removed, changed and added against another.
 *
 * @template {ApiSymbolLike} [S=ApiSymbolLike]
 * @typedef {object} ApiChanges
 * @property {string} from
 * @property {string} to
 * @property {S[]} removed
 * @property {(S & { before: string })[]} changed `before` is the declaration in `from`; `declaration` the one in `to`.
 * @property {S[]} added
 */

/**
 * A package's models in the build (`/docs/<section>/api/models.json`).
 *
 * @template {ApiSymbolLike} [S=ApiSymbolLike]
 * @typedef {object} ApiModels
 * @property {string} id
 * @property {string} package
 * @property {string} title
 * @property {string} basePath
 * @property {string} latest The newest documented release: its reference is at `<basePath>api/`.
 * @property {{ version: string, date: string | null, path?: string, symbols: S[] }[]} versions Every release in the
 *   range with a reference, newest first; `path` is set where the build made its pages.
 */

/** Where a package's models lie in the build, below its section's path (`/docs/<section>/`). */
export const API_MODELS_FILE = 'api/models.json';

/**
 * The models file of the section at `basePath` (`/docs/Norigin-Spatial-Navigation/`).
 *
 * @param {string} basePath
 * @returns {string}
 */
export function apiModelsUrl(basePath) {
  return `${basePath.endsWith('/') ? basePath : `${basePath}/`}${API_MODELS_FILE}`;
}

/**
 * Is this build file a package's models file?
 *
 * @param {string} url
 * @returns {boolean}
 */
export function isApiModelsUrl(url) {
  return url.endsWith(`/${API_MODELS_FILE}`);
}

/** @type {(a: ApiSymbolLike, b: ApiSymbolLike) => number} */
const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);
/** @type {(symbol: ApiSymbolLike) => string} */
const keyOf = (symbol) => `${symbol.name}\u0000${symbol.kind === 'hook' ? 'function' : symbol.kind}`;

/**
 * What `to` removed, changed and added against `from`: a symbol is the same when its name
 * and kind are (a hook is a function); it changed when its declaration's text differs. Each
 * list is sorted by name.
 *
 * @template {ApiSymbolLike} S
 * @param {{ version: string, symbols: S[] }} from
 * @param {{ version: string, symbols: S[] }} to
 * @returns {ApiChanges<S>}
 */
export function apiChanges(from, to) {
  const before = new Map(from.symbols.map((symbol) => [keyOf(symbol), symbol]));
  const after = new Map(to.symbols.map((symbol) => [keyOf(symbol), symbol]));
  const removed = [...before].filter(([key]) => !after.has(key)).map(([, symbol]) => symbol);
  const added = [...after].filter(([key]) => !before.has(key)).map(([, symbol]) => symbol);
  const changed = [...after]
    .filter(([key, symbol]) => before.has(key) && /** @type {S} */ (before.get(key)).declaration !== symbol.declaration)
    .map(([key, symbol]) => ({ ...symbol, before: /** @type {S} */ (before.get(key)).declaration }));
  return {
    from: from.version,
    to: to.version,
    removed: removed.sort(byName),
    changed: changed.sort(byName),
    added: added.sort(byName),
  };
}
