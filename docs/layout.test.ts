import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The folders whose every sub-folder the picture names: where a new room is easy to miss. */
const PICTURED_LEVELS = ['', 'packages', 'server', 'server/src', 'site', 'site/src', 'e2e', 'bench', 'tools'];

/** Column at which the picture's descriptions start; a line blank up to it continues the one above. */
const NAME_COLUMN = 25;

/**
 * The paths the layout picture in docs/architecture.md names, as repository paths: an entry
 * indented under a folder is inside it (`site/` then `  src/pages/` is `site/src/pages/`).
 */
export function picturedPaths(markdown: string): string[] {
  const section = markdown.split(/^## How the repository is laid out$/m)[1] ?? '';
  const block = /```\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (block === undefined) throw new Error('docs/architecture.md has no layout picture');
  const parents: { indent: number; path: string }[] = [];
  const paths: string[] = [];
  for (const line of block.split('\n')) {
    const name = line.slice(0, NAME_COLUMN).trim();
    if (name === '') continue;
    const indent = line.length - line.trimStart().length;
    while (parents.length > 0 && (parents.at(-1) as { indent: number }).indent >= indent) parents.pop();
    const path = `${parents.at(-1)?.path ?? ''}${name}`;
    paths.push(path);
    if (path.endsWith('/')) parents.push({ indent, path });
  }
  return paths;
}

describe('the layout picture in docs/architecture.md', () => {
  const pictured = picturedPaths(readFileSync(join(root, 'docs', 'architecture.md'), 'utf8'));
  const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

  it('reads nested entries as paths inside their folder', () => {
    const picture =
      '## How the repository is laid out\n\n```\nsite/                    a\n  src/pages/             b\n                         more of b\nbin/run                  c\n```\n';
    expect(picturedPaths(picture)).toEqual(['site/', 'site/src/pages/', 'bin/run']);
  });

  it('names only files and folders that exist', () => {
    const missing = pictured.filter((path) => !existsSync(join(root, path)));
    expect(missing).toEqual([]);
  });

  it('names every folder of the levels a reader looks at', () => {
    const named = new Set(pictured.map((path) => path.replace(/\/$/, '')));
    // A folder is pictured when it, or something inside it, is named.
    const isNamed = (folder: string): boolean =>
      named.has(folder) || [...named].some((path) => path.startsWith(`${folder}/`));
    const folders = new Set<string>();
    for (const file of tracked) {
      for (const level of PICTURED_LEVELS) {
        const prefix = level === '' ? '' : `${level}/`;
        if (!file.startsWith(prefix)) continue;
        const rest = file.slice(prefix.length).split('/');
        if (rest.length > 1 && !(rest[0] as string).startsWith('.')) folders.add(`${prefix}${rest[0]}`);
      }
    }
    const unnamed = [...folders].filter((folder) => !isNamed(folder)).sort();
    expect(unnamed).toEqual([]);
  });
});
