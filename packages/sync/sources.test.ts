import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { loadSources, pickVersions } from './index.js';

const siteDir = mkdtempSync(join(tmpdir(), 'portal-sources-'));
mkdirSync(join(siteDir, 'docs', 'layout-engine'), { recursive: true });
mkdirSync(join(siteDir, 'sources', 'nav'), { recursive: true });

function load(yaml: string) {
  const file = join(siteDir, `sources-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, yaml);
  return loadSources(file, { siteDir });
}

const npmEntry = `  - id: nav
    kind: npm
    package: '@noriginmedia/norigin-spatial-navigation'
    section: Norigin-Spatial-Navigation
    title: Norigin Spatial Navigation
    versions: '>=1.0.0'
    pages: sources/nav
`;

describe('the sources file', () => {
  it('reads the three kinds, with the defaults of the fetched ones', () => {
    const loaded = load(`sources:
${npmEntry}  - id: layout
    kind: local
    section: layout-engine
    path: docs/layout-engine
  - id: guide
    kind: git
    repository: ../guide
    section: guide
    title: Guide
    versions: '^1'
`);
    expect(loaded.sources.map((source) => [source.id, source.kind])).toEqual([
      ['nav', 'npm'],
      ['layout', 'local'],
      ['guide', 'git'],
    ]);
    expect(loaded.sources[0]).toMatchObject({ pick: 'newest-per-minor', tags: 'v*' });
    expect(loaded.sources[0]?.files).toContain('README.md');
    expect(loaded.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it.each([
    [
      'an unknown kind',
      `sources:\n  - id: x\n    kind: svn\n    section: x\n`,
      /entry 1 \(x\): `kind` must be one of npm, git, local/,
    ],
    ['a missing package', npmEntry.replace(/ {4}package: .*\n/, ''), /entry 1 \(nav\): `package` is missing/],
    [
      'a setting of another kind',
      npmEntry + '    repository: x\n',
      /entry 1 \(nav\): `repository` is not a setting of a npm source/,
    ],
    [
      'a range that is not semver',
      npmEntry.replace("'>=1.0.0'", 'latest-ish'),
      /entry 1 \(nav\): `versions` "latest-ish" is not a semver range/,
    ],
    [
      'a bad id',
      npmEntry.replace('id: nav', 'id: Nav!'),
      /entry 1 \(Nav!\): `id` must be lower-case letters, digits and dashes/,
    ],
    [
      'a missing pages folder',
      npmEntry.replace('sources/nav', 'sources/none'),
      /entry 1 \(nav\): `pages` sources\/none is not a folder of site\//,
    ],
  ])('refuses %s, naming the entry', (_, body, message) => {
    expect(() => load(body.startsWith('sources:') ? body : `sources:\n${body}`)).toThrow(message);
  });

  it('refuses a section used twice and a local folder that is not there', () => {
    expect(() => load(`sources:\n${npmEntry}${npmEntry.replace('id: nav', 'id: nav-two')}`)).toThrow(
      /entry 2 \(nav-two\): `section` Norigin-Spatial-Navigation is already used by entry 1/,
    );
    expect(() => load(`sources:\n  - id: gone\n    kind: local\n    section: gone\n    path: docs/gone\n`)).toThrow(
      /entry 1 \(gone\): `path` docs\/gone is not a folder of site\//,
    );
  });

  it('says when the file is not YAML at all', () => {
    expect(() => load('sources: [')).toThrow(/is not valid YAML/);
  });
});

describe('which versions a source publishes', () => {
  const versions = ['1.0.1', '1.0.5', '1.1.0', '1.1.5', '2.0.0', '2.3.0', '3.0.0-beta.1', '3.3.0', '3.2.1'];

  it('takes the newest of each minor line in the range, newest first', () => {
    expect(pickVersions(versions, { versions: '>=1.0.0', pick: 'newest-per-minor' })).toEqual([
      '3.3.0',
      '3.2.1',
      '2.3.0',
      '2.0.0',
      '1.1.5',
      '1.0.5',
    ]);
  });

  it('takes the newest of each major line, or everything in the range', () => {
    expect(pickVersions(versions, { versions: '>=1.0.0', pick: 'newest-per-major' })).toEqual([
      '3.3.0',
      '2.3.0',
      '1.1.5',
    ]);
    expect(pickVersions(versions, { versions: '^2', pick: 'all' })).toEqual(['2.3.0', '2.0.0']);
  });
});
