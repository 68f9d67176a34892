import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';

import type { ObjectStore } from './object-store.js';

/**
 * A site release: one build of the site as an immutable, content-addressed bundle. Each
 * file is a blob named by its SHA-256 (`blobs/<hash>`), so a release stores only the files
 * the releases before it did not have; the bundle's manifest names every file's path, hash
 * and size, and is itself named by its hash (`releases/<hash>.json`), which is the release's
 * id. A gate that fetches a release checks every hash before it serves a byte of it.
 */
export interface BundleManifest {
  format: 1;
  files: Record<string, { hash: string; size: number }>;
}

export interface PublishedBundle {
  id: string;
  files: number;
  bytes: number;
  /** Blobs the store did not hold yet, and their bytes. */
  uploaded: { files: number; bytes: number };
}

/** A bundle that may not be served: a hash that does not match, a path that leaves the folder, a file missing. */
export class BundleError extends Error {}

const HASH = /^[0-9a-f]{64}$/;
const sha256 = (body: Buffer): string => createHash('sha256').update(body).digest('hex');

/** How many blobs move at once. */
const PARALLEL = 8;

async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/**
 * A manifest path is relative, in forward slashes, and stays inside the bundle: no empty,
 * `.` or `..` segment, no backslash, no control character. The builder writes them, but a
 * gate reads them from a store other programs can write to.
 */
