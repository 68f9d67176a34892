/**
 * A repository's own pages: its changelog, licence, code of conduct and contributing guide.
 * The sidebar gathers them under one "About this package" entry per package (sidebars.ts),
 * and previous/next never leads to them (src/plugins/pager-skip.ts): a reader going through
 * the packages wants the next package, not its licence.
 */
export const repositoryPages = ['CHANGELOG', 'LICENSE', 'CODE_OF_CONDUCT', 'CONTRIBUTING'] as const;

export type RepositoryPage = (typeof repositoryPages)[number];

/** The label of the sub-category that holds a package's repository pages. */
export const ABOUT_LABEL = 'About this package';

/** The `customProps.kind` of that sub-category, which the category pages leave out of their package lists. */
export const ABOUT_KIND = 'about';

const pageNames: Record<RepositoryPage, string> = {
  CHANGELOG: 'changelog',
  LICENSE: 'licence',
  CODE_OF_CONDUCT: 'code of conduct',
  CONTRIBUTING: 'contributing guide',
};

/** What a package's "About this package" holds, in a sentence: "Its changelog, licence and contributing guide." */
export function aboutDescription(pages: readonly RepositoryPage[]): string {
  const names = pages.map((page) => pageNames[page]);
  const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
  return `Its ${list}.`;
}

/** Whether a doc id or permalink (`layout-engine/LICENSE`, `/docs/layout-engine/LICENSE`) is a repository page. */
export function isRepositoryPage(idOrPermalink: string): boolean {
  const last = idOrPermalink.replace(/\/$/, '').split('/').pop() ?? '';
  return (repositoryPages as readonly string[]).includes(last);
}

/** Whether a sidebar item is a package's "About this package" sub-category. */
export function isAboutGroup(item: { type: string; customProps?: { [key: string]: unknown } }): boolean {
  return item.type === 'category' && item.customProps?.kind === ABOUT_KIND;
}
