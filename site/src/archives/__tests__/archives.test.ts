import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { filesOfApp, pageAddress } from '../../plugins/package-sources/apps';
import {
  type CachedSource,
  type PackageVersions,
  sectionPages,
  type Source,
} from '../../plugins/package-sources/materialise';
import { type ArchiveRecord, makeArchiveSite, pagesHash, planArchives, themeHash } from '../archives';
import { crossAppLinks, mergeLlmsIndex, mergeSitemap, placeArchiveFiles } from '../merge';
import { ARCHIVE_SIDEBARS, archivedReleases } from '../spec';

const picker: PackageVersions = {
  id: 'nav',
  title: 'Nav',
  basePath: '/docs/Nav/',
  latest: '2.0.0',
  versions: ['2.0.0', '1.1.0', '1.0.0'].map((version) => ({ version, date: null, path: '', pages: [] })),
};

const front = (extra = '') => `---\ntitle: T\n${extra}---\n\n`;
const files = new Map<string, string | { copyFrom: string }>([
  ['README.md', `${front()}See [history](CHANGELOG.md) and [1.1.0](1.1.0/README.md#setup).`],
  ['CHANGELOG.md', `${front()}[Docs of 1.0.0](1.0.0/README.md)`],
  [
    '1.1.0/README.md',
    `${front('displayed_sidebar: tutorialSidebar\n')}[history](../CHANGELOG.md), [api](api/index.md)`,
  ],
  ['1.1.0/api/index.md', `${front('displayed_sidebar: tutorialSidebar\n')}[older](../../1.0.0/api/index.md)`],
  ['1.0.0/README.md', `${front('displayed_sidebar: tutorialSidebar\n')}one`],
  ['1.0.0/api/index.md', `${front('displayed_sidebar: tutorialSidebar\n')}one`],
]);

describe('filesOfApp', () => {
  it('gives the portal the section and its newest release, linking older ones by address', () => {
    const held = filesOfApp('nav', files, picker, null);
    expect([...held.keys()].sort()).toEqual(['CHANGELOG.md', 'README.md']);
    expect(held.get('README.md')).toContain('[history](CHANGELOG.md)');
    expect(held.get('README.md')).toContain('[1.1.0](/docs/Nav/1.1.0/#setup)');
    expect(held.get('CHANGELOG.md')).toContain('[Docs of 1.0.0](/docs/Nav/1.0.0/)');
  });

  it("gives an archive its releases' pages, with their own sidebar and the portal's pages by address", () => {
    const held = filesOfApp('nav', files, picker, [{ source: 'nav', version: '1.1.0' }]);
    expect([...held.keys()].sort()).toEqual(['1.1.0/README.md', '1.1.0/api/index.md']);
    const readme = held.get('1.1.0/README.md') as string;
    expect(readme).toContain('[history](/docs/Nav/CHANGELOG)');
    expect(readme).toContain('[api](api/index.md)');
    expect(readme).toContain('displayed_sidebar: release-nav-1.1.0');
    expect(held.get('1.1.0/api/index.md')).toContain('[older](/docs/Nav/1.0.0/api/)');
  });

  it('gives an archive of another source nothing', () => {
    expect(filesOfApp('nav', files, picker, [{ source: 'other', version: '1.1.0' }]).size).toBe(0);
  });

  it('names pages by the address Docusaurus gives them', () => {
    expect(pageAddress('/docs/Nav/', 'README.md')).toBe('/docs/Nav/');
    expect(pageAddress('/docs/Nav/', '1.0.0/api/index.md')).toBe('/docs/Nav/1.0.0/api/');
    expect(pageAddress('/docs/Nav/', '1.0.0/api/useFocus.md')).toBe('/docs/Nav/1.0.0/api/useFocus');
  });
});

describe('archivedReleases', () => {
  it('reads the releases, and refuses what is not a list of them', () => {
    expect(archivedReleases({})).toBeNull();
    expect(archivedReleases({ PORTAL_ARCHIVE: '[{"source":"nav","version":"1.0.0"}]' })).toEqual([
      { source: 'nav', version: '1.0.0' },
    ]);
    expect(() => archivedReleases({ PORTAL_ARCHIVE: '{' })).toThrow(/not JSON/);
    expect(() => archivedReleases({ PORTAL_ARCHIVE: '[{"source":"nav"}]' })).toThrow(/must list/);
  });
});

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'portal-archives-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function keptArchive(dir: string, name: string, record: ArchiveRecord): string {
  mkdirSync(join(dir, name), { recursive: true });
  writeFileSync(join(dir, name, 'archive.json'), JSON.stringify(record));
  return join(dir, name);
}

