import { describe, expect, it } from 'vitest';

import { canonicalPath, isOlderReleasePage, isSearchable, withReleaseFilter } from '../search-index';

describe('which pages the search indexes', () => {
  it.each([
    ['a doc', 'docs-wrapper plugin-docs docs-doc-page docs-doc-id-layout-engine/README', true],
    ['the newest release of a synced package', 'docs-doc-page docs-doc-id-Norigin-Spatial-Navigation/README', true],
    [
      'an older release of a synced package (in its own bundle)',
      'docs-doc-page docs-doc-id-Norigin-Spatial-Navigation/2.3.0/README',
      true,
    ],
    ['a blog post', 'blog-wrapper blog-post-page plugin-blog', true],
    ['a Markdown page', 'mdx-wrapper mdx-page plugin-pages', true],
    ['a generated category index', 'docs-wrapper plugin-docs docs-version-current docs-doc-page', false],
    ['the blog list', 'blog-wrapper blog-list-page plugin-blog', false],
    ['the home page', 'plugin-pages plugin-id-default', false],
  ])('%s: %s', (_name, classes, expected) => {
    expect(
      isSearchable(`<!doctype html><html lang=en class="${classes}" data-has-hydrated=false><body>x</body></html>`),
    ).toBe(expected);
  });
});

describe('the URL a result links to', () => {
  it('is the canonical path of the page, with or without a trailing slash as the site has it', () => {
    expect(
      canonicalPath(
        '<link data-rh=true rel=canonical href=http://localhost:3000/docs/Spat-Nav/Detailed_README_SpatNav />',
      ),
    ).toBe('/docs/Spat-Nav/Detailed_README_SpatNav');
    expect(canonicalPath('<link rel="canonical" href="https://docs.example.com/docs/layout-engine/">')).toBe(
      '/docs/layout-engine/',
    );
    expect(canonicalPath('<link rel=alternate href=/blog/rss.xml>')).toBeNull();
  });
});

describe('the releases of a synced package in the search', () => {
  const html = (docId: string) =>
    `<!doctype html><html lang=en class="docs-doc-page docs-doc-id-${docId} plugin-docs"><body><main><article class="doc"><h1>x</h1></article></main></body></html>`;

  it('tells an older release from the newest by the version folder of its doc id', () => {
    expect(isOlderReleasePage(html('Norigin-Spatial-Navigation/2.3.0/README'))).toBe(true);
    expect(isOlderReleasePage(html('Norigin-Spatial-Navigation/2.3.0/CONTRIBUTING'))).toBe(true);
    expect(isOlderReleasePage(html('Norigin-Spatial-Navigation/README'))).toBe(false);
    expect(isOlderReleasePage(html('layout-engine/v2-migration'))).toBe(false);
  });

  it("puts the release's version in the root Pagefind reads, as a filter with no text", () => {
    const page = html('Norigin-Spatial-Navigation/2.3.0/README');
    expect(withReleaseFilter(page, 'article', '2.3.0')).toContain(
      '<article class="doc"><span data-pagefind-filter="version:2.3.0"></span><h1>',
    );
    expect(withReleaseFilter(page, 'article', undefined)).toBe(page);
  });
});
