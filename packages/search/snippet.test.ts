import { describe, expect, it } from 'vitest';

import { readableExcerpt } from './snippet.js';

describe('readableExcerpt', () => {
  it('keeps a component’s name and drops its props, braces and closing tags', () => {
    expect(
      readableExcerpt(
        'wrap it: &lt;<mark>PlayerProvider</mark> manager={manager}&gt; &lt;PlayerView /&gt; &lt;/PlayerProvider&gt; and go',
      ),
    ).toBe('wrap it: <mark>PlayerProvider</mark> PlayerView PlayerProvider and go');
  });

  it('drops the page’s HTML elements entirely', () => {
    expect(
      readableExcerpt('&lt;p align="center"&gt;&lt;img src="logo.png" /&gt;&lt;/p&gt; The <mark>player</mark>'),
    ).toBe('The <mark>player</mark>');
  });

  it('cleans the half of a tag the excerpt cut off', () => {
    expect(readableExcerpt('onError={handle} /&gt; then <mark>seek</mark>')).toBe(
      'onError= handle then <mark>seek</mark>',
    );
  });

  it('never lets markup through: text that spells a script stays text', () => {
    const html = readableExcerpt('x &amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt; <mark>y</mark>');
    expect(html).not.toMatch(/<(?!\/?mark>)/);
    expect(html).toBe('x &amp;lt;script&amp;gt;alert(1)&amp;lt;/script&amp;gt; <mark>y</mark>');
  });

  it('escapes what it keeps, and drops a tag the excerpt’s end cut off with the highlighting inside it', () => {
    expect(readableExcerpt('a &amp;&amp; b &lt;div class="<mark>x</mark>')).toBe('a &amp;&amp; b');
    expect(readableExcerpt('&lt;img alt="<mark>logo</mark>"&gt; text')).toBe('text');
    expect(readableExcerpt('"quoted" &amp; \'single\'')).toBe('&quot;quoted&quot; &amp; &#39;single&#39;');
  });
});