describe('planArchives', () => {
  const release = (version: string, pages = 'p') => ({ source: 'nav', version, pages });

  it('uses an archive whose releases are all still wanted with the same pages, and builds the rest', () => {
    const dir = tempDir();
    keptArchive(dir, 'a', { theme: 't', releases: [release('1.0.0')], seconds: 1 });
    const plan = planArchives(dir, [release('1.0.0'), release('1.1.0')], 't');
    expect(plan.use.map((entry) => entry.record.releases[0]?.version)).toEqual(['1.0.0']);
    expect(plan.build).toEqual([release('1.1.0')]);
  });

  it("removes an archive of this theme whose pages changed, and leaves another theme's", () => {
    const dir = tempDir();
    const changed = keptArchive(dir, 'a', { theme: 't', releases: [release('1.0.0', 'old')], seconds: 1 });
    const other = keptArchive(dir, 'b', { theme: 'u', releases: [release('1.0.0')], seconds: 1 });
    const plan = planArchives(dir, [release('1.0.0')], 't');
    expect(plan.use).toEqual([]);
    expect(plan.build).toEqual([release('1.0.0')]);
    expect(existsSync(changed)).toBe(false);
    expect(existsSync(other)).toBe(true);
  });

  it('removes what an archive build that stopped midway left, not what a running one writes', () => {
    const dir = tempDir();
    mkdirSync(join(dir, `a.partial-${process.pid}`));
    // No process has this id (above the kernel's largest).
    mkdirSync(join(dir, 'b.partial-4194305'));
    planArchives(dir, [], 't');
    expect(existsSync(join(dir, `a.partial-${process.pid}`))).toBe(true);
    expect(existsSync(join(dir, 'b.partial-4194305'))).toBe(false);
  });

  it('keeps a newest release archived ahead apart, and places it once a newer release is out', () => {
    const dir = tempDir();
    keptArchive(dir, 'a', { theme: 't', releases: [release('2.0.0')], seconds: 1 });
    const before = planArchives(dir, [release('1.0.0')], 't', [release('2.0.0')]);
    expect(before.use).toEqual([]);
    expect(before.ahead.map((entry) => entry.record.releases[0]?.version)).toEqual(['2.0.0']);
    expect(before.buildAhead).toEqual([]);
    const after = planArchives(dir, [release('1.0.0'), release('2.0.0')], 't', [release('3.0.0')]);
    expect(after.use.map((entry) => entry.record.releases[0]?.version)).toEqual(['2.0.0']);
    expect(after.build).toEqual([release('1.0.0')]);
    expect(after.buildAhead).toEqual([release('3.0.0')]);
  });

  it("builds again an older release archived beside another package's newest, which is never placed", () => {
    // Two sources: archived together ahead, then one of them released; the other's newest
    // kept the archive from being placed, and nothing built the first one's release again.
    const dir = tempDir();
    const other = { source: 'player', version: '5.0.0', pages: 'q' };
    const mixed = keptArchive(dir, 'a', { theme: 't', releases: [release('2.0.0'), other], seconds: 1 });
    const plan = planArchives(dir, [release('2.0.0')], 't', [release('3.0.0'), other]);
    expect(plan.use).toEqual([]);
    expect(plan.build).toEqual([release('2.0.0')]);
    expect(plan.buildAhead).toEqual([release('3.0.0'), other]);
    expect(existsSync(mixed)).toBe(false);
  });

  it('does not use an archive holding a release that is no longer archived (now the newest)', () => {
    const dir = tempDir();
    keptArchive(dir, 'a', { theme: 't', releases: [release('1.0.0'), release('2.0.0')], seconds: 1 });
    expect(planArchives(dir, [release('1.0.0')], 't').build).toEqual([release('1.0.0')]);
  });
});

