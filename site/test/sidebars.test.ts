import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import sidebars from '../sidebars';
import { packageNames } from '../src/data/packages';
import { ABOUT_LABEL, isRepositoryPage } from '../src/data/repository-pages';
import { skipRepositoryPages, type PagedDoc } from '../src/plugins/pager-skip';

const docsDir = join(import.meta.dirname, '..', 'docs');

/** A sidebar entry as sidebars.ts writes it (the parts these tests read). */
interface Entry {
  type?: string;
  id?: string;
  label?: string;
  description?: string;
  link?: { type: string; id?: string; slug?: string; description?: string };
  customProps?: { [key: string]: unknown };
  items?: (Entry | string)[];
}

const entry = (item: Entry | string): Entry => (typeof item === 'string' ? { type: 'doc', id: item } : item);
const top = (sidebars.tutorialSidebar as (Entry | string)[]).map(entry);

/** Every category with its parent, depth first. */
function categories(items: readonly Entry[], parent: Entry | null = null): { category: Entry; parent: Entry | null }[] {
  return items.flatMap((item) =>
    item.type === 'category' ? [{ category: item, parent }, ...categories((item.items ?? []).map(entry), item)] : [],
  );
}
const all = categories(top);

/** Every doc entry of the sidebar. */
function docEntries(items: readonly Entry[]): Entry[] {
  return items.flatMap((item) =>
    item.type === 'category' ? docEntries((item.items ?? []).map(entry)) : item.type === 'doc' ? [item] : [],
  );
}

/**
 * A documented project or package: a category whose page is a README, or the README alone
 * when the project has no other page.
 */
const projects = [
  ...all.map(({ category }) => category).filter((category) => category.link?.id?.endsWith('/README')),
  ...docEntries(top).filter((item) => item.id?.endsWith('/README')),
].map((category) => ({ category }));
const dirOf = (item: Entry): string => dirname(item.link?.id ?? item.id ?? '');

/** The pages in the order Docusaurus links them by previous/next: category pages and docs. */
function readingOrder(items: readonly Entry[]): string[] {
  return items.flatMap((item) => {
    if (item.type === 'doc' && item.id) return [item.id];
    if (item.type !== 'category') return [];
    const own = item.link?.type === 'doc' ? [item.link.id ?? ''] : item.link ? [`category${item.link.slug}`] : [];
    return [...own, ...readingOrder((item.items ?? []).map(entry))];
  });
}

function linked(ids: readonly string[]): PagedDoc[] {
  const link = (id: string | undefined) => (id === undefined ? undefined : { title: id, permalink: `/docs/${id}` });
  return ids.map((id, index) => ({
    id,
    permalink: `/docs/${id}`,
    ...(index > 0 && { previous: link(ids[index - 1]) }),
    ...(index < ids.length - 1 && { next: link(ids[index + 1]) }),
  }));
}

function frontMatterDescription(docId: string): string | undefined {
  const file = [`${docId}.md`, `${docId}.mdx`].map((name) => join(docsDir, name)).find(existsSync);
  if (file === undefined) return undefined;
  return /^description: (.+)$/m.exec(readFileSync(file, 'utf8').split('\n---\n')[0] ?? '')?.[1];
}

