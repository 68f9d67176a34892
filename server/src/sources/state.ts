import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { SourceState } from '@portal/contract';
import type { CachedSource } from '@portal/sync';

// What `npm run sync` keeps of each source (packages/sync's `CachedSource`): its type only, and
// the file is read here, not with @portal/sync's `readState`, whose pacote and git the runtime image leaves out.
export interface CacheState {
  syncedAt: string | null;
  sources: Record<string, CachedSource>;
}

/** The content cache's state, or an empty one when nothing was synced yet. */
export async function readCacheState(cacheDir: string): Promise<CacheState> {
  try {
    const state = JSON.parse(await readFile(join(cacheDir, 'state.json'), 'utf8')) as Partial<CacheState>;
    return { syncedAt: state.syncedAt ?? null, sources: state.sources ?? {} };
  } catch {
    return { syncedAt: null, sources: {} };
  }
}

export function sourceStates(state: CacheState): SourceState[] {
  return Object.entries(state.sources).map(([id, source]) => ({
    id,
    kind: source.kind,
    origin: source.package ?? source.repository ?? source.path ?? '',
    fetchedAt: source.fetchedAt ?? null,
    offline: source.offline === true,
    versions: (source.versions ?? []).map((version) => version.version),
    releases: source.releases?.length ?? 0,
    refused: (source.refused ?? []).map(({ version, reason, at }) => ({ version, reason, at: at ?? null })),
    notes: [
      ...(source.versions ?? []).flatMap(({ version, notes }) => (notes ?? []).map((note) => ({ version, note }))),
      // Of the published releases only: the reference of every release in range is made for the API changes.
      ...(source.api ?? [])
        .filter(({ version }) => source.versions?.some((published) => published.version === version))
        .flatMap(({ version, error, refused }) => [
          ...(error ? [{ version, note: `No API reference: ${error}.` }] : []),
          ...(refused ?? []).map(({ name, reason }) => ({
            version,
            note: `The export ${JSON.stringify(name)} is not documented: ${reason}.`,
          })),
        ]),
    ],
    error: source.error ?? null,
  }));
}

/**
 * A repository as owner/name on its host ("github.com/noriginmedia/norigin-spatial-navigation"),
 * from any of the ways package.json, git and GitHub's payloads spell it.
 */
export function repositoryKey(spelling: string): string {
  return spelling
    .trim()
    .toLowerCase()
    .replace(/^git\+/, '')
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^[^@/]+@([^:/]+):/, '$1/')
    .replace(/^[^@/]+@/, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
}

/** The sources whose repository (their own, or their newest release's package.json) is `repository`. */
export function sourcesOfRepository(state: CacheState, repository: string): string[] {
  const wanted = repositoryKey(repository);
  return Object.entries(state.sources)
    .filter(([, source]) =>
      [source.repository, source.versions?.[0]?.manifest?.repository]
        .filter((spelling): spelling is string => typeof spelling === 'string')
        .some((spelling) => repositoryKey(spelling) === wanted),
    )
    .map(([id]) => id);
}

/** The npm sources of `name`. */
export function sourcesOfPackage(state: CacheState, name: string): string[] {
  return Object.entries(state.sources)
    .filter(([, source]) => source.kind === 'npm' && source.package === name)
    .map(([id]) => id);
}