describe('makeArchiveSite', () => {
  it('holds what the docs plugin looks for when it is made, before package-sources writes the pages', () => {
    const site = tempDir();
    mkdirSync(join(site, 'src'));
    writeFileSync(join(site, 'docusaurus.config.ts'), 'export default {};\n');
    const work = join(site, '.archive-site', '1');
    // A folder left by an earlier build is replaced.
    mkdirSync(join(work, 'docs', 'Nav', '0.9.0'), { recursive: true });
    makeArchiveSite({
      siteDir: site,
      work,
      releases: [
        { source: 'nav', version: '1.1.0' },
        { source: 'nav', version: '1.0.0' },
      ],
      sectionOf: (source) => ({ nav: 'Nav' })[source] as string,
    });
    expect(readdirSync(join(work, 'docs'))).toEqual([]);
    expect(JSON.parse(readFileSync(join(work, ARCHIVE_SIDEBARS), 'utf8'))).toEqual({
      'release-nav-1.1.0': [{ type: 'autogenerated', dirName: 'Nav/1.1.0' }],
      'release-nav-1.0.0': [{ type: 'autogenerated', dirName: 'Nav/1.0.0' }],
    });
    expect(readFileSync(join(work, 'docusaurus.config.ts'), 'utf8')).toBe('export default {};\n');
    expect(lstatSync(join(work, 'src')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(work, 'static'))).toBe(false);
  });
});

describe('merging an archive into the portal build', () => {
  it("adds the archive's lines to the llms index under their sections, by address", () => {
    const portal = '## Nav\n\n- [Nav](/docs/Nav.md)\n\n## Other\n\n- [O](/docs/o.md)\n';
    const archive = '## Nav\n\n- [Nav 1.0.0](/docs/Nav/1.0.0.md)\n';
    expect(mergeLlmsIndex(portal, archive)).toBe(
      '## Nav\n\n- [Nav](/docs/Nav.md)\n- [Nav 1.0.0](/docs/Nav/1.0.0.md)\n\n## Other\n\n- [O](/docs/o.md)\n',
    );
  });

  it("adds the archive's sitemap entries", () => {
    const portal = '<urlset><url><loc>a</loc></url></urlset>';
    expect(mergeSitemap(portal, '<urlset><url><loc>b</loc></url></urlset>')).toBe(
      '<urlset><url><loc>a</loc></url><url><loc>b</loc></url></urlset>',
    );
  });

  const entry = (url: string, file: string, etag: string, extra = {}) => ({
    url,
    file,
    contentType: 'text/html',
    size: 1,
    etag,
    kind: url.endsWith('/') ? ('page' as const) : ('file' as const),
    access: 'private' as const,
    units: ['nav'],
    immutable: false,
    ...extra,
  });
  const write = (dir: string, file: string, text: string) => {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  };
  const manifestOf = (entries: Record<string, ReturnType<typeof entry>>) =>
    JSON.stringify({ version: 3, createdAt: '', entries, notFound: '/404.html', inlineScriptHashes: [] });

  function builds(archivePage: string, shared: string) {
    const portal = tempDir();
    const archive = tempDir();
    write(portal, 'docs/nav/index.html', '<a href=/docs/nav/1.0.0/>old</a>');
    write(portal, 'assets/font.woff2', 'font');
    write(
      portal,
      'portal-manifest.json',
      manifestOf({
        '/docs/nav': entry('/docs/nav/', 'docs/nav/index.html', '"p"'),
        '/assets/font.woff2': entry('/assets/font.woff2', 'assets/font.woff2', '"f"', { access: 'public', units: [] }),
      }),
    );
    write(archive, 'docs/nav/1.0.0/index.html', archivePage);
    write(archive, 'assets/font.woff2', shared);
    write(archive, '404.html', 'not found');
    write(
      archive,
      'portal-manifest.json',
      manifestOf({
        '/docs/nav/1.0.0': entry('/docs/nav/1.0.0/', 'docs/nav/1.0.0/index.html', '"a"'),
        '/assets/font.woff2': entry('/assets/font.woff2', 'assets/font.woff2', shared === 'font' ? '"f"' : '"g"'),
        '/404.html': entry('/404.html', '404.html', '"n"'),
      }),
    );
    return { portal, archive };
  }

  it("links the archive's files in and adds their entries, a shared file read by either's readers", async () => {
    const { portal, archive } = builds('<a href=/docs/nav/>newest</a>', 'font');
    expect(await placeArchiveFiles(portal, [archive])).toBe(1);
    const manifest = JSON.parse(readFileSync(join(portal, 'portal-manifest.json'), 'utf8'));
    expect(manifest.entries['/docs/nav/1.0.0'].file).toBe('docs/nav/1.0.0/index.html');
    expect(manifest.entries['/assets/font.woff2'].access).toBe('public');
    expect(manifest.entries['/404.html']).toBeUndefined();
    expect(statSync(join(portal, 'docs/nav/1.0.0/index.html')).nlink).toBe(2);
  });

  it('fails on a file the archive has with other bytes than the portal', async () => {
    const { portal, archive } = builds('<a href=/docs/nav/>newest</a>', 'other font');
    await expect(placeArchiveFiles(portal, [archive])).rejects.toThrow(/another assets\/font.woff2/);
  });

  it("fails on an archived page's link that leads nowhere, before writing the manifest", async () => {
    const { portal, archive } = builds('<a href=/docs/nav/gone>gone</a>', 'font');
    const before = readFileSync(join(portal, 'portal-manifest.json'), 'utf8');
    await expect(placeArchiveFiles(portal, [archive])).rejects.toThrow(/\/docs\/nav\/1.0.0\/ → \/docs\/nav\/gone/);
    expect(readFileSync(join(portal, 'portal-manifest.json'), 'utf8')).toBe(before);
  });

  it("finds a portal page's link to an older release that no archive has", () => {
    const { portal } = builds('', 'font');
    const manifest = JSON.parse(readFileSync(join(portal, 'portal-manifest.json'), 'utf8'));
    expect(crossAppLinks(portal, manifest, new Set())).toEqual(['/docs/nav/ → /docs/nav/1.0.0/']);
  });
});

