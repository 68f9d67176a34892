import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { Negotiator } from '@fastify/accept-negotiator';
import { normalizeRoute } from '@portal/access';

import { loadManifest, type Manifest, type ManifestEntry } from './manifest/manifest.js';

export type Encoding = 'br' | 'gzip' | 'identity';

export interface SiteFile extends ManifestEntry {
  bodies: Partial<Record<Encoding, Buffer>>;
}

export interface Site {
  /** The file a request path names, by the portal's route rule; undefined when none does. */
  lookup(rawPath: string): SiteFile | undefined;
  notFound: SiteFile;
  /** Every page of the site with who may read it (for the insights' "never read"). */
  pages: readonly { url: string; access: 'public' | 'private'; groups: readonly string[] }[];
  inlineScriptHashes: readonly string[];
  files: number;
  bytes: number;
}

/**
 * Loads the build as the manifest describes it, every file and its precompressed forms
 * into memory (the site is a few megabytes; the disk is read once, at start). A request
 * path is only ever a key into this map: it is never joined to a file-system path.
 */
export async function loadSite(buildDir: string): Promise<Site> {
  const manifest: Manifest = await loadManifest(buildDir);
  const byKey = new Map<string, SiteFile>();
  let bytes = 0;
  await Promise.all(
    Object.entries(manifest.entries).map(async ([key, entry]) => {
      const bodies: SiteFile['bodies'] = { identity: await readFile(join(buildDir, entry.file)) };
      if (entry.br) bodies.br = await readFile(join(buildDir, entry.br.file));
      if (entry.gzip) bodies.gzip = await readFile(join(buildDir, entry.gzip.file));
      for (const body of Object.values(bodies)) bytes += body.length;
      byKey.set(key, { ...entry, bodies });
    }),
  );
  const notFound = byKey.get(manifest.notFound) as SiteFile;
  // Readers ask for a few hundred paths: each is normalised once and remembered (bounded in
  // count and length, for clients that send many or long ones).
  const looked = new Map<string, SiteFile | null>();
  return {
    lookup(rawPath) {
      let file = looked.get(rawPath);
      if (file === undefined) {
        const key = normalizeRoute(rawPath);
        file = (key === null ? undefined : byKey.get(key)) ?? null;
        if (rawPath.length <= 512) remember(looked, rawPath, file, 4096);
      }
      return file ?? undefined;
    },
    notFound,
    pages: [...byKey.values()]
      .filter((file) => file.kind === 'page')
      .map((file) => ({ url: file.url, access: file.access, groups: file.groups })),
    inlineScriptHashes: manifest.inlineScriptHashes,
    files: byKey.size,
    bytes,
  };
}

/** Sets `key` in a cache that is emptied whenever it reaches `most` entries. */
function remember<K, V>(map: Map<K, V>, key: K, value: V, most: number): void {
  if (map.size >= most) map.clear();
  map.set(key, value);
}

/**
 * Answers per header value, in a map emptied at 256 entries: browsers send a handful of
 * values, and a client sending many cannot grow it (35 ns a lookup against 386 to negotiate).
 */
function answerCache(): Map<string, string> {
  const answers = new Map<string, string>();
  const set = answers.set.bind(answers);
  answers.set = (key, value) => (answers.size >= 256 && answers.clear(), set(key, value));
  return answers;
}

// One negotiator per set of precompressed forms a file has, brotli first: it is the smaller.
const encodingsOf = {
  both: new Negotiator({ supportedValues: ['br', 'gzip'], cache: answerCache() }),
  br: new Negotiator({ supportedValues: ['br'], cache: answerCache() }),
  gzip: new Negotiator({ supportedValues: ['gzip'], cache: answerCache() }),
};

/** Picks the encoding the client prefers (`Accept-Encoding`, with q-values) among the file's forms, brotli on a tie. */
export function chooseEncoding(acceptEncoding: string | undefined, file: SiteFile): Encoding {
  if (!acceptEncoding) return 'identity';
  const { br, gzip } = file.bodies;
  const negotiator = br ? (gzip ? encodingsOf.both : encodingsOf.br) : gzip ? encodingsOf.gzip : null;
  return (negotiator?.negotiate(acceptEncoding) as Encoding | null | undefined) ?? 'identity';
}
