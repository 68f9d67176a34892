// Build step after `docusaurus build`: computes which files are public, precompresses
// text files (brotli and gzip), hashes inline scripts for the CSP, and writes the
// manifest the gate server serves from. Run: node server/dist/manifest/prepare.js <build dir> <.docusaurus dir>
import { createHash } from 'node:crypto';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

import { normalizeRoute } from '@portal/access';

import { MANIFEST_FILE, MANIFEST_VERSION, type Manifest, type ManifestEntry } from './manifest.js';
import { computeFileReaders, pageRoute, type FileReaders } from './file-readers.js';
import { writeLlmsFragments, writeMarkdownPages } from './markdown.js';
import { buildSearchIndexes } from './search-index.js';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.xsl': 'application/xslt+xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};
const compressible = /\.(html|js|css|json|xml|xsl|txt|md|svg|map|ico)$/i;

export function contentTypeOf(file: string): string {
  const dot = file.lastIndexOf('.');
  return (dot >= 0 && contentTypes[file.slice(dot).toLowerCase()]) || 'application/octet-stream';
}

/** CSP hashes of executable inline scripts (`<script>…</script>` without src, not JSON data). */
export function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attributes = match[1] ?? '';
    if (/\ssrc=/i.test(attributes) || /type=["']?application\/(ld\+)?json/i.test(attributes)) continue;
    hashes.push(
      'sha256-' +
        createHash('sha256')
          .update(match[2] ?? '', 'utf8')
          .digest('base64'),
    );
  }
  return hashes;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => '/' + relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((url) => url !== '/' + MANIFEST_FILE && !/\.(br|gz)$/.test(url))
    .sort();
}

/** `work` over every item, at most `limit` at a time; results in the items' order. */
async function mapConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Computes the public files of a Docusaurus build, then writes its manifest. */
export async function prepareSite(buildDir: string, generatedDir: string): Promise<Manifest> {
  // A rerun starts from the files Docusaurus wrote.
  const previous = await readdir(buildDir, { recursive: true, withFileTypes: true });
  await Promise.all(
    previous
      .filter((entry) => entry.isFile() && /\.(br|gz)$/.test(entry.name))
      .map((entry) => rm(join(entry.parentPath, entry.name))),
  );
  const pages = (await listFiles(buildDir))
    .filter((url) => url.endsWith('/index.html'))
    .map((url) => ({ url: pageRoute(url), file: url.slice(1) }));
  await buildSearchIndexes(buildDir, pages);
  await writeLlmsFragments(buildDir, await writeMarkdownPages(buildDir, generatedDir));
  const files = await listFiles(buildDir);
  return writeManifest(buildDir, await computeFileReaders({ buildDir, generatedDir, files }));
}

/**
 * Writes the manifest of every file in `buildDir`: its route key, type, size, ETag, who may
 * read it (`readers`; a file missing there is read by nobody but fails the write) and
 * its precompressed forms.
 */
export async function writeManifest(buildDir: string, readers: FileReaders): Promise<Manifest> {
  const files = await listFiles(buildDir);

  const entries: Record<string, ManifestEntry> = {};
  const scriptHashes = new Set<string>();
  // Compression dominates this step; a few files at a time keep libuv's threads busy.
  const prepared = await mapConcurrently(files, 8, async (url) => {
    const file = url.slice(1);
    const body = await readFile(join(buildDir, file));
    const isPage = url.endsWith('/index.html') || (url.endsWith('.html') && url !== '/404.html');
    const pageUrl = url.endsWith('/index.html') ? url.slice(0, -'index.html'.length) : url.replace(/\.html$/, '');
    const entryUrl = isPage ? pageUrl : url;
    const key = normalizeRoute(encodeURI(entryUrl));
    if (key === null) throw new Error(`The build has a file whose path cannot be served: ${url}`);
    const who = readers.get(url);
    if (who === undefined || (who !== 'public' && who.length === 0))
      throw new Error(`No readers were worked out for ${url}; refusing to guess`);
    const entry: ManifestEntry = {
      url: entryUrl,
      file,
      contentType: contentTypeOf(url),
      size: body.length,
      etag: '"' + createHash('sha256').update(body).digest('base64url').slice(0, 22) + '"',
      kind: isPage ? 'page' : 'file',
      access: who === 'public' ? 'public' : 'private',
      groups: who === 'public' ? [] : [...who],
      immutable: url.startsWith('/assets/') && /\.[0-9a-f]{8,}\./.test(url),
    };
    if (compressible.test(url) && body.length > 256) {
      const [br, gzipped] = await Promise.all([
        brotli(body, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
        }),
        gz(body, { level: 9 }),
      ]);
      if (br.length < body.length * 0.95) {
        await writeFile(join(buildDir, file + '.br'), br);
        entry.br = { file: file + '.br', size: br.length };
      }
      if (gzipped.length < body.length * 0.95) {
        await writeFile(join(buildDir, file + '.gz'), gzipped);
        entry.gzip = { file: file + '.gz', size: gzipped.length };
      }
    }
    const hashes = url.endsWith('.html') ? inlineScriptHashes(body.toString('utf8')) : [];
    return { key, entry, hashes };
  });
  for (const { key, entry, hashes } of prepared) {
    if (entries[key])
      throw new Error(`Two build files answer the same path ${key}: ${entries[key].url} and ${entry.url}`);
    entries[key] = entry;
    for (const hash of hashes) scriptHashes.add(hash);
  }
  const manifest: Manifest = {
    version: MANIFEST_VERSION,
    createdAt: new Date().toISOString(),
    entries,
    notFound: '/404.html',
    inlineScriptHashes: [...scriptHashes].sort(),
  };
  if (!entries['/404.html']) throw new Error(`${buildDir} is not a Docusaurus build: it has no 404.html`);
  await writeFile(join(buildDir, MANIFEST_FILE), JSON.stringify(manifest));
  return manifest;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [buildDir, generatedDir] = process.argv.slice(2);
  if (!buildDir || !generatedDir) {
    console.error('Usage: node server/dist/manifest/prepare.js <build dir> <.docusaurus dir>');
    process.exit(2);
  }
  const started = Date.now();
  try {
    const manifest = await prepareSite(resolve(buildDir), resolve(generatedDir));
    const all = Object.values(manifest.entries);
    const count = (label: string, entries: typeof all): string =>
      `${entries.length} ${label} (${entries.filter((e) => e.kind === 'page').length} pages)`;
    const byReaders = new Map<string, typeof all>();
    for (const entry of all) {
      const label = entry.access === 'public' ? 'public' : entry.groups.join('+');
      byReaders.set(label, [...(byReaders.get(label) ?? []), entry]);
    }
    console.log(
      `Gate manifest: ${all.length} files: ${[...byReaders].map(([label, entries]) => count(label, entries)).join(', ')}; ` +
        `${all.filter((e) => e.br).length} precompressed, in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } catch (error) {
    console.error(`Cannot prepare the site for the gate server: ${(error as Error).message}`);
    process.exit(1);
  }
}
