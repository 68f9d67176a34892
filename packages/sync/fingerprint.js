// What a source's pages are made from, as one digest, so a rebuild can tell that a sync
// changed nothing: its state in the cache and the markers of its folders.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A cache folder's marker (its integrity or commit, and what it was made with), or null when it has none.
 *
 * @param {string} cacheDir
 * @param {string} dir
 */
function markerOf(cacheDir, dir) {
  try {
    return readFileSync(join(cacheDir, dir, '.complete'), 'utf8');
  } catch {
    return null;
  }
}

/**
 * A digest of source `id` in `state`: its releases, its versions (with each folder's
 * marker), the reasons it or a release's reference was refused, and its API reference entries
 * (with theirs); not when it was fetched, nor whether its origin answered. Null when the
 * state has no such source.
 *
 * @param {import('./index.js').SyncState | undefined} state
 * @param {string} id
 * @param {string} cacheDir
 * @returns {string | null}
 */
export function sourceFingerprint(state, id, cacheDir) {
  const source = state?.sources?.[id];
  if (!source) return null;
  const kept = { ...source };
  delete kept.fetchedAt;
  delete kept.offline;
  const markers = [...(source.versions ?? []), ...(source.api ?? [])]
    .filter((entry) => typeof entry.dir === 'string')
    .map((entry) => markerOf(cacheDir, /** @type {string} */ (entry.dir)));
  return createHash('sha256').update(JSON.stringify({ kept, markers })).digest('hex');
}
