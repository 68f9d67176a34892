import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import * as pagefind from 'pagefind';
import { describe, expect, it } from 'vitest';

import { writeSearchBundle } from '@portal/built-site/write';
import { WORDS_FILE } from '@portal/search';

import {
  breadcrumbLabels,
  canonicalPath,
  isOlderReleasePage,
  isSearchable,
  spacedCells,
  withBreadcrumb,
  withReleaseFilter,
  writeWordList,
} from '../search-index';

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

describe('where a result sits', () => {
  // A doc page's breadcrumbs as the production build minifies them: no </li>, unquoted classes.
  const page = (crumbs: string) =>
    `<!doctype html><html lang=en><body><main><article class=doc><nav class="theme-doc-breadcrumbs x_1" aria-label=Breadcrumbs><ul class=breadcrumbs>${crumbs}</ul></nav><h1>Shaka</h1></article></main></body></html>`;
  const shaka = page(
    '<li class=breadcrumbs__item><a aria-label="Home page" class=breadcrumbs__link href=/><svg viewBox="0 0 24 24"><path d="M10 19z"/></svg></a>' +
      '<li class=breadcrumbs__item><a class=breadcrumbs__link href=/docs/category/player-framework><span>Player Framework</span></a>' +
      '<li class=breadcrumbs__item><a class=breadcrumbs__link href=/docs/player-manager-mono/><span>player-manager-mono</span></a>' +
      '<li class=breadcrumbs__item><span class=breadcrumbs__link>packages</span>' +
      '<li class="breadcrumbs__item breadcrumbs__item--active"><span class=breadcrumbs__link>player-adapter-shaka</span>',
  );

  it('reads the linked breadcrumbs above the page: not the home icon, a folder without a page, or the page', () => {
    expect(breadcrumbLabels(shaka)).toEqual(['Player Framework', 'player-manager-mono']);
    expect(breadcrumbLabels('<html><body><article><h1>A post</h1></article></body></html>')).toEqual([]);
  });

  it('writes them into the root Pagefind reads as metadata, without text to index', () => {
    expect(withBreadcrumb(shaka, 'article')).toContain(
      '<article class=doc><span data-pagefind-meta="trail:Player Framework › player-manager-mono"></span>',
    );
    const post = '<html><body><article><h1>A post</h1></article></body></html>';
    expect(withBreadcrumb(post, 'article')).toBe(post);
  });

  it('keeps a label’s comma and quote from breaking the attribute', () => {
    const odd = page('<li class=breadcrumbs__item><a href=/docs/x/>Players, "all"</a>');
    expect(withBreadcrumb(odd, 'article')).toContain('data-pagefind-meta="trail:Players &quot;all&quot;"');
  });
});

describe('the word list beside each bundle', () => {
  it('has the words Pagefind indexed of the bundle’s pages, with their counts, and no others', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'portal-words-'));
    try {
      const { index } = await pagefind.createIndex({
        rootSelector: 'article',
        excludeSelectors: ['nav'],
        forceLanguage: 'en',
      });
      if (!index) throw new Error('Pagefind did not start');
      await index.addHTMLFile({
        url: '/docs/shaka/',
        content:
          '<html><body><nav>Outside words</nav><article><h1>Shaka adapter</h1><p>The shaka adapter plays DASH.</p><nav>Excluded</nav></article></body></html>',
      });
      await writeSearchBundle(index, dir);
      expect(await writeWordList(dir)).toBe(4);
      const words = JSON.parse(await readFile(join(dir, WORDS_FILE), 'utf8')) as Record<string, number>;
      expect(words).toEqual({ adapter: 3, shaka: 3, dash: 1, plays: 1 });
    } finally {
      await pagefind.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('spacedCells', () => {
  it('keeps the words of table cells and list items apart, with or without their end tags', () => {
    expect(spacedCells('<tr><td><code>destroyOnUnmount</code><td><code>boolean</code></table>')).toBe(
      ' <tr> <td><code>destroyOnUnmount</code> <td><code>boolean</code></table>',
    );
    expect(spacedCells('<ul><li class=x>one</li><li>two</ul>')).toBe('<ul> <li class=x>one </li> <li>two</ul>');
    // Other tags that start alike are left alone.
    expect(spacedCells('<time>1</time><link rel=x><title>t</title>')).toBe(
      '<time>1</time><link rel=x><title>t</title>',
    );
  });
});