describe('the sidebar', () => {
  it('labels every project and package by its name in src/data/packages.ts', () => {
    expect(projects.length).toBeGreaterThan(40);
    for (const { category } of projects) {
      expect(category.label, dirOf(category)).toBe(packageNames.get(dirOf(category))?.label);
    }
  });

  it('lets no page of one page override its name with a sidebar_label of its own', () => {
    const alone = projects.filter(({ category }) => category.type === 'doc');
    expect(alone.length).toBeGreaterThan(0);
    for (const { category } of alone) {
      const readme = readFileSync(join(docsDir, `${category.id}.md`), 'utf8');
      expect(readme, category.id).not.toMatch(/^sidebar_label:/m);
    }
  });

  it('gives every package a human label, not its folder name, and its npm name beside it', () => {
    const packages = projects.filter(({ category }) => dirOf(category).includes('/packages/'));
    expect(packages).toHaveLength(23 + 6 + 7);
    for (const { category } of packages) {
      const folder = basename(dirOf(category));
      expect(category.label, folder).not.toBe(folder);
      expect(category.label, folder).toMatch(/^[A-Z]/);
      expect(category.customProps?.npm, folder).toMatch(/^@noriginmedia\//);
      // The package's own page names it so: the npm name is the one developers install.
      const readme = readFileSync(join(docsDir, `${dirOf(category)}/README.md`), 'utf8');
      expect(readme, folder).toContain(`\`${String(category.customProps?.npm)}\``);
    }
    expect(all.map(({ category }) => category.label)).not.toContain('player-manager-mono-custom-test');
  });

  it('has a name for every documented folder', () => {
    const readmes = (dir: string): string[] =>
      readdirSync(join(docsDir, dir), { withFileTypes: true }).flatMap((child) => {
        const path = dir ? `${dir}/${child.name}` : child.name;
        // A synced section's older releases (`Norigin-Spatial-Navigation/1.0.5`) are versions, not packages.
        if (child.isDirectory()) return /^\d+\.\d+\.\d+/.test(child.name) ? [] : readmes(path);
        return child.name === 'README.md' ? [dir] : [];
      });
    for (const dir of readmes('')) expect(packageNames.has(dir), `docs/${dir}`).toBe(true);
  });

  it('groups the player packages by kind: players, player adapters, tracking', () => {
    const player = projects.find(({ category }) => dirOf(category) === 'player-manager-mono')?.category;
    const groups = (player?.items ?? []).map(entry).filter((item) => item.type === 'category' && !item.link);
    expect(groups.map((group) => group.label)).toEqual(['Players', 'Player adapters', 'Tracking', ABOUT_LABEL]);
    const folders = (label: string) =>
      (groups.find((group) => group.label === label)?.items ?? []).map((item) => basename(dirOf(entry(item))));
    expect(folders('Players')).toEqual(['player-core', 'player-manager', 'player-framework', 'player-scheduler-vast']);
    expect(folders('Player adapters').every((name) => name.startsWith('player-adapter-'))).toBe(true);
    expect(folders('Tracking')[0]).toBe('tracking-manager');
    expect(
      folders('Tracking')
        .slice(1)
        .every((name) => name.startsWith('tracking-adapter-')),
    ).toBe(true);
    expect(folders('Players').length + folders('Player adapters').length + folders('Tracking').length).toBe(23);
  });

  it('puts every repository page under its own package’s About this package', () => {
    const repositoryPages = readingOrder(top).filter(isRepositoryPage);
    expect(repositoryPages.length).toBeGreaterThan(40);
    for (const id of repositoryPages) {
      const about = all.find(({ category }) => (category.items ?? []).map(entry).some((item) => item.id === id));
      expect(about?.category.label, id).toBe(ABOUT_LABEL);
      expect(about?.parent && dirOf(about.parent), id).toBe(dirname(id));
    }
  });

  it('leads no previous or next link to a repository page', () => {
    const order = readingOrder(top);
    const before = linked(order);
    // Docusaurus alone would: the last page of a package leads on to its licence.
    expect(before.some((doc) => doc.next && isRepositoryPage(doc.next.permalink))).toBe(true);
    const after = skipRepositoryPages(before);
    for (const doc of after) {
      expect(doc.next && isRepositoryPage(doc.next.permalink), `next of ${doc.id}`).toBeFalsy();
      expect(doc.previous && isRepositoryPage(doc.previous.permalink), `previous of ${doc.id}`).toBeFalsy();
    }
    // The pages in between still follow one another.
    const pages = after.filter((doc) => !isRepositoryPage(doc.id));
    for (const [index, doc] of pages.slice(0, -1).entries())
      expect(doc.next?.permalink).toBe(pages[index + 1]?.permalink);
  });

  it('describes every category: its index page, its group, or its landing page says what it holds', () => {
    for (const { category } of all) {
      const description =
        category.link?.type === 'generated-index'
          ? category.link.description
          : category.link?.type === 'doc'
            ? (frontMatterDescription(category.link.id ?? '') ??
              // The synced section's landing page is written by the build from the package's README.
              (category.link.id?.startsWith('Norigin-Spatial-Navigation/') ? 'synced' : undefined))
            : category.description;
      expect(description, category.label).toMatch(/\S{3,}/);
    }
  });
});
