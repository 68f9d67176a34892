import { readdirSync } from 'node:fs';
import { sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { fullTitle, hydrated, expect, test } from './fixtures';
import { playerPackages, specRoutes, uiToolkitPackages } from './routes';

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

/** Every page a signed-in reader can open: each docs file, and every route the spec names. */
function allPages(): string[] {
  return [...new Set([...docUrls(), ...specRoutes.map((route) => route.path)])].sort();
}

test('every docs file, package and blog page has a page', () => {
  const pages = new Set(allPages());
  expect(docUrls().length).toBeGreaterThan(100);
  for (const name of playerPackages) {
    expect(pages).toContain(`/docs/player-manager-mono/packages/${name}/`);
    expect(pages).toContain(`/docs/player-manager-mono/packages/${name}/CHANGELOG`);
  }
  for (const name of uiToolkitPackages) expect(pages).toContain(`/docs/ui-toolkit-mono/packages/${name}/`);
  for (const page of ['CHANGELOG', 'LICENSE', 'CODE_OF_CONDUCT', 'CONTRIBUTING']) {
    expect(pages).toContain(`/docs/player-manager-mono/${page}`);
    expect(pages).toContain(`/docs/ui-toolkit-mono/${page}`);
  }
});

test('a signed-in reader gets every page rendered by the server, with a "Page | Site" title and a heading', async ({
  page,
}) => {
  test.setTimeout(10 * 60_000);
  // "Something | Norigin Developer Docs": a page title, the delimiter, the site title.
  const suffix = fullTitle('')
    .trimStart()
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const titled = new RegExp(`^\\S.* ${suffix}$`);
  for (const path of allPages()) {
    const response = await page.goto(path, { waitUntil: 'domcontentloaded' });
    expect(response?.status(), path).toBe(200);
    // No blank phase while sign-in state loads: the heading is in the HTML the server sent.
    expect(await response?.text(), path).toMatch(/<h[12][\s>]/);
    await expect(page, path).toHaveTitle(titled);
    await expect(page.locator('main').getByRole('heading').first(), path).toBeVisible();
  }
  // The last page hydrates like any other.
  await hydrated(page);
});
