// The portal's access policy: the one place that decides which routes anyone may read.
// Imported by the gate server (which enforces it), by the build step that computes the
// public files, and by the site (client guard, sitemap, login redirect). Plain ES module
// so that Node, Docusaurus' bundler and its config loader all read it as is.

/** Routes open to everyone, as normalised keys (lower case, no trailing slash). */
export const PUBLIC_ROUTES = Object.freeze(['/', '/login', '/docs']);

/** Sections open to everyone with every page below them, matched as whole path segments. */
export const PUBLIC_SECTIONS = Object.freeze(['/docs/norigin-spatial-navigation']);

/** The login route and the query parameter that carries where to go after signing in. */
export const LOGIN_PATH = '/login';
export const NEXT_PARAM = 'next';

/**
 * Normalises a URL path the way the portal matches routes (spec §2): percent-decoded,
 * case ignored, trailing slashes ignored. Returns null for anything that cannot name a
 * page: bad percent-encoding, NUL or other control characters, backslashes, empty or dot
 * segments. Callers treat null as "not public".
 *
 * @param {string} rawPath
 * @returns {string | null}
 */
export function normalizeRoute(rawPath) {
  if (typeof rawPath !== 'string') return null;
  let path;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  // eslint-disable-next-line no-control-regex
  if (!path.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(path)) return null;
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '/';
  const segments = trimmed.split('/').slice(1);
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) return null;
  return trimmed.toLowerCase();
}

/**
 * Whether a route is public. Everything not listed is private by default.
 *
 * @param {string} rawPath a URL path, possibly percent-encoded, without query or hash
 * @returns {boolean}
 */
export function isPublicRoute(rawPath) {
  const key = normalizeRoute(rawPath);
  if (key === null) return false;
  if (PUBLIC_ROUTES.includes(key)) return true;
  return PUBLIC_SECTIONS.some((section) => key === section || key.startsWith(section + '/'));
}

const BASE = 'https://portal.invalid';

/**
 * The place to go after signing in: `next` when it is a path on this site, else `/`.
 * Absolute and scheme-relative URLs, backslashes, control characters and whitespace,
 * and anything the URL parser would take off the site are all refused.
 *
 * @param {unknown} next
 * @returns {string}
 */
export function safeNextPath(next) {
  if (typeof next !== 'string' || next.length === 0 || next.length > 2048) return '/';
  // eslint-disable-next-line no-control-regex
  if (!next.startsWith('/') || next.startsWith('//') || /[\u0000-\u0020\u007f-\u00a0\\]/.test(next)) return '/';
  let url;
  try {
    url = new URL(next, BASE);
  } catch {
    return '/';
  }
  if (url.origin !== BASE || url.username || url.password) return '/';
  const path = url.pathname + url.search + url.hash;
  // A path whose decoded form starts with // or /\ could still be read as another host
  // by some later consumer; refuse rather than guess.
  let decoded;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return '/';
  }
  if (decoded.startsWith('//') || decoded.startsWith('/\\')) return '/';
  return path;
}

/**
 * The login URL that brings the reader back to `path` afterwards.
 *
 * @param {string} path path, query and hash of the page the reader wanted
 * @returns {string}
 */
export function loginUrlFor(path) {
  const next = safeNextPath(path);
  return next === '/' ? LOGIN_PATH : `${LOGIN_PATH}?${NEXT_PARAM}=${encodeURIComponent(next)}`;
}
