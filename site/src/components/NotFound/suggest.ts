/**
 * What the not-found page offers for a mistyped address: the words of the path to search
 * for, and the page whose path is nearest to it.
 */

/** "no such package" from "/docs/no-such-package/": the last two segments, split into words. */
export function searchWordsOf(pathname: string): string {
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // A malformed escape: use the path as it came.
  }
  return decoded
    .split('/')
    .filter((segment) => segment !== '' && segment.toLowerCase() !== 'docs')
    .slice(-2)
    .join(' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[-_+.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()
    .slice(0, 80);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

const normal = (path: string): string => path.toLowerCase().replace(/\/+$/, '');

/**
 * The page path nearest to `pathname` among `paths`, if a few typing mistakes apart (at
 * most one edit in five characters, and never more than four): `/docs/layout-engin` →
 * `/docs/layout-engine/`. Null when nothing is that close.
 */
export function nearestPath(pathname: string, paths: readonly string[]): string | null {
  const wanted = normal(pathname);
  const allowed = Math.min(4, Math.floor(wanted.length / 5));
  let best: { path: string; distance: number } | null = null;
  for (const path of paths) {
    if (Math.abs(normal(path).length - wanted.length) > allowed) continue;
    const distance = editDistance(wanted, normal(path));
    if (distance <= allowed && (best === null || distance < best.distance)) best = { path, distance };
  }
  return best?.path ?? null;
}
