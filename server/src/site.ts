import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { negotiate, Negotiator } from '@fastify/accept-negotiator';
import { normalizeRoute } from '@portal/access';
import { markdownUrl, pageOfMarkdown } from '@portal/built-site';
import { searchStartBundleOf } from '@portal/search';

import { loadManifest, type Manifest, type ManifestEntry } from './manifest/manifest.js';

export type Encoding = 'br' | 'gzip' | 'identity';

export interface SiteFile extends ManifestEntry {
  bodies: Partial<Record<Encoding, Buffer>>;
  /** A page's Markdown twin (`/docs/x.md`), when the build wrote one: named by the page's `Link` header. */
  markdown?: string;
}

export interface Site {
  /** The file a request path names, by the portal's route rule; undefined when none does. */
  lookup(rawPath: string): SiteFile | undefined;
  notFound: SiteFile;
  /** Every page of the site with who may read it (for the insights' "never read"). */
  pages: readonly { url: string; access: 'public' | 'private'; units: readonly string[] }[];
  inlineScriptHashes: readonly string[];
  /** The files a search over `bundle` (`/search/<unit>/`) starts with (`searchStartBundleOf`); none for an unknown one. */
  searchStartFiles(bundle: string): readonly SiteFile[];
  files: number;
  bytes: number;
  /** What the build is: the hash of its manifest's entries (two builds of the same files share it). */
  id: string;
  /** When this build was read into memory (ISO time). */
  loadedAt: string;
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
  // Each page names its Markdown twin, for assistants that read the page first.
  for (const file of byKey.values()) {
    if (file.kind !== 'page') continue;
    const twin = byKey.get(normalizeRoute(markdownUrl(file.url)) ?? '');
    if (twin && twin !== file) file.markdown = twin.url;
  }
  const notFound = byKey.get(manifest.notFound) as SiteFile;
  const startFiles = new Map<string, SiteFile[]>();
  for (const file of byKey.values()) {
    const bundle = searchStartBundleOf(file.url);
    if (bundle === null) continue;
    let files = startFiles.get(bundle);
    if (!files) startFiles.set(bundle, (files = []));
    files.push(file);
  }
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
      .map((file) => ({ url: file.url, access: file.access, units: file.units })),
    inlineScriptHashes: manifest.inlineScriptHashes,
    searchStartFiles: (bundle) => startFiles.get(bundle) ?? [],
    files: byKey.size,
    bytes,
    loadedAt: new Date().toISOString(),
    id: createHash('sha256').update(JSON.stringify(manifest.entries)).digest('hex').slice(0, 16),
  };
}

/**
 * The site the gate serves, replaceable while it serves: `reload()` reads the build folder
 * again (after a release hook rebuilt it, on this replica or another) and switches to it in
 * one step, so a request is answered wholly from the old build or wholly from the new one.
 * A build whose inline scripts differ is refused: the security headers are built once at
 * start from the first build's hashes, so it would be served with scripts the browser blocks.
 */
export class LiveSite implements Site {
  private reloading: Promise<'replaced' | 'unchanged'> | null = null;
  private readonly listeners: ((site: Site) => void)[] = [];

  private constructor(
    private buildDir: string,
    private current: Site,
  ) {}

  static async open(buildDir: string): Promise<LiveSite> {
    return new LiveSite(buildDir, await loadSite(buildDir));
  }

  lookup(rawPath: string): SiteFile | undefined {
    return this.current.lookup(rawPath);
  }
  get notFound(): SiteFile {
    return this.current.notFound;
  }
  get pages(): Site['pages'] {
    return this.current.pages;
  }
  get inlineScriptHashes(): readonly string[] {
    return this.current.inlineScriptHashes;
  }
  searchStartFiles(bundle: string): readonly SiteFile[] {
    return this.current.searchStartFiles(bundle);
  }
  get files(): number {
    return this.current.files;
  }
  get bytes(): number {
    return this.current.bytes;
  }
  get id(): string {
    return this.current.id;
  }
  get loadedAt(): string {
    return this.current.loadedAt;
  }

  /** Called after each replacement, with the new build. */
  onReplace(listener: (site: Site) => void): void {
    this.listeners.push(listener);
  }

  /**
   * Reads the build folder again (or `buildDir`, a site release's, which it serves from then
   * on) and serves it when it is another build; one reload at a time.
   */
  reload(buildDir = this.buildDir): Promise<'replaced' | 'unchanged'> {
    const run = async (): Promise<'replaced' | 'unchanged'> => {
      const next = await loadSite(buildDir);
      if (next.id === this.current.id) {
        this.buildDir = buildDir;
        return 'unchanged';
      }
      const hashes = (site: Site) => [...site.inlineScriptHashes].sort().join(' ');
      if (hashes(next) !== hashes(this.current))
        throw new Error('the new build has other inline scripts than the one served: restart the gate to serve it');
      this.buildDir = buildDir;
      this.current = next;
      for (const listener of this.listeners) listener(next);
      return 'replaced';
    };
    const previous = this.reloading ?? Promise.resolve('unchanged' as const);
    const reloading = previous.catch(() => 'unchanged' as const).then(run);
    this.reloading = reloading;
    return reloading;
  }
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

/** The headers of a file that do not depend on the request: its caching, what the answer varies by, its tag. */
export function fileHeaders(file: SiteFile): {
  'cache-control': string;
  vary: string;
  etag: string;
  link?: string;
} {
  const isPrivate = file.access === 'private';
  // A page answers HTML or its Markdown by the Accept header.
  const negotiated = file.kind === 'page' || file.contentType.startsWith('text/markdown');
  return {
    // Where an assistant reads the page as Markdown (RFC 8288).
    ...(file.markdown === undefined ? {} : { link: `<${file.markdown}>; rel="alternate"; type="text/markdown"` }),
    'cache-control': isPrivate
      ? 'private, no-store'
      : file.immutable
        ? 'public, max-age=31536000, immutable'
        : 'public, max-age=0, must-revalidate',
    vary: `Accept-Encoding${negotiated ? ', Accept' : ''}${isPrivate ? ', Cookie' : ''}`,
    etag: file.etag,
  };
}

/** Whether an Accept header asks for Markdown before HTML (`text/markdown`, at a q no lower than HTML's). */
export function prefersMarkdown(accept: string | undefined): boolean {
  if (accept?.includes('markdown') !== true) return false;
  // The negotiator counts a media range with parameters other than q (`;charset=utf-8`) as
  // not matching; only q decides here.
  const ranges = accept.replace(/;\s*(?!q=)[^;,]*/gi, '');
  return negotiate(ranges, ['text/markdown', 'text/html']) === 'text/markdown';
}

/** The Markdown file a GET asks for: a page's `.md` twin by its own path, or by the page's path with Accept: text/markdown. */
export function markdownTwinOf(site: Site, path: string, accept: string | undefined): SiteFile | undefined {
  const file = site.lookup(path);
  if (file === undefined) return undefined;
  if (pageOfMarkdown(file.url) !== null) return file;
  return file.kind === 'page' && prefersMarkdown(accept) ? site.lookup(markdownUrl(file.url)) : undefined;
}