export function safeBundlePath(path: string): boolean {
  if (path.length === 0 || path.length > 1024 || path.startsWith('/')) return false;
  if (path.includes('\\') || [...path].some((char) => char.charCodeAt(0) < 0x20 || char === '\u007f')) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** Every file under `dir`, as bundle paths. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

/**
 * Publishes the build in `buildDir` as a release: the blobs the store lacks, then the
 * manifest, last, so a release id in the store always names a whole bundle. A cut-off upload
 * leaves blobs no manifest names (collected later), never a half release.
 */
export async function publishBundle(store: ObjectStore, buildDir: string): Promise<PublishedBundle> {
  const paths = await filesUnder(buildDir);
  const manifest: BundleManifest = { format: 1, files: {} };
  const held = new Set(await store.list('blobs/'));
  const uploaded = { files: 0, bytes: 0 };
  let bytes = 0;
  const pending = new Set<string>();
  await inParallel(paths, async (path) => {
    if (!safeBundlePath(path)) throw new BundleError(`the build holds a file whose path cannot be a bundle's: ${path}`);
    const body = await readFile(join(buildDir, path));
    const hash = sha256(body);
    manifest.files[path] = { hash, size: body.length };
    bytes += body.length;
    const key = `blobs/${hash}`;
    if (held.has(key) || pending.has(key)) return;
    pending.add(key);
    await store.put(key, body);
    uploaded.files += 1;
    uploaded.bytes += body.length;
  });
  // Paths in a fixed order, so the same build is always the same release.
  const ordered: BundleManifest = {
    format: 1,
    files: Object.fromEntries(Object.entries(manifest.files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
  const body = Buffer.from(JSON.stringify(ordered));
  const id = sha256(body);
  await store.put(`releases/${id}.json`, body);
  return { id, files: paths.length, bytes, uploaded };
}

/** The manifest of release `id`, checked against its id. */
export async function readBundleManifest(store: ObjectStore, id: string): Promise<BundleManifest> {
  if (!HASH.test(id)) throw new BundleError(`not a release id: ${id}`);
  const body = await store.get(`releases/${id}.json`);
  if (!body) throw new BundleError(`the store holds no release ${id}`);
  if (sha256(body) !== id) throw new BundleError(`release ${id}: its manifest does not match its hash`);
  const manifest = JSON.parse(body.toString('utf8')) as BundleManifest;
  if (manifest.format !== 1 || typeof manifest.files !== 'object' || manifest.files === null)
    throw new BundleError(`release ${id}: not a bundle manifest this gate reads`);
  for (const [path, file] of Object.entries(manifest.files)) {
    if (!safeBundlePath(path)) throw new BundleError(`release ${id} names a path outside its folder: ${path}`);
    if (!HASH.test(file.hash) || !Number.isInteger(file.size))
      throw new BundleError(`release ${id}: ${path} has no valid hash or size`);
  }
  return manifest;
}

/**
 * Makes release `id` a folder of `cacheDir` the gate can serve (`cacheDir/sites/<id>`), and
 * answers its path. Blobs already fetched (`cacheDir/blobs/`) are reused; each new one is
 * checked against its hash and size before it is kept. The folder is assembled beside its
 * final name and renamed into place whole, so a folder under `sites/` is always complete.
 */
export async function fetchBundle(store: ObjectStore, id: string, cacheDir: string): Promise<string> {
  const site = join(cacheDir, 'sites', id);
  if (existsSync(join(site, '.complete'))) return site;
  const manifest = await readBundleManifest(store, id);
  const blobs = join(cacheDir, 'blobs');
  await mkdir(blobs, { recursive: true });
  const hashes = [...new Set(Object.values(manifest.files).map((file) => file.hash))];
  const sizes = new Map(Object.values(manifest.files).map((file) => [file.hash, file.size]));
  await inParallel(hashes, async (hash) => {
    const kept = join(blobs, hash);
    if (existsSync(kept)) return;
    const body = await store.get(`blobs/${hash}`);
    if (!body) throw new BundleError(`release ${id}: the store has lost the file ${hash}`);
    if (body.length !== sizes.get(hash) || sha256(body) !== hash)
      throw new BundleError(`release ${id}: the file ${hash} does not match its hash`);
    const partial = `${kept}.${randomBytes(6).toString('hex')}.partial`;
    await writeFile(partial, body);
    await rename(partial, kept);
  });
  const assembling = `${site}.${randomBytes(6).toString('hex')}.partial`;
  try {
    for (const [path, file] of Object.entries(manifest.files)) {
      const target = join(assembling, path);
      await mkdir(dirname(target), { recursive: true });
      // A hard link costs no space; a copy where the cache spans file systems.
      await link(join(blobs, file.hash), target).catch(() => copyFile(join(blobs, file.hash), target));
    }
    await writeFile(join(assembling, '.complete'), `${id}\n`);
    await rm(site, { recursive: true, force: true });
    await rename(assembling, site);
  } catch (error) {
    await rm(assembling, { recursive: true, force: true });
    throw error;
  }
  return site;
}

/**
 * Deletes from the store every release manifest but `keep`'s, then every blob no kept
 * release names. Run by the one process that publishes (the rebuild queue runs one job at a
 * time), after its publish, so no blob of a release being published is collected.
 */
export async function collectBundles(
  store: ObjectStore,
  keep: readonly string[],
): Promise<{ releases: number; blobs: number }> {
  const kept = new Set(keep);
  const releases = (await store.list('releases/')).filter((key) => !kept.has(key.slice(9, -5)));
  const named = new Set<string>();
  for (const id of kept) {
    const manifest = await readBundleManifest(store, id).catch(() => null);
    for (const file of Object.values(manifest?.files ?? {})) named.add(`blobs/${file.hash}`);
  }
  // Without a readable kept release nothing is known to be unused: collect no blob.
  const blobs = named.size === 0 ? [] : (await store.list('blobs/')).filter((key) => !named.has(key));
  await store.delete(releases);
  await store.delete(blobs);
  return { releases: releases.length, blobs: blobs.length };
}

/** Removes the local folders and blobs of releases other than `keep`'s from a gate's cache. */
export async function pruneBundleCache(cacheDir: string, keep: readonly string[]): Promise<void> {
  const sites = join(cacheDir, 'sites');
  if (!existsSync(sites)) return;
  const kept = new Set(keep);
  for (const name of await readdir(sites))
    if (!kept.has(name)) await rm(join(sites, name), { recursive: true, force: true });
  // Blobs are hard-linked into the kept folders: a blob with no other link is unused.
  const blobs = join(cacheDir, 'blobs');
  if (!existsSync(blobs)) return;
  for (const name of await readdir(blobs)) {
    const path = join(blobs, name);
    const info = await stat(path);
    if (info.nlink <= 1) await rm(path, { force: true });
  }
}
