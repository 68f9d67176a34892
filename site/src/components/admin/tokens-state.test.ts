import { describe, expect, it } from 'vitest';

import { noTokensText, readerFilter, revokedNotice } from './tokens-state';

describe('the administrators’ token panel', () => {
  it('lists everyone’s tokens for a blank filter and a reader’s for a typed one', () => {
    expect(readerFilter('')).toBeUndefined();
    expect(readerFilter('   ')).toBeUndefined();
    expect(readerFilter('  ann@example.com ')).toBe('ann@example.com');
  });

  it('says whether a reader has no tokens or nobody has', () => {
    expect(noTokensText('ann@example.com')).toBe('This reader has no tokens.');
    expect(noTokensText(' ')).toBe('No reader has made a token yet.');
  });

  it('names the token and its reader once revoked', () => {
    expect(revokedNotice({ name: 'laptop', email: 'ann@example.com' })).toBe('“laptop” of ann@example.com is revoked.');
  });
});
