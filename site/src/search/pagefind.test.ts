import { describe, expect, it } from 'vitest';

import { SEARCH_PUBLIC, searchBundlesFor } from './pagefind';

describe('searchBundlesFor', () => {
  it('gives a signed-out visitor the public bundle only', () => {
    expect(searchBundlesFor(null)).toEqual([SEARCH_PUBLIC]);
    expect(SEARCH_PUBLIC).toBe('/search/public/');
  });

  it('gives a partner the public bundle and the partner-readable one, public first', () => {
    expect(searchBundlesFor(['partner'])).toEqual(['/search/public/', '/search/admin+partner+staff/']);
  });

  it('gives staff every bundle of the docs and the blog, and admins the administration pages’ too', () => {
    const docs = ['/search/public/', '/search/admin+partner+staff/', '/search/admin+staff/'];
    expect(searchBundlesFor(['staff'])).toEqual(docs);
    expect([...searchBundlesFor(['admin'])].sort()).toEqual([...docs, '/search/admin/'].sort());
  });

  it('gives a signed-in reader without groups the public bundle only', () => {
    expect(searchBundlesFor([])).toEqual([SEARCH_PUBLIC]);
  });
});
