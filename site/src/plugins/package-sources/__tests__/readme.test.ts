import { describe, expect, it } from 'vitest';

import { packageMarkdown, repositoryWeb } from '../readme';

const context = {
  pageFor: (path: string) => (path === 'CHANGELOG.md' ? '../CHANGELOG.md' : undefined),
  repositoryBlob: 'https://github.com/acme/nav/blob/v2.3.0',
  homepageOrigin: 'https://devportal.example.com',
};

describe("a package's README made fit for a portal page", () => {
  const readme = [
    '# Nav',
    '',
    'Moves focus. [![npm version](https://badge.example/nav.svg)](https://badge.example/nav)',
    '',
    '![Demo](/assets/demo.gif)',
    '',
    '<script>alert(1)</script>',
    '',
    '<!-- INSERT_HERE -->',
    '',
    '# Usage',
    '',
    '## useFocusable',
    '',
    'See [the changes](CHANGELOG.md), [the source](src/index.ts#L4) and [init](#init).',
    '',
    '| a | b |',
    '| - | - |',
    '| 1 | 2 |',
  ].join('\n');
  const result = packageMarkdown(readme, context);

  it('takes its first # heading as the title and moves the others down a level', () => {
    expect(result.title).toBe('Nav');
    expect(result.markdown).not.toMatch(/^# /m);
    expect(result.markdown).toMatch(/^## Usage$/m);
    expect(result.markdown).toMatch(/^### useFocusable$/m);
  });

  it('drops raw HTML, scripts and comments alike', () => {
    expect(result.droppedHtml).toBe(2);
    expect(result.markdown).not.toContain('<script>');
    expect(result.markdown).not.toContain('INSERT_HERE');
  });

  it('leaves images and badges out, so readers fetch nothing from third parties and read no stray words', () => {
    expect(result.markdown).not.toContain('![');
    expect(result.markdown).not.toContain('npm version');
    expect(result.markdown).not.toContain('badge.example');
    expect(result.markdown).not.toContain('demo.gif');
    // The sentence beside the badge stays; the paragraph that held only the image goes.
    expect(result.markdown).toMatch(/^Moves focus\.\s*\n\n## Usage$/m);
  });

  it('keeps the words of a link that holds an image beside them', () => {
    const mixed = packageMarkdown(
      '[![logo](https://x.example/l.png) The project site](https://nav.example/)\n',
      context,
    );
    expect(mixed.markdown.trim()).toBe('[The project site](https://nav.example/)');
  });

  it('links files the portal carries to its pages and the rest to the repository', () => {
    expect(result.markdown).toContain('[the changes](../CHANGELOG.md)');
    expect(result.markdown).toContain('[the source](https://github.com/acme/nav/blob/v2.3.0/src/index.ts#L4)');
    expect(result.markdown).toContain('[init](#init)');
    expect(result.markdown).toMatch(/\| a +\| b +\|/);
  });

  it('keeps one # heading where it is when there is only one', () => {
    const single = packageMarkdown('# Nav\n\n## Install\n', context);
    expect(single.markdown.trim()).toBe('## Install');
  });

  it('keeps a link text when the target cannot be placed', () => {
    expect(packageMarkdown('[notes](NOTES.md)', { pageFor: () => undefined }).markdown.trim()).toBe('notes');
  });
});

describe('the repository web address', () => {
  it.each([
    ['git+https://github.com/acme/nav.git', 'https://github.com/acme/nav'],
    ['git@github.com:acme/nav.git', 'https://github.com/acme/nav'],
    ['git://github.com/acme/nav.git', 'https://github.com/acme/nav'],
    ['file:../nav', undefined],
    [undefined, undefined],
  ])('%s → %s', (url, web) => {
    expect(repositoryWeb(url)).toBe(web);
  });
});
