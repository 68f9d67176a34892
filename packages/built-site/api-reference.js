// A synced package's API models as the build leaves them for the gate (one file per package,
// in its section, so the gate serves it to the section's readers and no one else), and the
// API changes between two of its releases, worked out from the declarations: the same
// comparison makes the reference's "API changes" pages and MCP's api_changes.

/** Where a package's models lie in the build, below its section's path (`/docs/<section>/`). */
export const API_MODELS_FILE = 'api/models.json';

/** The models file of the section at `basePath` (`/docs/Norigin-Spatial-Navigation/`). */
export function apiModelsUrl(basePath) {
  return `${basePath.endsWith('/') ? basePath : `${basePath}/`}${API_MODELS_FILE}`;
}

/** Is this build file a package's models file? */
export function isApiModelsUrl(url) {
  return url.endsWith(`/${API_MODELS_FILE}`);
}

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0);
const keyOf = (symbol) => `${symbol.name}\u0000${symbol.kind === 'hook' ? 'function' : symbol.kind}`;

/**
 * What `to` removed, changed and added against `from`: a symbol is the same when its name
 * and kind are (a hook is a function); it changed when its declaration's text differs. Each
 * list is sorted by name.
 * @param {{ version: string, symbols: any[] }} from
 * @param {{ version: string, symbols: any[] }} to
 */
export function apiChanges(from, to) {
  const before = new Map(from.symbols.map((symbol) => [keyOf(symbol), symbol]));
  const after = new Map(to.symbols.map((symbol) => [keyOf(symbol), symbol]));
  const removed = [...before].filter(([key]) => !after.has(key)).map(([, symbol]) => symbol);
  const added = [...after].filter(([key]) => !before.has(key)).map(([, symbol]) => symbol);
  const changed = [...after]
    .filter(([key, symbol]) => before.has(key) && before.get(key).declaration !== symbol.declaration)
    .map(([key, symbol]) => ({ ...symbol, before: before.get(key).declaration }));
  return {
    from: from.version,
    to: to.version,
    removed: removed.sort(byName),
    changed: changed.sort(byName),
    added: added.sort(byName),
  };
}
