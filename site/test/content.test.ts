import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { loadSources } from '@portal/sync';
import { describe, expect, it } from 'vitest';

import sidebars from '../sidebars';
import { hasApiReference, versionedPageIds } from '../src/data/synced-reference';
import { isPlatformId } from '../src/data/platforms';

const siteDir = join(import.meta.dirname, '..');
const docsDir = join(siteDir, 'docs');

// Sections the build writes from the package registries (site/sources.yaml) are the
// package's own words: their pages are tested where they are made (src/plugins/package-sources).
const synced = loadSources(join(siteDir, 'sources.yaml'), { siteDir }).sources.filter(
  (source) => source.kind !== 'local',
);
const isSynced = (id: string) => synced.some((source) => id.startsWith(`${source.section}/`));

function docFiles(dir = docsDir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return isSynced(`${relative(docsDir, path)}/`) ? [] : docFiles(path);
    return /\.mdx?$/.test(entry.name) ? [path] : [];
  });
}

const docs = docFiles().map((path) => {
  const id = relative(docsDir, path).replace(/\.mdx?$/, '');
  const text = readFileSync(path, 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  const frontMatter = match?.[1] ?? '';
  const body = match?.[2] ?? text;
  const prose = body.replace(/```[\s\S]*?```/g, '');
  return { id, frontMatter, body, prose };
});

/** Every doc id the sidebar names, from strings, doc items and category links. */
function sidebarIds(items: unknown): string[] {
  if (typeof items === 'string') return [items];
  if (Array.isArray(items)) return items.flatMap(sidebarIds);
  if (items && typeof items === 'object') {
    const item = items as { type?: string; id?: string; link?: { type?: string; id?: string }; items?: unknown };
    const own = item.type === 'doc' && item.id ? [item.id] : [];
    const link = item.link?.type === 'doc' && item.link.id ? [item.link.id] : [];
    return [...own, ...link, ...sidebarIds(item.items ?? [])];
  }
  return [];
}

/** Compares "4.2.0" or "2025.2" numerically, part by part. */
function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

describe('the docs content', () => {
  it('puts every doc in the tutorialSidebar exactly once', () => {
    const ids = sidebarIds(sidebars.tutorialSidebar);
    expect(ids.filter((id) => !isSynced(id)).sort()).toEqual(docs.map((doc) => doc.id).sort());
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(synced.map((source) => [source.section]))(
    'git ignores what the build writes for the synced section %s, and the content cache: nothing fetched is committed',
    (section) => {
      const paths = [
        `site/docs/${section}/README.md`,
        `site/docs/${section}/1.0.0/README.md`,
        '.cache/sources/state.json',
      ];
      // check-ignore prints the paths it ignores (and fails when it ignores none).
      const ignored = execFileSync('git', ['check-ignore', ...paths], { cwd: join(siteDir, '..'), encoding: 'utf8' });
      expect(ignored.trim().split('\n')).toEqual(paths);
    },
  );

  it.each(synced.map((source) => [source.section, source]))(
    'the sidebar names the pages the build writes for the synced section %s',
    (section, source) => {
      const handWritten = source.pages
        ? readdirSync(join(siteDir, source.pages))
            .filter((name) => name.endsWith('.md'))
            .map((name) => name.replace(/\.md$/, ''))
        : [];
      const ids = sidebarIds(sidebars.tutorialSidebar).filter((id) => id.startsWith(`${section}/`));
      expect(ids.sort()).toEqual(
        // The API reference and changes, made from the newest release's type declarations.
        [
          'README',
          'CHANGELOG',
          'LICENSE',
          ...(hasApiReference(source.id) ? ['api/index', 'api/api-changes'] : []),
          ...handWritten,
          // The pages written for a range of releases that the newest is in (the 3.x guide).
          ...versionedPageIds(source.id),
        ]
          .map((name) => `${section}/${name}`)
          .sort(),
      );
    },
  );

  it.each(docs.map((doc) => [doc.id, doc]))('%s has a title and a description', (_, doc) => {
    expect(doc.frontMatter).toMatch(/^title: \S/m);
    expect(doc.frontMatter).toMatch(/^description: \S/m);
  });

  it.each(docs.map((doc) => [doc.id, doc]))('%s leaves the page heading to its title', (_, doc) => {
    expect(doc.prose).not.toMatch(/^# /m);
  });

  const landingPages = docs.filter((doc) => doc.id.endsWith('/README') || doc.id === 'intro');
  it.each(landingPages.map((doc) => [doc.id, doc]))('landing page %s has at least 200 words', (_, doc) => {
    expect(doc.prose.split(/\s+/).filter(Boolean).length).toBeGreaterThanOrEqual(200);
  });

  // The guidelines are how the team works, not software that runs somewhere.
  const projectLandings = landingPages.filter((doc) => doc.id !== 'intro' && doc.id !== 'frontend-guidelines/README');
  it.each(projectLandings.map((doc) => [doc.id, doc]))(
    'landing page %s names its platforms for the package cards',
    (_, doc) => {
      const listed = /^platforms: \[(.*)\]$/m.exec(doc.frontMatter)?.[1];
      expect(listed, 'front matter `platforms: [tizen, webos, web, androidtv, tvos]`').toBeDefined();
      const ids = (listed ?? '').split(',').map((id) => id.trim());
      expect(ids.length).toBeGreaterThan(0);
      for (const id of ids) expect(isPlatformId(id), `${id} is one of src/data/platforms.ts`).toBe(true);
    },
  );

  const changelogs = docs.filter((doc) => doc.id.endsWith('/CHANGELOG'));
  it.each(changelogs.map((doc) => [doc.id, doc]))('%s lists at least four dated releases, newest first', (_, doc) => {
    const releases = [...doc.body.matchAll(/^## (\d+\.\d+(?:\.\d+)?) - (\d{4}-\d{2}-\d{2})$/gm)];
    expect(releases.length).toBeGreaterThanOrEqual(4);
    const versions = releases.map((release) => release[1] ?? '');
    expect([...versions].sort(compareVersions).reverse()).toEqual(versions);
    const dates = releases.map((release) => release[2] ?? '');
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it.each([
    ['player-manager-mono/', '4.2.0'],
    ['ui-toolkit-mono/', '2.3.1'],
    ['layout-engine/', '1.8.0'],
  ])('every changelog under %s is at the current version %s', (prefix, version) => {
    const owned = changelogs.filter((doc) => doc.id.startsWith(prefix));
    expect(owned.length).toBeGreaterThan(0);
    for (const doc of owned) {
      expect(/^## (\S+) - /m.exec(doc.body)?.[1], doc.id).toBe(version);
    }
  });

  it('a player-manager-mono release carries the same date in every package changelog', () => {
    const dates = new Map<string, Set<string>>();
    for (const doc of changelogs.filter((d) => d.id.startsWith('player-manager-mono/'))) {
      for (const [, version, date] of doc.body.matchAll(/^## (\S+) - (\S+)$/gm)) {
        if (!version || !date) continue;
        dates.set(version, (dates.get(version) ?? new Set()).add(date));
      }
    }
    const conflicting = [...dates]
      .filter(([, seen]) => seen.size > 1)
      .map(([version, seen]) => `${version}: ${[...seen]}`);
    expect(conflicting).toEqual([]);
  });
});
