import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

import { routeKey } from './route-key.js';

/** A file of the built site that the server may answer with. */
export interface SiteFile {
  /** Absolute path on disk, taken from the build directory listing, never from a request. */
  path: string;
  /** The URL path the build gave it (`/docs/layout-engine/` or `/assets/js/main.1a2b.js`). */
  url: string;
  contentType: string;
  /** Bytes on disk, read once: the build does not change while the server runs. */
  size: number;
  /** Content-hashed assets never change under the same name and may be cached forever. */
  immutable: boolean;
}

export interface SiteFiles {
  lookup(rawPath: string): SiteFile | undefined;
  notFound: SiteFile;
  size: number;
}

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.xsl': 'application/xslt+xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

function contentTypeOf(file: string): string {
  const dot = file.lastIndexOf('.');
  return (dot >= 0 && contentTypes[file.slice(dot).toLowerCase()]) || 'application/octet-stream';
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/**
 * Indexes a Docusaurus build once at start-up: every page (`x/index.html` answers `/x`
 * and `/x/`) and every other file under its own URL, all keyed by `routeKey`. Two files
 * whose keys collide would make one of them unreachable, so that is a start-up error.
 */
export async function indexSiteFiles(buildDir: string): Promise<SiteFiles> {
  const byKey = new Map<string, SiteFile>();
  for (const path of await listFiles(buildDir)) {
    const url = '/' + relative(buildDir, path).split(sep).join('/');
    const pageUrl = url.endsWith('/index.html') ? url.slice(0, -'index.html'.length) : undefined;
    const file: SiteFile = {
      path,
      url: pageUrl ?? url,
      contentType: contentTypeOf(path),
      size: (await stat(path)).size,
      immutable: url.startsWith('/assets/'),
    };
    const key = routeKey(encodeURI(file.url));
    if (key === null) throw new Error(`The build has a file whose path cannot be served: ${url}`);
    const existing = byKey.get(key);
    if (existing) throw new Error(`Two build files answer the same path ${key}: ${existing.url} and ${file.url}`);
    byKey.set(key, file);
  }
  const notFound = byKey.get('/404.html');
  if (!notFound) throw new Error(`${buildDir} is not a Docusaurus build: it has no 404.html`);
  return {
    lookup(rawPath) {
      const key = routeKey(rawPath);
      return key === null ? undefined : byKey.get(key);
    },
    notFound,
    size: byKey.size,
  };
}
