import { describe, expect, it } from 'vitest';

import { breakingIn, breakingNote, linkSymbols } from '../reference';

describe('linkSymbols', () => {
  const symbols = [{ name: 'setFocus', slug: 'setFocus', kind: 'function', declaration: '', summary: '' }] as const;
  const href = () => 'api/setFocus.md';

  it('links inline code and code blocks that name a symbol, not headings or links', () => {
    const markdown = [
      '## `setFocus`',
      'Call `setFocus()` or `setFocusLater`, see [`setFocus`](x.md).',
      '```js',
      "setFocus('menu');",
      '```',
    ].join('\n');
    expect(linkSymbols(markdown, [...symbols], href).split('\n')).toEqual([
      '## `setFocus`',
      'Call [`setFocus()`](api/setFocus.md) or `setFocusLater`, see [`setFocus`](x.md).',
      '```js',
      "setFocus('menu');",
      '```',
      '',
      'API used above: [`setFocus`](api/setFocus.md).',
    ]);
  });
});

describe('breakingIn', () => {
  const symbol = { name: 'setFocus', slug: 'setFocus', kind: 'function', declaration: '', summary: '' } as const;
  const change = (from: string, to: string, removed = 1, changed = 0) => ({
    from,
    to,
    removed: Array.from({ length: removed }, () => symbol),
    changed: Array.from({ length: changed }, () => ({ ...symbol, before: '' })),
    added: [],
  });

  it('marks a removal or a change in a patch or minor release, not in a major or a 0.x minor', () => {
    expect(breakingIn(change('3.1.0', '3.2.1'))).toBe('minor');
    expect(breakingIn(change('3.2.1', '3.2.2', 0, 1))).toBe('patch');
    expect(breakingIn(change('2.3.0', '3.1.0'))).toBeUndefined();
    expect(breakingIn(change('0.9.0', '0.10.0'))).toBeUndefined();
    expect(breakingIn(change('0.9.0', '0.9.1'))).toBe('patch');
    // Additions alone break nothing.
    expect(breakingIn(change('3.1.0', '3.2.0', 0, 0))).toBeUndefined();
  });

  it('says what the release removes and changes, and against which', () => {
    expect(breakingNote(change('3.1.0', '3.2.1', 1, 5))).toBe(
      'Breaking in a minor release: 3.2.1 removes 1 exported symbol and changes the declaration of 5 symbols against 3.1.0, which semantic versioning keeps for a major release. Check the code that uses them before you upgrade.',
    );
    expect(breakingNote(change('2.3.0', '3.1.0'))).toBe('');
  });
});
