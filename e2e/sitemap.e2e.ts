import { readdirSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { fullTitle, hydrated, expect, test } from './fixtures';
import { playerPackages, uiToolkitPackages } from './routes';

/** Every page the build lists in its sitemap, as paths. */
async function sitemapPaths(baseURL: string): Promise<string[]> {
  const xml = await (await fetch(new URL('/sitemap.xml', baseURL))).text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1] ?? '').pathname);
}

/** The URL Docusaurus gives each file under site/docs (README → its folder, with a trailing slash). */
function docUrls(): string[] {
  const docsDir = fileURLToPath(new URL('../site/docs/', import.meta.url));
  return readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md') || file.endsWith('.mdx'))
    .map((file) =>
      file
        .split(sep)
        .join('/')
        .replace(/\.mdx?$/, ''),
    )
    .map((id) =>
      id === 'intro' ? '/docs/' : id.endsWith('README') ? `/docs/${id.slice(0, -'README'.length)}` : `/docs/${id}`,
    );
}

test('the sitemap lists every doc page, every package and the blog', async ({ baseURL }) => {
  const paths = new Set(await sitemapPaths(baseURL ?? ''));
  const docs = docUrls();
  expect(docs.length).toBeGreaterThan(100);
  for (const url of docs) expect(paths).toContain(url);
  for (const name of playerPackages) {
    expect(paths).toContain(`/docs/player-manager-mono/packages/${name}/`);
    expect(paths).toContain(`/docs/player-manager-mono/packages/${name}/CHANGELOG`);
  }
  for (const name of uiToolkitPackages) expect(paths).toContain(`/docs/ui-toolkit-mono/packages/${name}/`);
  for (const page of ['CHANGELOG', 'LICENSE', 'CODE_OF_CONDUCT', 'CONTRIBUTING']) {
    expect(paths).toContain(`/docs/player-manager-mono/${page}`);
    expect(paths).toContain(`/docs/ui-toolkit-mono/${page}`);
  }
  for (const path of ['/blog', '/blog/welcome', '/blog/mdx-blog-post', '/blog/tags/hello'])
    expect(paths).toContain(path);
});

test('every page in the sitemap renders with a "Page | Site" title and a heading', async ({ page, baseURL }) => {
  test.setTimeout(10 * 60_000);
  const paths = await sitemapPaths(baseURL ?? '');
  // "Something | Norigin Developer Docs": a page title, the delimiter, the site title.
  const suffix = fullTitle('')
    .trimStart()
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const titled = new RegExp(`^\\S.* ${suffix}$`);
  for (const path of paths) {
    const response = await page.goto(path, { waitUntil: 'domcontentloaded' });
    expect(response?.status(), path).toBe(200);
    await expect(page, path).toHaveTitle(titled);
    await expect(page.locator('main').getByRole('heading').first(), path).toBeVisible();
  }
  // The last page hydrates like any other.
  await hydrated(page);
});
