import { describe, expect, it } from 'vitest';

import { plainText } from './site-search.js';

describe('a search snippet', () => {
  it('is plain text: no marks, code as it was written, one space between words', () => {
    expect(
      plainText('const ref = <mark>useFocusable</mark>({ a: 1 }); &lt;FocusContext.Provider&gt;\n  x &amp;&amp; y'),
    ).toBe('const ref = useFocusable({ a: 1 }); <FocusContext.Provider> x && y');
  });

  it('undoes each escape once, so escaped entities stay as the page shows them', () => {
    expect(plainText('write &amp;lt; for &lt; and &quot;quotes&quot; or &#39;these&#39;')).toBe(
      'write &lt; for < and "quotes" or \'these\'',
    );
  });
});
