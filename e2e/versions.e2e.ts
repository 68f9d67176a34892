// The open Norigin Spatial Navigation section, made from the real package on the npm
// registry (site/sources.yaml, `npm run sync`): its newest release at the section's path,
// every other minor line's newest under its version, and the version menu that moves
// between them and remembers the reader's choice.
import { expect, hydrated, test } from './fixtures';

const section = '/docs/Norigin-Spatial-Navigation/';
const key = 'docs-preferred-version-norigin-spatial-navigation';

test.describe('a synced package in versions', () => {
  test("shows the package's own README for its newest release and for 2.3.0", async ({ page }) => {
    await page.goto(section);
    const main = page.getByRole('main');
    await expect(page.getByRole('heading', { level: 1, name: 'Norigin Spatial Navigation' })).toBeVisible();
    await expect(main).toContainText(
      /README of @noriginmedia\/norigin-spatial-navigation 3\.\d+\.\d+, published on .*, the newest release/,
    );
    await expect(main.getByRole('heading', { name: 'Supported Devices' })).toBeVisible();
    await expect(main.getByRole('note')).toHaveCount(0);

    const response = await page.goto(`${section}2.3.0/`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Norigin Spatial Navigation 2.3.0' })).toBeVisible();
    await expect(main).toContainText('README of @noriginmedia/norigin-spatial-navigation 2.3.0');
    // The 2.x README documents the hook itself.
    await expect(main.getByRole('heading', { name: /^useFocusable/ }).first()).toBeVisible();
    const banner = main
      .getByRole('note')
      .filter({ hasText: 'This is the documentation of Norigin Spatial Navigation 2.3.0' });
    await expect(banner).toBeVisible();
    await expect(banner.getByRole('link')).toHaveAttribute('href', section);
  });

  test("an older release's page names no other release, so publishing one leaves it as built", async ({
    page,
    request,
  }) => {
    const history = await (await request.get(`${section}CHANGELOG.md`)).text();
    const newest = /^## (\d+\.\d+\.\d+)/m.exec(history)?.[1];
    expect(newest).toMatch(/^3\./);
    // The HTML as served: its own version and the release history, nothing newer.
    const html = await (await request.get(`${section}2.3.0/`)).text();
    const linked = new Set([...html.matchAll(/Norigin-Spatial-Navigation\/(\d+\.\d+\.\d+)\//g)].map((m) => m[1]));
    expect([...linked]).toEqual(['2.3.0']);
    expect(html).not.toContain(newest);
    expect(html).toContain(`href=${section}CHANGELOG>All releases</a>`);

    // In the browser the menu lists every release, the newest marked.
    await page.goto(`${section}2.3.0/`);
    await hydrated(page);
    const navbar = page.getByRole('navigation', { name: 'Main' });
    await navbar.getByRole('button', { name: /version 2\.3\.0: choose another/ }).hover();
    await expect(navbar.getByRole('link', { name: `${newest} (newest)` })).toHaveAttribute('href', section);
    await expect(navbar.getByRole('link', { name: 'All releases' })).toHaveAttribute('href', `${section}CHANGELOG`);
  });

  test('lists every published release with its date, linked to the docs of its line', async ({ page }) => {
    await page.goto(`${section}CHANGELOG`);
    const releases = page.getByRole('main').getByRole('heading', { level: 2 });
    expect(await releases.count()).toBeGreaterThanOrEqual(24);
    await expect(releases.filter({ hasText: /^2\.3\.0 - \d{4}-\d{2}-\d{2}\b/ })).toHaveCount(1);
    await expect(page.getByRole('main').getByRole('link', { name: 'Documentation of 2.3.0' })).toHaveAttribute(
      'href',
      `${section}2.3.0/`,
    );
  });

  test('the version menu leads to the same page in another version and the choice holds on the next visit', async ({
    page,
  }) => {
    await page.goto(`${section}2.3.0/`);
    await hydrated(page);
    const navbar = page.getByRole('navigation', { name: 'Main' });
    const menu = navbar.getByRole('button', { name: /version 2\.3\.0: choose another/ });
    await menu.hover();
    await navbar.getByRole('link', { name: /\(newest\)$/ }).click();
    await expect(page).toHaveURL(new RegExp(`${section}$`));
    await expect(page.getByRole('main').getByRole('note')).toHaveCount(0);
    expect(await page.evaluate((name) => localStorage.getItem(name), key)).toMatch(/^3\.\d+\.\d+$/);

    // From the newest release's history page, 2.3.0 has no such page: its landing page, then.
    await page.goto(`${section}CHANGELOG`);
    await hydrated(page);
    await navbar.getByRole('button', { name: /choose another/ }).hover();
    await navbar.getByRole('link', { name: '2.3.0', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${section}2\\.3\\.0/$`));
    expect(await page.evaluate((name) => localStorage.getItem(name), key)).toBe('2.3.0');

    // The next visit: the section's entry in the sidebar leads to the chosen version.
    await page.goto('/docs/');
    await hydrated(page);
    const sidebar = page.getByRole('navigation', { name: 'Docs sidebar' });
    await sidebar.getByRole('button', { name: "Expand sidebar category 'Navigation and Layout'" }).click();
    const entry = sidebar.getByRole('link', { name: 'Norigin Spatial Navigation', exact: true });
    await expect(entry).toHaveAttribute('href', `${section}2.3.0/`);
    await entry.click();
    await expect(page).toHaveURL(new RegExp(`${section}2\\.3\\.0/$`));
  });

  test("an older release's page is its archive's, and its version menu lists the portal's releases of now", async ({
    page,
  }) => {
    // What the portal's build says now, with a release published after the archive was built.
    const response = await page.request.get(`${section}versions.json`);
    expect(response.status()).toBe(200);
    const versions = (await response.json()) as { latest: string; versions: { version: string; path: string }[] };
    expect(versions.versions.map((entry) => entry.version)).toContain('2.3.0');
    const published = { ...versions, versions: [{ ...versions.versions[0], version: '9.9.9' }, ...versions.versions] };
    await page.route(`**${section}versions.json`, (route) => route.fulfill({ json: published }));

    await page.goto(`${section}2.3.0/`);
    await hydrated(page);
    // The archive's own entry bundle (hashed), not the portal's (main.js): another app.
    const scripts = await page.locator('script[src]').evaluateAll((all) => all.map((s) => s.getAttribute('src')));
    expect(scripts.some((src) => /\/assets\/js\/main\.[0-9a-f]+\.js$/.test(src ?? ''))).toBe(true);
    const navbar = page.getByRole('navigation', { name: 'Main' });
    await navbar.getByRole('button', { name: /version 2\.3\.0: choose another/ }).hover();
    await expect(navbar.getByRole('link', { name: '9.9.9', exact: true })).toBeVisible();
  });

  test("gives assistants each version's Markdown, lists every version in llms.txt and the newest in full", async ({
    request,
  }) => {
    const older = await request.get(`${section}2.3.0.md`);
    expect(older.status()).toBe(200);
    expect(await older.text()).toContain('README of `@noriginmedia/norigin-spatial-navigation` **2.3.0**');
    const index = await (await request.get('/llms.txt')).text();
    // Absolute links, at the address the portal answers on.
    expect(index).toMatch(
      /\[Norigin Spatial Navigation 2\.3\.0\]\(https?:\/\/[^/)]+\/docs\/Norigin-Spatial-Navigation\/2\.3\.0\.md\)/,
    );
    const full = await (await request.get('/llms-full.txt')).text();
    expect(full).toMatch(/README of `@noriginmedia\/norigin-spatial-navigation` \*\*3\.\d+\.\d+\*\*/);
    expect(full).not.toContain('**2.3.0**');
  });

  test('search finds the newest release by default and an older one when asked, in the box and the API', async ({
    page,
    request,
  }) => {
    const api = async (query: string) => {
      const answer = await request.get(`/api/search?q=setFocus&limit=10${query}`);
      expect(answer.status()).toBe(200);
      return ((await answer.json()) as { results: { url: string }[] }).results.map((result) => result.url);
    };
    expect((await api('')).filter((path) => /\/\d+\.\d+\.\d+\//.test(path))).toEqual([]);
    // 2.3.0's own pages: its reference page of setFocus first (its title is the query), then its README.
    const older = await api('&version=2.3.0');
    expect(older[0]).toBe(`${section}2.3.0/api/setFocus`);
    expect(older).toContain(`${section}2.3.0/`);
    expect(older.every((path) => path.startsWith(`${section}2.3.0/`))).toBe(true);
    expect(await api('&version=9.9.9')).toEqual([]);
    // Each older release is a bundle of its own: a new release leaves the others' as built.
    expect((await request.get('/search/public/older/2.3.0/pagefind-entry.json')).status()).toBe(200);
    expect((await request.get('/search/public/older/pagefind-entry.json')).status()).toBe(404);
    const refused = await request.get('/api/search?q=setFocus&version=latest');
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toContain('version');

    // In the box, on a page of 2.3.0: the newest first, 2.3.0 alone when the reader asks.
    await page.goto(`${section}2.3.0/`);
    await hydrated(page);
    await page.keyboard.press('/');
    const dialog = page.getByRole('dialog', { name: 'Search the documentation' });
    await dialog.getByRole('searchbox', { name: 'Search' }).fill('setFocus');
    const results = dialog.getByRole('list', { name: 'Search results' });
    await expect(results).toHaveAttribute('data-answered', 'setFocus');
    const links = () => results.locator(':scope > li > a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect((await links())[0]).toBe(`${section}api/setFocus?highlight=setfocus`);
    await dialog.getByRole('checkbox', { name: 'Search only version 2.3.0 of Norigin Spatial Navigation' }).check();
    await expect.poll(async () => (await links())[0]).toBe(`${section}2.3.0/api/setFocus?highlight=setfocus`);
    expect((await links()).every((href) => href?.startsWith(`${section}2.3.0/`))).toBe(true);
    // On the newest release's pages there is nothing to choose.
    await page.goto(section);
    await hydrated(page);
    await page.keyboard.press('/');
    await expect(dialog.getByRole('searchbox', { name: 'Search' })).toBeFocused();
    await expect(dialog.getByRole('checkbox')).toHaveCount(0);
  });

  test('shows no version menu outside a synced package', async ({ page }) => {
    await page.goto('/docs/');
    await hydrated(page);
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /choose another/ }),
    ).toHaveCount(0);
  });
});
