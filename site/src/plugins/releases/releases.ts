/**
 * The latest release of every documented project, read from the changelogs at build time
 * so that the home page's "What's new" is never typed twice. A project is a folder right
 * under `docs/` with a CHANGELOG.md; the changelogs of single packages inside a monorepo
 * (`player-manager-mono/packages/*`) are left out, since their repository's entry covers
 * them (all its packages are released together).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { frontMatterTitle, latestRelease, projectName, type Release } from './changelog';

export interface ProjectRelease extends Release {
  /** The project's folder under docs/ (`layout-engine`). */
  project: string;
  /** The project's name, from its changelog's title (`Layout Engine`). */
  name: string;
  /** The changelog's route (`/docs/layout-engine/CHANGELOG`). */
  permalink: string;
}

/** What the plugin hands the site (global data of `portal-releases`). */
export interface ReleasesData {
  /** Newest first; ties keep the folders' alphabetical order. */
  releases: ProjectRelease[];
}

export async function readReleases(docsDir: string, routeBase = '/docs'): Promise<ReleasesData> {
  const folders = (await readdir(docsDir, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  const releases: ProjectRelease[] = [];
  for (const project of folders) {
    let markdown: string;
    try {
      markdown = await readFile(join(docsDir, project, 'CHANGELOG.md'), 'utf8');
    } catch {
      continue; // no changelog: nothing released (the guidelines, for one)
    }
    const latest = latestRelease(markdown);
    if (latest === null) throw new Error(`${project}/CHANGELOG.md lists no release (## <version> - <date>)`);
    const title = frontMatterTitle(markdown) ?? project;
    releases.push({ ...latest, project, name: projectName(title), permalink: `${routeBase}/${project}/CHANGELOG` });
  }
  releases.sort((a, b) => b.date.localeCompare(a.date));
  return { releases };
}
