/**
 * Reads the portal's changelogs (format in site/CONTENT.md): front matter with a title,
 * then releases newest first, each `## <version> - <YYYY-MM-DD>` with `### Added`,
 * `### Changed`, `### Fixed` and `### Removed` lists.
 */

export type ChangeKind = 'added' | 'changed' | 'fixed' | 'removed';

export interface Release {
  version: string;
  /** ISO date, `2025-09-16`. */
  date: string;
  /** How many entries each section lists. */
  changes: Record<ChangeKind, number>;
}

const RELEASE_HEADING = /^## (\S+) - (\d{4}-\d{2}-\d{2})\s*$/;
const SECTION_HEADING = /^### (Added|Changed|Fixed|Removed)\s*$/;

/** The newest release a changelog lists (its first `##` heading), or null when it lists none. */
export function latestRelease(markdown: string): Release | null {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const start = lines.findIndex((line) => RELEASE_HEADING.test(line));
  if (start === -1) return null;
  const [, version = '', date = ''] = RELEASE_HEADING.exec(lines[start] ?? '') ?? [];
  const changes: Record<ChangeKind, number> = { added: 0, changed: 0, fixed: 0, removed: 0 };
  let section: ChangeKind | null = null;
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    const heading = SECTION_HEADING.exec(line);
    if (heading) section = (heading[1] ?? '').toLowerCase() as ChangeKind;
    else if (line.startsWith('### ')) section = null;
    else if (section !== null && /^[-*] /.test(line)) changes[section] += 1;
  }
  return { version, date, changes };
}

/** The `title` of a page's front matter, or null. */
export function frontMatterTitle(markdown: string): string | null {
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---/.exec(markdown)?.[1] ?? '';
  const title = /^title:\s*(.+?)\s*$/m.exec(frontMatter)?.[1];
  return title === undefined ? null : title.replace(/^(['"])(.*)\1$/, '$2');
}

/** What a changelog is of, from its title: "Player Manager changelog" → "Player Manager". */
export function projectName(title: string): string {
  return title.replace(/\s+changelog$/i, '').trim();
}
