import type { Browser, Page } from '@playwright/test';

import { expect, hydrated, site, test } from './fixtures';
import { holdRequests, navbarLayout } from './layout-shift';
import { partnerReader, signedInContext } from './readers';

/** The pages a signed-out visitor may read, and the not-found page. */
const publicPages = [
  '/',
  '/docs/',
  '/docs/Norigin-Spatial-Navigation/',
  '/docs/Norigin-Spatial-Navigation/CHANGELOG',
  '/docs/Norigin-Spatial-Navigation/2.3.0/',
  '/login',
  '/login?next=%2Fdocs%2Flayout-engine%2F',
  '/no/such/page',
];

test.describe('a signed-out visitor', () => {
  test('gets no console error on any public page, and the page never asks for a session', async ({ page }) => {
    // The fixture fails the test on any console error; a refused session check would be one.
    const sessionChecks: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/session') sessionChecks.push(request.url());
    });
    for (const path of publicPages) {
      await page.goto(path);
      await hydrated(page);
      await expect(page.locator('html'), path).toHaveClass(/portal-signed-out/);
      await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })).toBeVisible();
    }
    // Client-side navigation between public pages asks nothing either.
    await page.goto('/');
    await hydrated(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Documentation' }).click();
    await expect(page).toHaveURL(/\/docs\/$/);
    expect(sessionChecks).toEqual([]);
  });

  test('gets the not-found page for an unknown path, with status 404, search and the sections', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await hydrated(page);
    // Not sent to sign in: the route guard leaves a path that is no page alone.
    await expect(page).toHaveURL(/\/no\/such\/page$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByText('/no/such/page', { exact: true })).toBeVisible();
    const main = page.getByRole('main');
    await expect(main.getByRole('link', { name: /^Getting Started/ })).toHaveAttribute('href', '/docs/');
    await expect(main.getByRole('link', { name: /^Norigin Spatial Navigation/ })).toHaveAttribute(
      'href',
      '/docs/Norigin-Spatial-Navigation/',
    );
    // Private sections carry the lock a signed-out visitor sees everywhere.
    await expect(main.getByRole('link', { name: /^Support Documentation\s*\(sign in to read\)$/ })).toBeVisible();
    await expect(main.getByRole('link', { name: 'Norigin Spatial Navigation', exact: true })).toBeVisible();
    // The search starts from the words of the address, in the site's search dialog.
    const box = main.getByRole('searchbox', { name: 'Search the documentation' });
    await expect(box).toHaveValue('such page');
    await box.fill('spatial navigation');
    await main.getByRole('button', { name: 'Search' }).click();
    const dialog = page.getByRole('dialog', { name: 'Search the documentation' });
    await expect(dialog.getByRole('searchbox', { name: 'Search' })).toHaveValue('spatial navigation');
    await expect(dialog.getByRole('list', { name: 'Search results' }).getByRole('link').first()).toBeVisible();
  });

  test('gets the not-found page under /docs too, and a suggestion for a mistyped address', async ({ page }) => {
    const response = await page.goto('/docs/Norigin-Spatial-Navigaton/');
    expect(response?.status()).toBe(404);
    await hydrated(page);
    await expect(page).toHaveURL(/\/docs\/Norigin-Spatial-Navigaton\/$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: '/docs/Norigin-Spatial-Navigation/' }).click();
    await expect(page).toHaveURL(/\/docs\/Norigin-Spatial-Navigation\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Norigin Spatial Navigation');
  });

  test('sees the navbar where it was painted first, before the page’s code ran', async ({ page }) => {
    for (const path of ['/', '/docs/', '/login']) {
      // The server's HTML and styles only: what the first paint shows.
      const scripts = await holdRequests(page, '**/assets/js/**');
      await page.goto(path, { waitUntil: 'commit' });
      await page.waitForFunction(() => {
        const navbar = document.querySelector('.navbar');
        return navbar !== null && getComputedStyle(navbar).position === 'sticky';
      });
      // Text is laid out in its final font (the fallback's layout in the font's short block period is never seen).
      await page.evaluate(() => document.fonts.ready);
      const firstPaint = await navbarLayout(page);
      await scripts.release();
      await hydrated(page);
      await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' })).toBeVisible();
      expect(await navbarLayout(page), path).toEqual(firstPaint);
    }
  });

  test('has no sideways scrolling at 390 px on any public page', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const path of publicPages) {
      await page.goto(path);
      await hydrated(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });

  test('sees the whole site title and a labelled search on a phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await hydrated(page);
    const title = page.locator('.navbar__inner .navbar__title');
    await expect(title).toHaveText(site.title);
    // Not cut off with an ellipsis: the text fits its box.
    expect(await title.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    const search = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /^Search/ });
    const box = await search.boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(40);
    await page.getByRole('button', { name: 'Toggle navigation bar' }).click();
    await page.getByRole('button', { name: 'Search the docs' }).click();
    await expect(page.getByRole('dialog', { name: 'Search the documentation' })).toBeVisible();
    await expect(page.getByRole('searchbox', { name: 'Search' })).toBeFocused();
  });

  test('sees the package families and the latest releases on the home page, locked until sign-in', async ({ page }) => {
    await page.goto('/');
    await hydrated(page);
    const families = page.getByRole('region', { name: 'Package families' }).getByRole('listitem');
    await expect(families).toHaveCount(6);
    await expect(families.getByRole('link', { name: /^Norigin Spatial Navigation/ })).not.toContainText('sign in');
    await expect(families.getByRole('link', { name: /^Player Framework\s*\(sign in to read\)/ })).toBeVisible();
    // What's new: read from the changelogs at build time, newest first, with versions.
    const releases = page.getByRole('region', { name: 'What’s new' }).getByRole('listitem');
    expect(await releases.count()).toBeGreaterThanOrEqual(4);
    const dates = await releases
      .locator('time')
      .evaluateAll((times) => times.map((time) => time.getAttribute('datetime')));
    expect([...dates].sort().reverse()).toEqual(dates);
    await expect(releases.filter({ hasText: 'UI Toolkit' })).toContainText('2.3.1');
    await expect(releases.filter({ hasText: 'UI Toolkit' }).getByRole('link')).toHaveAttribute(
      'href',
      '/docs/ui-toolkit-mono/CHANGELOG',
    );
    // The open package's release comes from its registry (site/sources.yaml), not a copied changelog.
    await expect(releases.filter({ hasText: 'Norigin Spatial Navigation' })).toContainText(/\b3\.\d+\.\d+\b/);
    // The quick start is real code, highlighted like the docs'.
    await expect(page.getByText('createPlayerManager({')).toBeVisible();
  });

  test('finds canonical links, og:url and a social card at the configured site address', async ({ page }) => {
    await page.goto('/docs/Norigin-Spatial-Navigation/');
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    const ogUrl = await page.locator('meta[property="og:url"]').getAttribute('content');
    const image = await page.locator('meta[property="og:image"]').getAttribute('content');
    // The tests' build uses the default SITE_URL; a deployment sets its own (README).
    expect(canonical).toBe('http://localhost:3000/docs/Norigin-Spatial-Navigation/');
    expect(ogUrl).toBe(canonical);
    expect(image).toBe('http://localhost:3000/img/social-card.jpg');
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    // The card is public, so link previews can fetch it.
    const card = await page.request.get('/img/social-card.jpg');
    expect(card.status()).toBe(200);
    expect(card.headers()['content-type']).toBe('image/jpeg');
    // Link previews fetch it on every share: a small image (issue 34 asks for under 100 KB).
    expect((await card.body()).length).toBeLessThan(100_000);
  });
});

