// Writes the manifest the gate serves from: every file of a build with its route key,
// type, size, ETag, who may read it and its precompressed (brotli, gzip) forms, plus the
// CSP hashes of the pages' inline scripts. Called by the site build's gate-files plugin and
// by the server's tests, which make miniature builds. Build time only: its mime-types is a
// devDependency of this package, so the gate's runtime install does not carry it.
import { createHash, randomUUID } from 'node:crypto';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';

import { Parser } from 'htmlparser2';
import { contentType } from 'mime-types';

import { normalizeRoute } from '@portal/access';

import { MANIFEST_FILE, MANIFEST_VERSION, pageRoute } from './index.js';
import { withFastExcerpts } from './pagefind-excerpt.js';
import { withGivenFiles } from './pagefind-files.js';

/** @import { Readers } from '@portal/access' */
/** @import { Manifest, ManifestEntry } from './index.js' */

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

const compressible = /\.(html|js|css|json|xml|xsl|txt|md|svg|map|ico)$/i;

/**
 * @param {string} file
 * @returns {string}
 */
export function contentTypeOf(file) {
  // mime-types takes the whole path and adds UTF-8 to text types; Pagefind's own files are binary.
  return contentType(basename(file).toLowerCase()) || 'application/octet-stream';
}

/**
 * CSP hashes of executable inline scripts (`<script>…</script>` without src, not JSON data),
 * as an HTML parser finds them: text that only looks like a script (in an attribute's value,
 * in a comment) is none.
 *
 * @param {string} html
 * @returns {string[]}
 */
export function inlineScriptHashes(html) {
  /** @type {string[]} */
  const hashes = [];
  /** @type {string | null} */
  let script = null;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const data = /^application\/(ld\+)?json$/i.test(attributes.type ?? '');
        if (name === 'script' && attributes.src === undefined && !data) script = '';
      },
      ontext(text) {
        if (script !== null) script += text;
      },
      onclosetag(name) {
        if (name !== 'script' || script === null) return;
        hashes.push('sha256-' + createHash('sha256').update(script, 'utf8').digest('base64'));
        script = null;
      },
    },
    { decodeEntities: false },
  );
  parser.end(html);
  return hashes;
}

/**
 * Every file of a build as a URL path (`/docs/index.html`), sorted; not the manifest, not precompressed forms.
 *
 * @param {string} dir
 * @returns {Promise<string[]>}
 */
export async function listBuildFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => '/' + relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((url) => url !== '/' + MANIFEST_FILE && !/\.(br|gz)$/.test(url))
    .sort();
}

/**
 * `work` over every item, at most `limit` at a time; results in the items' order.
 *
 * @template T, R
 * @param {readonly T[]} items
 * @param {number} limit
 * @param {(item: T) => Promise<R>} work
 * @returns {Promise<R[]>}
 */
