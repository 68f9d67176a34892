import type { ManifestFields } from './trust.js';

export const DEFAULT_FILES: string[];

export interface Source {
  id: string;
  kind: 'npm' | 'git' | 'local';
  section: string;
  title: string;
  package?: string;
  repository?: string;
  tags?: string;
  versions?: string;
  pick?: 'all' | 'newest-per-minor' | 'newest-per-major';
  files?: string[];
  pages?: string;
  path?: string;
  front_matter?: Record<string, unknown>;
}

export interface LoadedSources {
  file: string;
  sources: Source[];
  hash: string;
}

export class SourcesError extends Error {}

export function loadSources(file: string, options: { siteDir: string }): LoadedSources;
export function pickVersions(
  versions: string[],
  source: { versions: string; pick: 'all' | 'newest-per-minor' | 'newest-per-major' },
): string[];
export function versionOfTag(tag: string, pattern: string): string | undefined;

export interface CachedVersion {
  version: string;
  date: string | null;
  tag?: string;
  dir: string;
  files: string[];
  /** What the trust boundary left out of the release (a file's name or size), for /admin/sources. */
  notes?: string[];
  /** What the trust boundary kept of its package.json. */
  manifest: ManifestFields;
}

export interface CachedSource {
  kind: 'npm' | 'git' | 'local';
  package?: string;
  repository?: string;
  path?: string;
  fetchedAt?: string;
  offline?: boolean;
  error?: string;
  releases?: { version: string; date: string | null }[];
  versions?: CachedVersion[];
  /** The API reference of every release in the source's range (npm only), newest first. */
  api?: CachedReference[];
  /** Releases that could not be published (the trust boundary or the site build refused them), and why. */
  refused?: RefusedRelease[];
}

export interface RefusedRelease {
  version: string;
  reason: string;
  /** The release's integrity or commit and the files taken: the same release is not fetched again. */
  marker: string;
  at: string;
}

/** A release's API reference in the cache: `dir` holds model.json and pages/<slug>.md; or why it has none. */
export interface CachedReference {
  version: string;
  dir?: string;
  symbols?: number;
  /** The dependencies whose declarations it re-exports, at the versions the release pinned. */
  dependencies?: Record<string, string>;
  /** Exports the trust boundary left out of it, and why. */
  refused?: { name: string; reason: string }[];
  error?: string;
}

/** One exported symbol of a release, as model.json holds it. */
export interface ApiSymbol {
  name: string;
  /** The page's name under api/ (the name, or name-kind where two differ only in case). */
  slug: string;
  kind: 'hook' | 'function' | 'class' | 'interface' | 'type' | 'enum' | 'namespace' | 'constant' | 'variable' | 'other';
  /** The declaration as one text: two releases whose texts differ changed the symbol. */
  declaration: string;
  /** The summary of its doc comment, Markdown. */
  summary: string;
  /** The package that declares it (a dependency it re-exports, or the package itself), and the file. */
  from?: string;
  file?: string;
}

export interface ApiModel {
  package: string;
  version: string;
  symbols: ApiSymbol[];
  /** Exports the trust boundary left out (a name that is no identifier, one too many), and why. */
  refused?: { name: string; reason: string }[];
}

export interface SyncState {
  sourcesHash: string;
  syncedAt: string;
  offline: boolean;
  sources: Record<string, CachedSource>;
}

export function readState(cacheDir: string): SyncState | undefined;
export function npmSettings(root: string, env?: NodeJS.ProcessEnv): Record<string, string>;
export function sync(
  loaded: LoadedSources,
  options: { cacheDir: string; root: string; only?: string[]; log?: (line: string) => void; env?: NodeJS.ProcessEnv },
): Promise<SyncState>;
export function refuseReleases(
  cacheDir: string,
  refusals: { source: string; version: string; reason: string }[],
): string;
export function restoreState(cacheDir: string, text: string): void;
export function isCurrent(state: SyncState | undefined, loaded: LoadedSources): state is SyncState;

/**
 * A digest of what a source's pages are made from in the cache (releases, versions and their
 * folders' markers, refusals, API reference entries), without when it was fetched; null
 * when the state has no such source.
 */
export function sourceFingerprint(state: SyncState | undefined, id: string, cacheDir: string): string | null;