async function partnerPage(browser: Browser, baseURL: string): Promise<{ page: Page; close: () => Promise<void> }> {
  const { context, page } = await signedInContext(browser, baseURL, partnerReader);
  return { page, close: () => context.close() };
}

test.describe('a partner on the home page', () => {
  test('does not see the internal families or releases, and sees no locks', async ({ browser, baseURL }) => {
    const { page, close } = await partnerPage(browser, String(baseURL));
    await page.goto('/');
    await hydrated(page);
    await expect(page.locator('html')).toHaveClass(/portal-g-partner/);
    const families = page.getByRole('region', { name: 'Package families' });
    await expect(families.getByRole('link', { name: /^Player Framework/ })).toBeVisible();
    await expect(families.getByRole('link', { name: /^Support Documentation/ })).toBeHidden();
    const releases = page.getByRole('region', { name: 'What’s new' });
    for (const internal of ['TV App Training', 'Knowledge Nugget App', 'France 24 Demo'])
      await expect(releases.getByRole('link', { name: new RegExp(internal) })).toBeHidden();
    await expect(page.locator('.portal-lock:visible')).toHaveCount(0);
    await close();
  });
});

test('the public start-up code holds no private description: the blog’s own reaches its partner and staff readers only', async ({
  browser,
  baseURL,
  request,
}) => {
  // What the blog says of itself, as a partner reads it.
  const { page, close } = await partnerPage(browser, String(baseURL));
  const blog = await page.request.get('/blog');
  expect(blog.status()).toBe(200);
  const description = /<meta[^>]*name="?description"?[^>]*content="([^"]+)"/.exec(await blog.text())?.[1];
  await close();
  expect(description?.length).toBeGreaterThan(20);
  // The scripts every visitor's page loads first (the runtime and main bundles), fetched signed out.
  const home = await request.get('/');
  const scripts = [...(await home.text()).matchAll(/<script[^>]*src="?([^" >]+\.js)/g)].map((match) => match[1]);
  expect(scripts.some((src) => /\/main(\.[^/]*)?\.js$/.test(String(src)))).toBe(true);
  for (const src of scripts) {
    const script = await request.get(String(src));
    expect(script.status(), String(src)).toBe(200);
    expect(await script.text(), String(src)).not.toContain(String(description));
  }
});

test('the entry bundles keep one name and are revalidated; every other asset has a hash and is kept for a year', async ({
  request,
}) => {
  const home = await (await request.get('/')).text();
  const scripts = [...home.matchAll(/<script[^>]*src="?([^" >]+\.js)/g)].map((match) => String(match[1]));
  // With one name, a page's HTML changes only with the page (src/plugins/stable-entry-names.ts).
  expect(scripts).toEqual(expect.arrayContaining(['/assets/js/runtime~main.js', '/assets/js/main.js']));
  for (const src of ['/assets/js/runtime~main.js', '/assets/js/main.js']) {
    const script = await request.get(src);
    expect(script.headers()['cache-control'], src).toBe('public, max-age=0, must-revalidate');
    const etag = script.headers()['etag'];
    expect(etag, src).toBeTruthy();
    expect((await request.get(src, { headers: { 'if-none-match': String(etag) } })).status(), src).toBe(304);
  }
  const stylesheet = /<link[^>]*href="?(\/assets\/css\/[^" >]+\.css)/.exec(home)?.[1];
  expect(stylesheet).toMatch(/\.[0-9a-f]{8}\.css$/);
  expect((await request.get(String(stylesheet))).headers()['cache-control']).toBe(
    'public, max-age=31536000, immutable',
  );
});
