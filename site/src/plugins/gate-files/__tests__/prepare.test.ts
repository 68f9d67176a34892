import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { searchBundles } from '@portal/access';
import { MANIFEST_FILE, type Manifest } from '@portal/built-site';

import { DEFAULT_OPTIONS } from '../options';
import { writeGateManifest, writePageDerivatives } from '../prepare';
import { makeMiniBuild, MINI_CHUNKS, STAFF_TEXT } from './__fixtures__/mini-build';

/** The units of the mini build's partner page (the layout engine) and staff page (a guideline). */
const PARTNER = ['layout'];
const STAFF = ['internal'];

describe('preparing a build for the gate', () => {
  it('indexes, twins and labels every page for exactly its readers, and lists every file', async () => {
    const { buildDir, generatedDir } = await makeMiniBuild();
    const derived = await writePageDerivatives(
      buildDir,
      generatedDir,
      DEFAULT_OPTIONS,
      undefined,
      'https://docs.example.com/',
    );
    // Each twin names its page's canonical URL in its front matter (this copy has no history: no last update).
    const twin = await readFile(join(buildDir, 'docs', 'layout-engine.md'), 'utf8');
    expect(twin).toMatch(
      /^---\ntitle: ".+"\ncanonical_url: "https:\/\/docs\.example\.com\/docs\/layout-engine\/?"\n---\n\n# /,
    );
    // One searchable page in each unit: the bundle of a unit holds its own pages only.
    expect(derived).toMatchObject({
      searchPages: { public: 1, layout: 1, internal: 1 },
      markdownPages: 3,
    });
    const { foreignScripts, ...manifest } = await writeGateManifest(buildDir, generatedDir, DEFAULT_OPTIONS);
    expect(foreignScripts).toEqual([]);
    expect(JSON.parse(await readFile(join(buildDir, MANIFEST_FILE), 'utf8'))).toEqual(
      JSON.parse(JSON.stringify(manifest)) as Manifest,
    );
    const readers = (key: string): string[] | 'public' | undefined => {
      const entry = manifest.entries[key];
      return entry && (entry.access === 'public' ? 'public' : entry.units);
    };
    expect(readers('/docs')).toBe('public');
    expect(readers('/docs/layout-engine')).toEqual(PARTNER);
    expect(readers('/docs/frontend-guidelines/gitflow')).toEqual(STAFF);
    expect(readers(MINI_CHUNKS.lazy)).toEqual(STAFF);
    // Markdown twins and llms.txt fragments: by the page's readers, by the unit's.
    expect(readers('/docs.md')).toBe('public');
    expect(readers('/docs/frontend-guidelines/gitflow.md')).toEqual(STAFF);
    expect(readers('/llms/public/full.md')).toBe('public');
    expect(readers('/llms/internal/full.md')).toEqual(STAFF);
    expect(await readFile(join(buildDir, 'llms', 'internal', 'full.md'), 'utf8')).toContain(STAFF_TEXT);
    expect(await readFile(join(buildDir, 'llms', 'public', 'full.md'), 'utf8')).not.toContain(STAFF_TEXT);
    // Search bundles: by their unit; Pagefind's own ready-made interfaces are not shipped.
    expect(readers('/search/public/pagefind.js')).toBe('public');
    const staffBundle = Object.values(manifest.entries).filter((entry) => entry.url.startsWith('/search/internal/'));
    expect(staffBundle.length).toBeGreaterThan(2);
    expect(staffBundle.every((entry) => entry.access === 'private' && entry.units.join() === STAFF.join())).toBe(true);
    expect(Object.keys(manifest.entries).some((key) => /pagefind-(component-|modular-)?ui/.test(key))).toBe(false);
    // Files no page loads: robots.txt and the sitemap by the options, the feed by its section.
    expect(readers('/robots.txt')).toBe('public');
    expect(readers('/sitemap.xml')).toBe('public');
    expect(readers('/blog/rss.xml')).toEqual(['blog']);
  });

  it('starts a rerun from the files Docusaurus wrote', async () => {
    const { buildDir, generatedDir } = await makeMiniBuild();
    await writePageDerivatives(buildDir, generatedDir, DEFAULT_OPTIONS);
    const first = await writeGateManifest(buildDir, generatedDir, DEFAULT_OPTIONS);
    await writePageDerivatives(buildDir, generatedDir, DEFAULT_OPTIONS);
    expect(existsSync(join(buildDir, 'docs', 'index.html.br'))).toBe(false);
    const second = await writeGateManifest(buildDir, generatedDir, DEFAULT_OPTIONS);
    expect(Object.keys(second.entries).sort()).toEqual(Object.keys(first.entries).sort());
  });

  it('leaves out the data files that earlier builds left in the generated folder', async () => {
    const { buildDir, generatedDir } = await makeMiniBuild();
    // A page an earlier build had: its data file is still there, its source and page are gone
    // (an older release moved when a new one came); and a category whose props no route names.
    const docsData = join(generatedDir, 'docusaurus-plugin-content-docs', 'default');
    await writeFile(
      join(docsData, 'site-docs-moved-md.json'),
      JSON.stringify({ permalink: '/docs/moved/', source: '@site/docs/moved.md', title: 'Moved', description: '' }),
    );
    await mkdir(join(docsData, 'p'), { recursive: true });
    await writeFile(
      join(docsData, 'p', 'docs-old-category.json'),
      JSON.stringify({ categoryGeneratedIndex: { title: 'Old', permalink: '/docs/old/' } }),
    );
    const derived = await writePageDerivatives(buildDir, generatedDir, DEFAULT_OPTIONS);
    expect(derived.markdownPages).toBe(3);
    expect(existsSync(join(buildDir, 'docs', 'moved.md'))).toBe(false);
    expect(existsSync(join(buildDir, 'docs', 'old.md'))).toBe(false);
  });

  it('keeps each search bundle between builds and indexes again only the units whose pages changed', async () => {
    const caches = await mkdtemp(join(tmpdir(), 'portal-build-caches-'));
    const cache = { dir: join(caches, 'search'), salt: 'pagefind 1' };
    const twins = { dir: join(caches, 'markdown'), salt: 'site 1' };
    const bundleFiles = async (buildDir: string, unit: string): Promise<Record<string, string>> => {
      const dir = join(buildDir, 'search', unit);
      const names = (await readdir(dir, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
      return Object.fromEntries(
        await Promise.all(
          names.map(async (entry) => {
            const path = join(entry.parentPath, entry.name);
            return [path.slice(dir.length + 1), (await readFile(path)).toString('base64')] as const;
          }),
        ),
      );
    };
    const first = await makeMiniBuild();
    await writePageDerivatives(first.buildDir, first.generatedDir, DEFAULT_OPTIONS, { search: cache, markdown: twins });
    const kept = await readdir(cache.dir);
    // One per set of pages: public, layout (and the partners' shelf, the same pages), internal,
    // staff's and administrators' shelves (the same pages), and one empty bundle the other units copy.
    expect(kept.length).toBe(5);
    expect(await readdir(join(first.buildDir, 'search'))).toHaveLength(searchBundles().length);

    // The next build: the partner page changed, the others did not. A file added to every
    // kept bundle shows which ones the build copied rather than indexed.
    for (const name of kept) await writeFile(join(cache.dir, name, 'kept.txt'), 'from the cache');
    const second = await makeMiniBuild();
    const partnerPage = join(second.buildDir, 'docs', 'layout-engine', 'index.html');
    await writeFile(
      partnerPage,
      (await readFile(partnerPage, 'utf8')).replace('Rails and grids.', 'Rails, grids and focus.'),
    );
    const derived = await writePageDerivatives(second.buildDir, second.generatedDir, DEFAULT_OPTIONS, {
      search: cache,
      markdown: twins,
    });
    expect(derived.searchPages).toMatchObject({ public: 1, layout: 1, internal: 1 });
    for (const unit of ['public', 'internal']) {
      const files = await bundleFiles(second.buildDir, unit);
      expect(files['kept.txt']).toBeDefined();
      delete files['kept.txt'];
      expect(files).toEqual(await bundleFiles(first.buildDir, unit));
    }
    const partner = await bundleFiles(second.buildDir, 'layout');
    expect(partner['kept.txt']).toBeUndefined();
    expect(partner).not.toEqual(await bundleFiles(first.buildDir, 'layout'));
    // The changed unit's old bundle is gone from the cache, its new one is there.
    // The layout bundle and the shelves that hold it: two sets of pages changed.
    const now = await readdir(cache.dir);
    expect(now.length).toBe(5);
    expect(now.filter((name) => !kept.includes(name)).length).toBe(2);

    // Another Pagefind (the salt) indexes everything again.
    const third = await makeMiniBuild();
    await writePageDerivatives(third.buildDir, third.generatedDir, DEFAULT_OPTIONS, {
      search: { ...cache, salt: 'pagefind 2' },
      markdown: twins,
    });
    expect((await readdir(cache.dir)).filter((name) => now.includes(name))).toEqual([]);
  });

  it('keeps the Markdown twins between builds, and converts again a page whose source or links changed', async () => {
    const caches = await mkdtemp(join(tmpdir(), 'portal-build-caches-'));
    const kept = {
      search: { dir: join(caches, 'search'), salt: 'site 1' },
      markdown: { dir: join(caches, 'markdown'), salt: 'site 1' },
    };
    const build = async (change?: (root: string) => Promise<void>): Promise<(url: string) => Promise<string>> => {
      const { buildDir, generatedDir } = await makeMiniBuild();
      const root = dirname(generatedDir);
      await writeFile(
        join(root, 'docs', 'layout-engine', 'README.md'),
        '---\ntitle: Layout Engine\n---\n\nRails and grids, from the [start](../intro.md).\n',
      );
      await change?.(root);
      await writePageDerivatives(buildDir, generatedDir, DEFAULT_OPTIONS, kept);
      return (url) => readFile(join(buildDir, url), 'utf8');
    };
    const first = await build();
    expect(await first('docs/layout-engine.md')).toContain('[start](/docs.md)');
    // A mark on every kept twin shows which ones the next builds take from the cache.
    const mark = async (): Promise<void> => {
      for (const name of await readdir(kept.markdown.dir)) {
        const file = join(kept.markdown.dir, name);
        const twin = JSON.parse(await readFile(file, 'utf8')) as { markdown: string };
        await writeFile(file, JSON.stringify({ ...twin, markdown: `${twin.markdown}KEPT\n` }));
      }
    };
    await mark();
    expect(await readdir(kept.markdown.dir)).toHaveLength(3);
    const same = await build();
    for (const url of ['docs.md', 'docs/layout-engine.md', 'docs/frontend-guidelines/GitFlow.md'])
      expect(await same(url), url).toMatch(/KEPT\n$/);

    // The page the layout engine links to moves, and the guidelines page's source changes.
    const changed = await build(async (root) => {
      const intro = join(root, '.docusaurus', 'docusaurus-plugin-content-docs', 'default', 'site-docs-intro-md.json');
      await writeFile(intro, (await readFile(intro, 'utf8')).replace('"/docs/"', '"/docs/start/"'));
      await mkdir(join(root, 'build', 'docs', 'start'), { recursive: true });
      await writeFile(
        join(root, 'build', 'docs', 'start', 'index.html'),
        await readFile(join(root, 'build', 'docs', 'index.html')),
      );
      await writeFile(
        join(root, 'docs', 'frontend-guidelines', 'GitFlow.md'),
        '---\ntitle: GitFlow\n---\n\nRebased.\n',
      );
    });
    expect(await changed('docs/layout-engine.md')).toContain('[start](/docs/start.md)');
    expect(await changed('docs/layout-engine.md')).not.toContain('KEPT');
    expect(await changed('docs/frontend-guidelines/GitFlow.md')).toContain('Rebased.');
    expect(await changed('docs/frontend-guidelines/GitFlow.md')).not.toContain('KEPT');
    expect(await changed('docs/start.md')).toMatch(/KEPT\n$/);
    // The twins no build uses any more are gone: one per source of the last build.
    expect(await readdir(kept.markdown.dir)).toHaveLength(3);
  });
});
