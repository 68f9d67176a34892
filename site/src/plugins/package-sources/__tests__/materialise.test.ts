import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { type CachedSource, sectionPages, type Source, writeSection } from '../materialise';

const work = mkdtempSync(join(tmpdir(), 'portal-materialise-'));
const cacheDir = join(work, 'cache');
const siteDir = join(work, 'site');
mkdirSync(join(siteDir, 'sources', 'nav'), { recursive: true });
writeFileSync(join(siteDir, 'sources', 'nav', 'CONTRIBUTING.md'), '---\ntitle: Contributing\n---\n\nFork it.\n');

function release(version: string, files: Record<string, string>) {
  const dir = join(cacheDir, 'npm', 'nav', version);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return {
    version,
    date: `2025-0${version[0]}-01T10:00:00.000Z`,
    dir: `npm/nav/${version}`,
    files: Object.keys(files).sort(),
    manifest: {
      name: '@acme/nav',
      description: 'Moves focus',
      license: 'MIT',
      repository: 'git+https://github.com/acme/nav.git',
    },
  };
}

const cached: CachedSource = {
  kind: 'npm',
  package: '@acme/nav',
  releases: [
    { version: '3.0.0', date: '2025-03-01T10:00:00.000Z' },
    { version: '2.1.0', date: '2025-02-01T10:00:00.000Z' },
    { version: '2.1.0-rc.1', date: '2025-01-15T10:00:00.000Z' },
    { version: '1.0.0', date: null },
  ],
  versions: [
    release('3.0.0', {
      'README.md': '# Nav\n\nThree. See [CONTRIBUTING](CONTRIBUTING.md).\n',
      'docs/setup.md': '# Setting up\n\n[Back](../README.md)\n',
    }),
    release('2.1.0', {
      'README.md': '# Nav\n\nTwo. [Changes](CHANGELOG.md)\n',
      LICENSE: 'MIT License\n\nCopyright acme\n',
    }),
  ],
};
const source: Source = {
  id: 'nav',
  kind: 'npm',
  section: 'nav',
  title: 'Nav',
  package: '@acme/nav',
  pages: 'sources/nav',
  front_matter: { platforms: ['web'] },
};

describe("a synced package's section", () => {
  const { files, versions } = sectionPages(source, cached, { cacheDir, siteDir });
  const text = (path: string) => {
    const file = files.get(path);
    if (typeof file !== 'string') throw new Error(`${path} is not written`);
    return file;
  };

  it('puts the newest version at the section and the others under their version', () => {
    expect([...files.keys()].sort()).toEqual([
      '2.1.0/README.md',
      'CHANGELOG.md',
      'CONTRIBUTING.md',
      'LICENSE.md',
      'README.md',
      'docs/setup.md',
    ]);
    expect(text('README.md')).toMatch(
      /^---\ntitle: Nav\nsidebar_label: Overview\ndescription: Moves focus\nplatforms:\n {2}- web\npackage: nav\npackage_version: 3.0.0\nmdx:\n {2}format: md\n---/,
    );
    expect(text('README.md')).toContain('`@acme/nav` **3.0.0**, published on 1 March 2025, the newest release');
    expect(text('README.md')).toContain('[CONTRIBUTING](CONTRIBUTING.md)');
    expect(text('2.1.0/README.md')).toContain('title: Nav 2.1.0');
    expect(text('2.1.0/README.md')).toContain('displayed_sidebar: tutorialSidebar');
    expect(text('2.1.0/README.md')).toContain('[Changes](../CHANGELOG.md)');
    expect(text('docs/setup.md')).toContain('title: Setting up');
    expect(text('docs/setup.md')).toContain('[Back](../README.md)');
  });

  it('lists every release in the history, newest first, each with its date and the docs of its line', () => {
    const history = text('CHANGELOG.md');
    expect([...history.matchAll(/^## (\S+) - (\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`)).toEqual([
      '3.0.0 2025-03-01',
      '2.1.0 2025-02-01',
      '2.1.0-rc.1 2025-01-15',
      '1.0.0 undated',
    ]);
    expect(history).toContain('[Documentation of 2.1.0](2.1.0/README.md)');
    expect(history).toContain('Documented with the newest release of its line, [2.1.0](2.1.0/README.md)');
    expect(history).toContain('Outside the range of versions this portal documents.');
  });

  it('shows the licence of the newest release that carries one', () => {
    expect(text('LICENSE.md')).toContain(
      '3.0.0 carries no licence file; 2.1.0, the newest release that does, carries this text',
    );
    expect(text('LICENSE.md')).toContain('Copyright acme');
  });

  it("gives the version menu each version's path and pages", () => {
    expect(versions).toEqual({
      id: 'nav',
      title: 'Nav',
      basePath: '/docs/nav/',
      latest: '3.0.0',
      versions: [
        {
          version: '3.0.0',
          date: '2025-03-01T10:00:00.000Z',
          path: '/docs/nav/',
          pages: ['', 'CHANGELOG', 'CONTRIBUTING', 'LICENSE', 'docs/setup'],
        },
        { version: '2.1.0', date: '2025-02-01T10:00:00.000Z', path: '/docs/nav/2.1.0/', pages: [''] },
      ],
    });
  });

  it('writes only what changed and removes what is gone', () => {
    const dir = join(work, 'docs', 'nav');
    expect(writeSection(dir, files)).toEqual({ written: 6, removed: 0 });
    expect(readFileSync(join(dir, 'CONTRIBUTING.md'), 'utf8')).toContain('Fork it.');
    expect(writeSection(dir, files)).toEqual({ written: 0, removed: 0 });
    const fewer = new Map([...files].filter(([path]) => !path.startsWith('2.1.0/')));
    expect(writeSection(dir, fewer)).toEqual({ written: 0, removed: 1 });
    expect(existsSync(join(dir, '2.1.0'))).toBe(false);
  });

  it('writes the same pages when it writes them again, and the newest in its own folder with links from there', () => {
    // The second and third calls take each file's conversion from the first (one process,
    // the same inputs) wherever the file's page stays where it was.
    const asOlder = sectionPages(source, cached, { cacheDir, siteDir, newestAsOlder: true }).files;
    const again = sectionPages(source, cached, { cacheDir, siteDir }).files;
    expect([...again]).toEqual([...files]);
    expect(asOlder.get('2.1.0/README.md')).toBe(files.get('2.1.0/README.md'));
    expect(text('README.md')).toContain('[CONTRIBUTING](CONTRIBUTING.md)');
    expect(asOlder.get('3.0.0/README.md')).toContain('[CONTRIBUTING](../CONTRIBUTING.md)');
    expect(asOlder.get('3.0.0/docs/setup.md')).toContain('[Back](../README.md)');
    expect(asOlder.has('README.md')).toBe(false);
  });
});
