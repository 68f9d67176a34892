// The trust boundary for package content, on hostile input: names, paths, manifest fields and
// Markdown a compromised release could carry. Nothing here reaches the network or builds.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import {
  fencedCode,
  filePathProblem,
  inside,
  manifestFields,
  markdownCode,
  markdownText,
  markupIn,
  plainText,
  regularFile,
  releaseDate,
  safeMarkdown,
  safeUrl,
  symbolNameProblem,
  writeInside,
} from './trust.js';

const work = mkdtempSync(join(tmpdir(), 'portal-trust-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Strings a release could put wherever the portal writes its text. */
const HOSTILE = [
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 1">',
  '`</code><script>alert(1)</script>`',
  '```\n<script>alert(1)</script>\n```',
  '---\nmdx:\n  format: mdx\n---\n{process.exit(1)}',
  '[x](javascript:alert(1))',
  '<!-- comment --><style>body{display:none}</style>',
  'a\n\n<div>\n\nb\n\n</div>',
  '<https://example.com> &lt;script&gt;',
];

describe('the names a release may use', () => {
  it('makes a page of identifiers only, refusing paths, spaces, backticks and pattern characters', () => {
    expect(symbolNameProblem('useFocusable')).toBeUndefined();
    expect(symbolNameProblem('$store_2')).toBeUndefined();
    for (const name of ['some/../../name', 'a b', 'x`y', '(a+)+$', '', 'é', 'a'.repeat(101)])
      expect(symbolNameProblem(name), name).toBeDefined();
  });

  it('keeps files whose every part is letters, digits, dots, dashes and underscores', () => {
    expect(filePathProblem('docs/setup-guide_2.md')).toBeUndefined();
    expect(filePathProblem('README.md')).toBeUndefined();
    for (const path of [
      '../outside.md',
      'docs/../../x.md',
      '/etc/passwd',
      'docs/a b.md',
      'docs/.hidden.md',
      'docs\\x.md',
      'docs/`x`.md',
    ])
      expect(filePathProblem(path), path).toBeDefined();
  });
});

describe('writes', () => {
  it('refuses every path that leaves its folder, and writes the others inside it', () => {
    const dir = join(work, 'writes');
    for (const path of ['../escaped.md', 'a/../../escaped.md', '/tmp/escaped.md', '.', ''])
      expect(() => inside(dir, path), path).toThrow(/not inside/);
    expect(existsSync(join(work, 'escaped.md'))).toBe(false);
    const written = writeInside(dir, 'api/useFocusable.md', 'text');
    expect(written).toBe(join(dir, 'api', 'useFocusable.md'));
  });

  it('reads plain files only, never a link out of the release', () => {
    const release = join(work, 'release');
    mkdirSync(join(release, 'docs'), { recursive: true });
    writeFileSync(join(release, 'docs', 'real.md'), 'real');
    writeFileSync(join(work, 'secret.txt'), 'secret');
    symlinkSync(join(work, 'secret.txt'), join(release, 'docs', 'link.md'));
    symlinkSync(work, join(release, 'up'));
    expect(regularFile(release, 'docs/real.md')?.size).toBe(4);
    expect(regularFile(release, 'docs/link.md')).toBeUndefined();
    expect(regularFile(release, 'up/secret.txt')).toBeUndefined();
    expect(regularFile(release, 'docs')).toBeUndefined();
  });
});

describe("a release's package.json", () => {
  it('keeps what npm allows, as plain text, and leaves out the rest', () => {
    const fields = manifestFields({
      name: '<img src=x onerror=alert(1)>',
      description: 'Moves focus\n<script>x</script>',
      license: 'MIT<script>alert(1)</script>',
      homepage: 'javascript:alert(1)',
      repository: { url: 'git+https://github.com/acme/nav.git' },
      peerDependencies: { react: '>=18', '<b>': '1', vue: '"><script>' },
    });
    expect(fields).toEqual({
      description: 'Moves focus x',
      repository: 'git+https://github.com/acme/nav.git',
      peerDependencies: { react: '>=18' },
    });
    expect(manifestFields({ name: '@scope/nav', license: 'MIT OR Apache-2.0' })).toEqual({
      name: '@scope/nav',
      license: 'MIT OR Apache-2.0',
    });
    expect(manifestFields('not an object')).toEqual({});
  });

  it('keeps dates that are dates', () => {
    expect(releaseDate('2024-05-01T10:00:00.000Z')).toBe('2024-05-01T10:00:00.000Z');
    expect(releaseDate('<script>')).toBeNull();
    expect(releaseDate(42)).toBeNull();
  });
});

describe('Markdown from a package', () => {
  it('drops front matter, raw HTML and unsafe links, and never leaves markup behind', () => {
    for (const text of HOSTILE) {
      const safe = safeMarkdown(text);
      expect(markupIn(safe), text).toBeUndefined();
      // Markup words may stay as code (shown as text); never as markup, a link or front matter.
      expect(safe).not.toMatch(/javascript:|format: mdx/);
    }
  });

  it('keeps what a README means: headings, code, tables and web links', () => {
    const safe = safeMarkdown(
      '# Nav\n\nSee [docs](https://nav.example/docs) and `useFocusable()`.\n\n```js\nconst a = "<b>";\n```\n\n| a | b |\n| - | - |\n| 1 | 2 |\n',
    );
    expect(safe).toContain('# Nav');
    expect(safe).toContain('[docs](https://nav.example/docs)');
    expect(safe).toContain('```js\nconst a = "<b>";\n```');
    expect(safe).toMatch(/\| a +\| b +\|/);
  });

  it('makes reference links inline, each address checked like any other', () => {
    const safe = safeMarkdown('[good][1] and [bad][2]\n\n[1]: https://nav.example/\n[2]: javascript:alert(1)\n');
    expect(safe.trim()).toBe('[good](https://nav.example/) and bad');
  });

  it('gives the words of a summary without any markup', () => {
    expect(plainText('Moves **focus** to `setFocus` <b>now</b>.')).toBe('Moves focus to setFocus now.');
  });

  it('sets package text into Markdown as words, as code or as a block that it cannot close', () => {
    for (const text of HOSTILE) {
      expect(markupIn(`Licence: ${markdownText(text)}.`), text).toBeUndefined();
      expect(markupIn(`Peer: ${markdownCode(text)}`), text).toBeUndefined();
      expect(markupIn(fencedCode(text, 'text')), text).toBeUndefined();
    }
  });

  it('answers what markup a page body would hold', () => {
    expect(markupIn('Text <b>bold</b>')).toBe('<b>');
    expect(markupIn('---\ntitle: x\n---\n\ntext')).toBeDefined();
    expect(markupIn('Only `<b>` in code.')).toBeUndefined();
  });

  it('keeps only web, mail and in-page addresses', () => {
    expect(safeUrl('https://nav.example/a?b#c')).toBe('https://nav.example/a?b#c');
    expect(safeUrl('#usage')).toBe('#usage');
    expect(safeUrl('//cdn.example/x.png')).toBe('https://cdn.example/x.png');
    for (const url of ['javascript:alert(1)', 'data:text/html,x', 'vbscript:x', 'docs/setup.md', 'JaVaScRiPt:x'])
      expect(safeUrl(url), url).toBeUndefined();
  });
});
