/**
 * Which build this is: the portal (the main app), or an archive of older releases of synced
 * packages, built once and kept in the content cache (src/archives/archives.ts). An archive
 * build is the same site, config and theme with `PORTAL_ARCHIVE` set to the releases it holds
 * (`[{"source":"norigin-spatial-navigation","version":"3.2.1"}]`): its docs are those
 * releases' pages only, at the paths the portal serves them from (`<section>/<version>/`).
 */
export interface ArchivedRelease {
  /** The id of its source in site/sources.yaml. */
  source: string;
  version: string;
}

export const ARCHIVE_ENV = 'PORTAL_ARCHIVE';

/** The sidebars file of an archive build (its config's `sidebarPath`), written with its site folder (makeArchiveSite): each release's own pages. */
export const ARCHIVE_SIDEBARS = 'archive-sidebars.json';

/** The releases this build archives, or null for the portal's own build. Throws on a malformed value. */
export function archivedReleases(env: NodeJS.ProcessEnv = process.env): ArchivedRelease[] | null {
  const value = env[ARCHIVE_ENV];
  if (value === undefined || value === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error(`${ARCHIVE_ENV} is not JSON: ${value.slice(0, 80)}`);
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length === 0 ||
    !parsed.every(
      (entry: unknown) =>
        typeof entry === 'object' &&
        entry !== null &&
        typeof (entry as ArchivedRelease).source === 'string' &&
        typeof (entry as ArchivedRelease).version === 'string',
    )
  )
    throw new Error(`${ARCHIVE_ENV} must list the releases to archive as [{"source": …, "version": …}]`);
  return parsed as ArchivedRelease[];
}

/** The sidebar that an archived release's pages show: its own pages only. */
export function archiveSidebarId({ source, version }: ArchivedRelease): string {
  return `release-${source}-${version}`;
}
