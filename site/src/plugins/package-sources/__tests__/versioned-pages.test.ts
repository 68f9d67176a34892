// The authors' pages for a range of releases (a guide to one major line) and their notes on
// what each symbol is for: written for each release in the range only, linked to that
// release's reference, and named on the reference page of each symbol they use.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { type CachedSource, sectionPages, type Source, versionedPages } from '../materialise';

const work = mkdtempSync(join(tmpdir(), 'portal-versioned-'));
const cacheDir = join(work, 'cache');
const siteDir = join(work, 'site');
const pages = join(siteDir, 'sources', 'nav');
mkdirSync(join(pages, 'versioned'), { recursive: true });
writeFileSync(
  join(pages, 'versioned', 'GUIDE.md'),
  "---\ntitle: Nav 3 guide\ndescription: How to use Nav 3.\nversions: '^3.0.0'\n---\n\nCall `setFocus` once the screen has drawn:\n\n```tsx\nsetFocus('menu');\n```\n",
);
writeFileSync(
  join(pages, 'api-notes.yaml'),
  'setFocus: Gives focus to the component with this key.\nROOT: The root.\n',
);

function write(path: string, text: string) {
  mkdirSync(join(cacheDir, path, '..'), { recursive: true });
  writeFileSync(join(cacheDir, path), text);
}

const versions = ['3.1.0', '2.0.0'].map((version) => {
  write(`npm/nav/${version}/README.md`, `# Nav\n\nRelease ${version}: call \`setFocus\`.\n`);
  write(
    `types/nav/${version}/reference/model.json`,
    JSON.stringify({
      package: '@acme/nav',
      version,
      symbols: [
        {
          name: 'setFocus',
          slug: 'setFocus',
          kind: 'function',
          declaration: 'function setFocus(key: string): void',
          summary: '',
        },
        {
          name: 'ROOT',
          slug: 'ROOT',
          kind: 'constant',
          declaration: 'const ROOT: string',
          summary: 'The tree’s own key.',
        },
      ],
    }),
  );
  write(`types/nav/${version}/reference/pages/setFocus.md`, '```ts\nconst setFocus: (key) => void;\n```\n');
  write(`types/nav/${version}/reference/pages/ROOT.md`, 'The tree’s own key.\n');
  return { version, date: '2025-05-01T10:00:00.000Z', dir: `npm/nav/${version}`, files: ['README.md'], manifest: {} };
});

const cached: CachedSource = {
  kind: 'npm',
  package: '@acme/nav',
  releases: versions.map(({ version, date }) => ({ version, date })),
  versions,
  api: versions.map(({ version }) => ({ version, dir: `types/nav/${version}/reference` })),
};
const source: Source = {
  id: 'nav',
  kind: 'npm',
  section: 'nav',
  title: 'Nav',
  package: '@acme/nav',
  pages: 'sources/nav',
};

describe('pages written for a range of releases', () => {
  const { files, versions: picker } = sectionPages(source, cached, { cacheDir, siteDir });
  const text = (path: string) => String(files.get(path));

  it('are written for each release in their range only, with its symbols linked', () => {
    expect(files.has('GUIDE.md')).toBe(true);
    expect(files.has('2.0.0/GUIDE.md')).toBe(false);
    expect(text('GUIDE.md')).toContain('Call [`setFocus`](api/setFocus.md) once');
    expect(text('GUIDE.md')).toContain('API used above: [`setFocus`](api/setFocus.md).');
    // The authors' front matter, without the range, and the release it belongs to.
    expect(text('GUIDE.md')).toMatch(/^title: Nav 3 guide$/m);
    expect(text('GUIDE.md')).not.toMatch(/^versions:/m);
    expect(text('GUIDE.md')).toMatch(/^package_version: 3\.1\.0$/m);
    // The version menu keeps a reader on the guide.
    expect(picker.versions[0]?.pages).toContain('GUIDE');
  });

  it('are named on the reference page of each symbol they use, with the README', () => {
    expect(text('api/setFocus.md')).toContain(
      '## Where it is used\n\n- [Nav 3 guide](../GUIDE.md)\n- [Nav README](../README.md)\n',
    );
    expect(text('2.0.0/api/setFocus.md')).toContain('## Where it is used\n\n- [Nav 2\\.0\\.0 README](../README.md)\n');
    expect(text('2.0.0/api/setFocus.md')).not.toContain('GUIDE');
    expect(text('api/ROOT.md')).not.toContain('Where it is used');
  });

  it('give a symbol without a doc comment the authors’ note, and leave a doc comment as it is', () => {
    // Escaped as any text for Markdown.
    expect(text('api/setFocus.md')).toContain('\n\nGives focus to the component with this key\\.\n\n```ts');
    expect(text('api/index.md')).toContain(
      '- [`setFocus`](setFocus.md): Gives focus to the component with this key\\.',
    );
    expect(text('api/index.md')).toContain('- [`ROOT`](ROOT.md): The tree’s own key\\.');
    expect(text('api/ROOT.md').match(/The tree’s own key/g)).toHaveLength(2);
    expect(text('api/index.md')).not.toContain('The root.');
  });

  it('must name their range', () => {
    writeFileSync(join(pages, 'versioned', 'BROKEN.md'), '---\ntitle: No range\n---\n\nText.\n');
    expect(() => versionedPages(siteDir, source)).toThrow(/BROKEN\.md: its front matter must name the releases/);
  });
});
