/**
 * Previous/next links that name the package. Docusaurus labels a pager link with the
 * target's sidebar label, and every package has an "Overview" and a "Changelog": the pager
 * of one package read "« Changelog" and "Changelog »". Here a page inside a documented
 * project is labelled "<project> › <label>" (`Custom test build › Player core`), and a
 * project's landing page by the project's name (`DASH adapter`, not "Overview").
 * Pure: the gated docs plugin applies it to the loaded content (gated-docs.ts).
 */

/** The parts of a processed sidebar item this reads. */
export interface SidebarNode {
  type: string;
  id?: string;
  label?: string;
  link?: { type: string; id?: string };
  items?: readonly SidebarNode[];
}

export interface NavigationLink {
  title: string;
  permalink: string;
}

/**
 * Doc id → the project it belongs to (the nearest category above it that has a page of its
 * own), and whether it is that project's landing page.
 */
export function projectsOfDocs(items: readonly SidebarNode[]): Map<string, { project: string; landing: boolean }> {
  const found = new Map<string, { project: string; landing: boolean }>();
  const walk = (nodes: readonly SidebarNode[], project: string | null): void => {
    for (const node of nodes) {
      if (node.type === 'category') {
        const ownDoc = node.link?.type === 'doc' ? node.link.id : undefined;
        const inner = ownDoc !== undefined && node.label ? node.label : project;
        if (ownDoc !== undefined && inner !== null) found.set(ownDoc, { project: inner, landing: true });
        walk(node.items ?? [], inner);
      } else if ((node.type === 'doc' || node.type === 'ref') && node.id && project !== null && !found.has(node.id)) {
        found.set(node.id, { project, landing: false });
      }
    }
  };
  walk(items, null);
  return found;
}

/** The label a pager shows for a link to a doc of `project`. */
export function pagerLabel(title: string, where: { project: string; landing: boolean } | undefined): string {
  if (where === undefined) return title;
  if (where.landing || title === where.project) return where.project;
  return `${where.project} › ${title}`;
}

export type ProjectsByPermalink = ReadonlyMap<string, { project: string; landing: boolean }>;

/**
 * A navigation link labelled by its target's project (`projects`: permalink → project).
 * Unchanged when its target is not a doc of a project.
 */
export function relabel<T extends NavigationLink | undefined>(link: T, projects: ProjectsByPermalink): T {
  if (link === undefined) return link;
  const where = projects.get(link.permalink);
  return (where === undefined ? link : { ...link, title: pagerLabel(link.title, where) }) as T;
}
