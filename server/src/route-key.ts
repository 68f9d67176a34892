/**
 * The portal's one rule for comparing paths (spec §2): case is ignored and so is a
 * trailing slash, so `/DOCS/Layout-Engine` and `/docs/layout-engine/` are the same page.
 * Returns null for a path that cannot name a page (bad percent-encoding, NUL, dot
 * segments), which the server answers with 400 rather than guessing.
 */
export function routeKey(rawPath: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  if (!path.startsWith('/') || path.includes('\0') || path.includes('\\')) return null;
  const segments = path.split('/');
  if (segments.some((segment) => segment === '.' || segment === '..')) return null;
  const key = path.toLowerCase().replace(/\/+$/, '');
  return key === '' ? '/' : key;
}
