/**
 * Which of a synced section's files each app builds. The portal's own build holds the
 * section's pages and its newest release (at the section's path); every older release is
 * built once into an archive (src/archives) and served beside the portal's files. A link
 * from a page of one app to a page of the other becomes a link to its address: the route
 * guard loads a page its app has no route for in full, and the archives' merge checks
 * those links (src/archives/merge.ts), which Docusaurus's own check cannot see.
 */
import { posix } from 'node:path';

import { archiveSidebarId, type ArchivedRelease } from '../../archives/spec';
import type { PackageVersions } from './materialise';

/** The release folder a file of the section belongs to (`3.2.1`), or '' for the section's own pages and the newest at its path. */
export function releaseOf(path: string, picker: PackageVersions): string {
  const first = path.split('/')[0] ?? '';
  return picker.versions.some((entry) => entry.version === first) ? first : '';
}

/** The address a page of the section is served at: `README.md` → `/docs/X/`, `2.3.0/api/index.md` → `/docs/X/2.3.0/api/`. */
export function pageAddress(basePath: string, path: string): string {
  const route = path.replace(/(^|\/)(README|index)\.md$/, '$1').replace(/\.md$/, '');
  return basePath + route;
}

const MARKDOWN_LINK = /\]\(((?![a-z][a-z0-9+.-]*:|\/|#)[^)\s]+?\.md)(#[^)\s]*)?\)/gi;

/**
 * The files of the section that this build holds: the portal's (`archive` null) or those of
 * the archived releases of this source. Links to the section's files that the build does not
 * hold point at their address instead; an archived page shows its release's own sidebar.
 */
export function filesOfApp(
  sourceId: string,
  files: ReadonlyMap<string, string | { copyFrom: string }>,
  picker: PackageVersions,
  archive: readonly ArchivedRelease[] | null,
): Map<string, string | { copyFrom: string }> {
  const archived = new Set((archive ?? []).filter((entry) => entry.source === sourceId).map((entry) => entry.version));
  const holds = (path: string): boolean => {
    const release = releaseOf(path, picker);
    return archive === null ? release === '' : archived.has(release);
  };
  const held = new Map<string, string | { copyFrom: string }>();
  for (const [path, content] of files) {
    if (!holds(path)) continue;
    if (typeof content !== 'string') {
      held.set(path, content);
      continue;
    }
    let text = content.replace(MARKDOWN_LINK, (whole, target: string, hash = '') => {
      const resolved = posix.normalize(posix.join(posix.dirname(path), target));
      return files.has(resolved) && !holds(resolved) ? `](${pageAddress(picker.basePath, resolved)}${hash})` : whole;
    });
    const release = releaseOf(path, picker);
    if (archive !== null)
      text = text.replace(
        /^displayed_sidebar: tutorialSidebar$/m,
        `displayed_sidebar: ${archiveSidebarId({ source: sourceId, version: release })}`,
      );
    held.set(path, text);
  }
  return held;
}
