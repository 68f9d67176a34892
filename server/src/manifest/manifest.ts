// The gate's side of the manifest that the site build writes (site/src/plugins/gate-files):
// read and checked once at start.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

import { ALL_UNITS, policy } from '@portal/access';

import { MANIFEST_FILE, MANIFEST_VERSION, type Manifest, type Variant } from '@portal/built-site';

export { MANIFEST_FILE, MANIFEST_VERSION };
export type { Manifest, ManifestEntry, Variant } from '@portal/built-site';

/** What a file may be labelled with: the policy's units, the unit of every unit, and the shelves. */
const KNOWN_UNITS = new Set([...policy.unitNames, ALL_UNITS, ...policy.shelves.map((shelf) => shelf.name)]);

function fail(path: string, reason: string): never {
  throw new Error(`The build manifest ${path} is not usable: ${reason}. Rebuild the site with "npm run build".`);
}

const isVariant = (value: unknown): boolean =>
  value === undefined ||
  (typeof value === 'object' &&
    value !== null &&
    typeof (value as Variant).file === 'string' &&
    typeof (value as Variant).size === 'number');

/**
 * Reads and checks the manifest: a missing, unreadable or inconsistent manifest stops the
 * server at start with a message, rather than serving a partial or wrongly gated site.
 */
export async function loadManifest(buildDir: string): Promise<Manifest> {
  const path = join(buildDir, MANIFEST_FILE);
  let raw: string;
  try {
    raw = await readFile(path, 'utf8');
  } catch {
    fail(path, 'it does not exist');
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(raw) as Manifest;
  } catch (error) {
    fail(path, `it is not valid JSON (${(error as Error).message})`);
  }
  if (typeof manifest !== 'object' || manifest === null) fail(path, 'it is not an object');
  if (manifest.version !== MANIFEST_VERSION)
    fail(path, `its version is ${String(manifest.version)}, not ${MANIFEST_VERSION}`);
  if (typeof manifest.entries !== 'object' || manifest.entries === null) fail(path, 'it has no entries');
  if (
    !Array.isArray(manifest.inlineScriptHashes) ||
    !manifest.inlineScriptHashes.every((h) => /^sha256-[\w+/=]+$/.test(h))
  )
    fail(path, 'its inline script hashes are malformed');
  for (const [key, entry] of Object.entries(manifest.entries)) {
    const ok =
      typeof entry === 'object' &&
      entry !== null &&
      typeof entry.url === 'string' &&
      typeof entry.file === 'string' &&
      !entry.file.split('/').includes('..') &&
      !entry.file.startsWith('/') &&
      typeof entry.contentType === 'string' &&
      typeof entry.size === 'number' &&
      typeof entry.etag === 'string' &&
      (entry.kind === 'page' || entry.kind === 'file') &&
      (entry.access === 'public' || entry.access === 'private') &&
      Array.isArray(entry.units) &&
      entry.units.every((unit) => typeof unit === 'string') &&
      (entry.access === 'public') === (entry.units.length === 0) &&
      typeof entry.immutable === 'boolean' &&
      isVariant(entry.br) &&
      isVariant(entry.gzip);
    if (!ok) fail(path, `its entry for ${key} is malformed`);
    const unknown = entry.units.find((unit) => !KNOWN_UNITS.has(unit));
    // A build labelled under another policy must not be served under this one.
    if (unknown !== undefined)
      fail(path, `its entry for ${key} names the unit "${unknown}", which the access policy does not define`);
  }
  const notFound = manifest.entries[manifest.notFound];
  if (!notFound || notFound.access !== 'public') fail(path, 'it has no public not-found page');
  // Every file it names must exist with the recorded size: a manifest from another build is refused.
  await Promise.all(
    Object.values(manifest.entries).flatMap((entry) =>
      [{ file: entry.file, size: entry.size }, entry.br, entry.gzip]
        .filter((v): v is Variant => v !== undefined)
        .map(async (variant) => {
          const size = await stat(join(buildDir, variant.file)).then(
            (s) => s.size,
            () => -1,
          );
          if (size !== variant.size) fail(path, `${variant.file} is missing or differs from the build it describes`);
        }),
    ),
  );
  return manifest;
}