async function mapConcurrently(items, limit, work) {
  /** @type {R[]} */
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(/** @type {T} */ (items[index]));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Writes a build cache's file aside and renames it into place, so a build stopped midway
 * leaves no half-written file under a name a later build trusts (its leftover `.tmp` is
 * pruned with what that build did not use).
 *
 * @param {string} file
 * @param {string | Uint8Array} data
 */
export async function keepFile(file, data) {
  const aside = `${file}.${randomUUID()}.tmp`;
  await writeFile(aside, data);
  await rename(aside, file);
}

/**
 * Puts a build cache's file at `target` (replacing what is there): a hard link, so no byte
 * is read or written again; a copy where the cache is on another file system. Nothing
 * writes into a build's files or a cache's in place (the cache renames new files into place,
 * `keepFile`), so a file linked into both never changes under either name.
 *
 * @param {string} kept
 * @param {string} target
 */
export async function placeKept(kept, target) {
  await rm(target, { force: true });
  await link(kept, target).catch((error) => {
    if (error.code !== 'EXDEV') throw error;
    return copyFile(kept, target);
  });
}

/**
 * A kept folder placed at `target` file by file (`placeKept`), as `cp` would copy it.
 *
 * @param {string} kept
 * @param {string} target
 */
export async function placeKeptFolder(kept, target) {
  await mkdir(target, { recursive: true });
  for (const entry of await readdir(kept, { withFileTypes: true })) {
    const [from, to] = [join(kept, entry.name), join(target, entry.name)];
    await (entry.isDirectory() ? placeKeptFolder(from, to) : placeKept(from, to));
  }
}

/**
 * A file's brotli (quality 11) and gzip (level 9) forms, each as its size and a way to put
 * it at a path. With `cacheDir`, they are kept there under the hash of the file's bytes, so
 * a rebuild compresses only the files that changed and links the others into place.
 *
 * @param {Buffer} body
 * @param {string} hash
 * @param {string | undefined} cacheDir
 * @returns {Promise<{ size: number, place: (target: string) => Promise<void> }[]>}
 */
async function compress(body, hash, cacheDir) {
  const cached = cacheDir && [join(cacheDir, hash) + '.br', join(cacheDir, hash) + '.gz'];
  const sizes =
    cached && (await Promise.all(cached.map((file) => stat(file).then((found) => found.size))).catch(() => null));
  if (cached && sizes)
    return cached.map((file, index) => ({ size: sizes[index], place: (target) => placeKept(file, target) }));
  const forms = await Promise.all([
    brotli(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    gz(body, { level: 9 }),
  ]);
  if (!cached) return forms.map((form) => ({ size: form.length, place: (target) => writeFile(target, form) }));
  await Promise.all(cached.map((file, index) => keepFile(file, forms[index])));
  return cached.map((file, index) => ({ size: forms[index].length, place: (target) => placeKept(file, target) }));
}

/**
 * The pages whose inline scripts the CSP allows: the portal's own templates, which no package
 * text reaches (the not-found page carries every script the theme and plugins put in each
 * page, as the build minified it; the home page Docusaurus's base-URL banner; the refusal page
 * its own). A script in any other page is never allowed (docs/security.md).
 */
export const OWN_SCRIPT_PAGES = Object.freeze(['/404.html', '/index.html', '/account/refused/index.html']);

/**
 * Writes the manifest of every file in `buildDir`: its route key, type, size, ETag, who may
 * read it (`readers`; a file missing there is read by nobody and fails the write) and its
 * precompressed forms. `compressionCache`: a folder that keeps the compressed forms between
 * builds (what this build did not use is removed from it). The CSP's hashes are those of the
 * inline scripts of `ownScriptPages`; pages holding any other inline script are answered in
 * `foreignScripts`, and their scripts stay blocked.
 *
 * @param {string} buildDir
 * @param {ReadonlyMap<string, Readers>} readers
 * @param {{ concurrency?: number, compressionCache?: string, ownScriptPages?: readonly string[] }} [options]
 * @returns {Promise<Manifest & { foreignScripts: string[] }>}
 */
export async function writeManifest(
  buildDir,
  readers,
  { concurrency = 8, compressionCache, ownScriptPages = OWN_SCRIPT_PAGES } = {},
) {
  const files = await listBuildFiles(buildDir);
  if (compressionCache) await mkdir(compressionCache, { recursive: true });
  /** @type {Set<string>} */
  const used = new Set();
  /** @type {Map<string, ReturnType<typeof compress>>} */
  const compressed = new Map();

  /** @type {Record<string, ManifestEntry>} */
  const entries = {};
  const scriptHashes = new Set();
  // Compression dominates this step; a few files at a time keep libuv's threads busy.
  const prepared = await mapConcurrently(files, concurrency, async (url) => {
    const file = url.slice(1);
    const body = await readFile(join(buildDir, file));
    const isPage = url.endsWith('/index.html') || (url.endsWith('.html') && url !== '/404.html');
    const entryUrl = isPage ? pageRoute(url) : url;
    const key = normalizeRoute(encodeURI(entryUrl));
    if (key === null) throw new Error(`The build has a file whose path cannot be served: ${url}`);
    const who = readers.get(url);
    if (who === undefined || (who !== 'public' && who.length === 0))
      throw new Error(`No readers were worked out for ${url}; refusing to guess`);
    const digest = createHash('sha256').update(body).digest();
    /** @type {ManifestEntry} */
    const entry = {
      url: entryUrl,
      file,
      contentType: contentTypeOf(url),
      size: body.length,
      etag: '"' + digest.toString('base64url').slice(0, 22) + '"',
      kind: isPage ? 'page' : 'file',
      access: who === 'public' ? 'public' : 'private',
      units: who === 'public' ? [] : [...who],
      // A content hash in the name: webpack's `name.hash.js` and the loaders' `name-hash.woff2`.
      immutable: url.startsWith('/assets/') && /[.-][0-9a-f]{8,}\.\w+$/.test(url),
    };
    if (compressible.test(url) && body.length > 256) {
      const hash = digest.toString('hex');
      used.add(hash);
      // Files with the same bytes (each search bundle's Pagefind runtime) are compressed once.
      let pending = compressed.get(hash);
      if (pending === undefined) {
        pending = compress(body, hash, compressionCache);
        compressed.set(hash, pending);
      }
      const [br, gzipped] = await pending;
      if (br.size < body.length * 0.95) {
        await br.place(join(buildDir, file + '.br'));
        entry.br = { file: file + '.br', size: br.size };
      }
      if (gzipped.size < body.length * 0.95) {
        await gzipped.place(join(buildDir, file + '.gz'));
        entry.gzip = { file: file + '.gz', size: gzipped.size };
      }
    }
    const hashes = url.endsWith('.html') ? inlineScriptHashes(body.toString('utf8')) : [];
    return { key, entry, hashes, url };
  });
  for (const { key, entry, hashes, url } of prepared) {
    const previous = entries[key];
    if (previous) throw new Error(`Two build files answer the same path ${key}: ${previous.url} and ${entry.url}`);
    entries[key] = entry;
    if (ownScriptPages.includes(url)) for (const hash of hashes) scriptHashes.add(hash);
  }
  const foreignScripts = prepared
    .filter(({ hashes }) => hashes.some((hash) => !scriptHashes.has(hash)))
    .map(({ url }) => url);
  /** @type {Manifest} */
  const manifest = {
    version: MANIFEST_VERSION,
    createdAt: new Date().toISOString(),
    entries,
    notFound: '/404.html',
    inlineScriptHashes: [...scriptHashes].sort(),
  };
  if (!entries['/404.html']) throw new Error(`${buildDir} is not a Docusaurus build: it has no 404.html`);
  await writeFile(join(buildDir, MANIFEST_FILE), JSON.stringify(manifest));
  if (compressionCache)
    for (const name of await readdir(compressionCache))
      if (!used.has(name.replace(/\.(br|gz)$/, ''))) await rm(join(compressionCache, name), { force: true });
  return { ...manifest, foreignScripts };
}

/** Pagefind's scripts: the one a page imports, and its worker, where a browser searches and reads results. */
const PAGEFIND_SCRIPTS = new Set(['pagefind.js', 'pagefind-worker.js']);

/** Pagefind's ready-made search interfaces: the portal has its own search dialog. */
const PAGEFIND_UI = /^pagefind-(ui|component-ui|modular-ui)\./;

/**
 * Writes a Pagefind index's bundle into `outDir`, all but Pagefind's own interfaces, its
 * scripts with the excerpt builder of pagefind-excerpt.js and taking the files a search
 * starts with in one answer (pagefind-files.js). The files come from
 * `getFiles()` and are written here, because Pagefind's `writeFiles` answers before its last
 * writes reach the disk: a `close()` right after it left an empty `pagefind-entry.json` now
 * and then (seen on the 2-core CI machine).
 *
 * @param {{ getFiles(): Promise<{ errors: string[], files: { path: string, content: Uint8Array }[] }> }} index
 * @param {string} outDir
 * @returns {Promise<number>} the number of files written
 */
export async function writeSearchBundle(index, outDir) {
  const { errors, files } = await index.getFiles();
  if (errors.length > 0) throw new Error(`Pagefind could not make ${outDir}: ${errors.join('; ')}`);
  const kept = files.filter((file) => !PAGEFIND_UI.test(file.path));
  await mkdir(outDir, { recursive: true });
  for (const folder of new Set(kept.map((file) => dirname(file.path))))
    await mkdir(join(outDir, folder), { recursive: true });
  await Promise.all(
    kept.map((file) =>
      writeFile(
        join(outDir, file.path),
        PAGEFIND_SCRIPTS.has(file.path)
          ? withGivenFiles(withFastExcerpts(Buffer.from(file.content).toString('utf8')))
          : file.content,
      ),
    ),
  );
  return kept.length;
}
