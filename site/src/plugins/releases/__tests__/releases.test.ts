import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { frontMatterTitle, latestRelease, projectName } from '../changelog';
import { readReleases } from '../releases';

const fixtureDocs = fileURLToPath(new URL('./__fixtures__/docs', import.meta.url));

describe('readReleases on a miniature docs folder', () => {
  it('lists each project’s newest release, newest first, with its name, link and section sizes', async () => {
    expect(await readReleases(fixtureDocs)).toEqual({
      releases: [
        {
          project: 'beta',
          name: 'Beta App',
          version: '0.3.0',
          date: '2025-10-02',
          permalink: '/docs/beta/CHANGELOG',
          changes: { added: 0, changed: 1, fixed: 0, removed: 2 },
        },
        {
          project: 'alpha',
          name: 'Alpha',
          version: '1.2.0',
          date: '2025-09-01',
          permalink: '/docs/alpha/CHANGELOG',
          changes: { added: 2, changed: 0, fixed: 1, removed: 0 },
        },
      ],
    });
  });

  it('leaves out package changelogs inside a project and folders without a changelog', async () => {
    const { releases } = await readReleases(fixtureDocs);
    expect(releases.map((release) => release.project)).not.toContain('guidelines');
    expect(releases.map((release) => release.version)).not.toContain('9.9.9');
  });
});

describe('latestRelease', () => {
  it('reads only the first release of a changelog', () => {
    const markdown =
      '## 2.0.0 - 2025-01-02\n\n### Added\n\n- One\n\n## 1.0.0 - 2024-01-01\n\n### Added\n\n- Two\n- Three\n';
    expect(latestRelease(markdown)).toEqual({
      version: '2.0.0',
      date: '2025-01-02',
      changes: { added: 1, changed: 0, fixed: 0, removed: 0 },
    });
  });

  it('is null for a page without releases', () => {
    expect(latestRelease('---\ntitle: Notes\n---\n\nNothing released yet.\n')).toBeNull();
  });
});

describe('names', () => {
  it('takes the project’s name from the changelog’s title', () => {
    expect(projectName('Player Manager changelog')).toBe('Player Manager');
    expect(projectName('TV App Training Changelog')).toBe('TV App Training');
    expect(frontMatterTitle("---\ntitle: 'Quoted: title'\n---\n")).toBe('Quoted: title');
  });
});
