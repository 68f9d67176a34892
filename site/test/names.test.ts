// One name for each thing: a package's page title (its H1), its sidebar label and
// breadcrumbs (src/data/packages.ts), the access unit that refusal pages, licences and
// requests name (packages/access/policy.js) and the home page's family cards all say the
// same; one install command across the site; no "Streams's". The known slips fail here,
// before a build.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import policy from '../../packages/access/policy.js';
import { possessive } from '@portal/contract/names';
import { describe, expect, it } from 'vitest';

import sidebars from '../sidebars';
import { families } from '../src/data/families';
import { packageNames } from '../src/data/packages';

const siteDir = join(import.meta.dirname, '..');
const docsDir = join(siteDir, 'docs');

const titleOf = (file: string): string | undefined =>
  /^title: (.+)$/m.exec(readFileSync(file, 'utf8'))?.[1]?.replace(/^(['"])(.*)\1$/, '$2');

/** The sidebar's categories, by the slug of their generated index. */
function categories(items: unknown, found = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(items)) items.forEach((item) => categories(item, found));
  else if (items && typeof items === 'object') {
    const item = items as { type?: string; label?: string; link?: { type?: string; slug?: string }; items?: unknown };
    if (item.type === 'category' && item.link?.type === 'generated-index' && item.link.slug && item.label)
      found.set(item.link.slug, item.label);
    categories(item.items ?? [], found);
  }
  return found;
}

/** Every hand-written Markdown file of the site's docs and blog, with its text outside code. */
function prose(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.mdx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !relative(docsDir, file).startsWith('Norigin-Spatial-Navigation/'))
    .map((file) => ({ file, text: readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '') }));
}

describe('one name for each thing', () => {
  it.each([...packageNames].map(([dir, name]) => [dir, name.label]))(
    'docs/%s is titled as the sidebar names it (%s)',
    (dir, label) => {
      // A package copied into the custom test build says so in its title.
      const expected = dir.startsWith('player-manager-mono-custom-test/') ? `${label} (custom test)` : label;
      expect(titleOf(join(docsDir, dir, 'README.md'))).toBe(expected);
    },
  );

  it('names each package’s access unit as its pages do', () => {
    const checked: string[] = [];
    for (const [unit, { label, paths }] of Object.entries(policy.units)) {
      const dir = paths.length === 1 ? paths[0]?.replace(/^\/docs\//, '') : undefined;
      const name = dir === undefined ? undefined : packageNames.get(dir);
      if (!name) continue;
      expect(label, unit).toBe(name.label);
      checked.push(unit);
    }
    // Every player and UI toolkit package, and the single-repository projects.
    expect(checked.length).toBeGreaterThanOrEqual(35);
  });

  it('names each section’s unit and home-page family as the sidebar names its category', () => {
    const labels = categories(sidebars.tutorialSidebar);
    for (const [unit, { label, paths }] of Object.entries(policy.units)) {
      const category = paths.map((path) => /^\/docs\/category\/(.+)$/.exec(path)?.[1]).find(Boolean);
      if (category) expect(label, unit).toBe(labels.get(`/category/${category}`));
    }
    for (const family of families) {
      const category = /^\/docs(\/category\/.+|\/support-documentation|\/ui-toolkit)$/.exec(family.to)?.[1];
      const landing = /^\/docs\/(.+)\/$/.exec(family.to)?.[1];
      const expected = category ? labels.get(category) : landing ? packageNames.get(landing)?.label : undefined;
      expect(family.title, family.to).toBe(expected);
    }
  });

  it('installs packages one way across the site: pnpm add', () => {
    const slips = [...prose(docsDir), ...prose(join(siteDir, 'blog'))]
      .concat([{ file: 'src/pages/index.tsx', text: readFileSync(join(siteDir, 'src/pages/index.tsx'), 'utf8') }])
      .flatMap(({ file, text }) =>
        [...text.matchAll(/\b(?:npm (?:install|i)|yarn add) @noriginmedia\/\S+/g)].map(([slip]) => `${file}: ${slip}`),
      );
    // Code blocks too: the command a reader copies.
    const inCode = readdirSync(docsDir, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
      .flatMap((entry) => {
        const file = join(entry.parentPath, entry.name);
        return [...readFileSync(file, 'utf8').matchAll(/^\s*(?:npm (?:install|i)|yarn add) @noriginmedia\/\S+/gm)].map(
          ([slip]) => `${relative(siteDir, file)}: ${slip.trim()}`,
        );
      });
    expect([...slips, ...inCode]).toEqual([]);
  });

  it('writes a possessive of a name ending in s without a second s', () => {
    expect(possessive('Halcyon Streams')).toBe('Halcyon Streams’');
    expect(possessive('Northwind')).toBe('Northwind’s');
    const slips = prose(docsDir).flatMap(({ file, text }) =>
      [...text.matchAll(/\b[A-Z][a-z]+s['’]s\b/g)].map(([slip]) => `${relative(siteDir, file)}: ${slip}`),
    );
    expect(slips).toEqual([]);
  });
});
