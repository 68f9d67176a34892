import { describe, expect, it } from 'vitest';

import { linkSymbols } from '../reference';

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