describe("the newest release's archive, made before a newer release is out", () => {
  const work = mkdtempSync(join(tmpdir(), 'portal-archive-newest-'));
  const cacheDir = join(work, 'cache');
  const siteDir = join(work, 'site');
  mkdirSync(siteDir, { recursive: true });
  const release = (version: string, date: string) => {
    const dir = join(cacheDir, 'npm', 'nav', version);
    mkdirSync(join(dir, 'docs'), { recursive: true });
    writeFileSync(
      join(dir, 'README.md'),
      `# Nav\n\nRelease ${version}. See [setup](docs/setup.md) and the [changes](CHANGELOG.md).\n`,
    );
    writeFileSync(join(dir, 'docs', 'setup.md'), `# Setting up ${version}\n\n[Back](../README.md)\n`);
    return {
      version,
      date,
      dir: `npm/nav/${version}`,
      files: ['README.md', 'docs/setup.md'],
      manifest: { name: '@acme/nav', description: 'Moves focus', license: 'MIT' },
    };
  };
  const source: Source = { id: 'nav', kind: 'npm', section: 'Nav', title: 'Nav', package: '@acme/nav' };
  const two = release('2.0.0', '2026-02-01T10:00:00.000Z');
  const one = release('1.0.0', '2026-01-01T10:00:00.000Z');
  const three = release('3.0.0', '2026-03-01T10:00:00.000Z');
  const cachedOf = (versions: (typeof one)[]): CachedSource => ({
    kind: 'npm',
    package: '@acme/nav',
    releases: versions.map(({ version, date }) => ({ version, date })),
    versions,
  });
  const archived = (versions: (typeof one)[], version: string, newestAsOlder: boolean) => {
    const { files, versions: picker } = sectionPages(source, cachedOf(versions), { cacheDir, siteDir, newestAsOlder });
    return filesOfApp('nav', files, picker, [{ source: 'nav', version }]);
  };
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('has the pages it will have once a newer release is out, so that release finds it built', () => {
    const ahead = archived([two, one], '2.0.0', true);
    const after = archived([three, two, one], '2.0.0', false);
    expect([...ahead.keys()].sort()).toEqual(['2.0.0/README.md', '2.0.0/docs/setup.md']);
    expect([...ahead.keys()].sort()).toEqual([...after.keys()].sort());
    for (const [path, text] of after) expect(ahead.get(path), path).toBe(text);
    expect(pagesHash(ahead)).toBe(pagesHash(after));
    expect(ahead.get('2.0.0/README.md')).not.toContain('the newest release');
  });
});

describe('themeHash', () => {
  it('differs for another address, so an archive never names an address the portal is not at', () => {
    const siteDir = join(import.meta.dirname, '..', '..', '..');
    const root = join(siteDir, '..');
    const here = themeHash(siteDir, root, 'http://localhost:3000');
    expect(themeHash(siteDir, root, 'http://localhost:3000')).toBe(here);
    expect(themeHash(siteDir, root, 'https://developers.norigin.example')).not.toBe(here);
  });
});
