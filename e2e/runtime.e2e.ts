import { hydrated, expect, test } from './fixtures';

test.describe('a page that crashes', () => {
  // React reports the deliberate crash on the console.
  test.use({ allowedConsoleErrors: /.*/ });

  test('shows "This page crashed." and recovers with "Try again"', async ({ page }) => {
    await page.goto('/');
    await hydrated(page);
    // Blog post dates are formatted in the browser; a broken Intl makes the blog list throw while rendering.
    await page.evaluate(() => {
      const original = Intl.DateTimeFormat;
      (window as unknown as { restoreIntl: () => void }).restoreIntl = () => {
        Intl.DateTimeFormat = original;
      };
      Intl.DateTimeFormat = function broken() {
        throw new Error('Date formatting is unavailable (crash test)');
      } as unknown as typeof Intl.DateTimeFormat;
    });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blog' }).click();

    await expect(page.getByRole('heading', { name: 'This page crashed.' })).toBeVisible();
    await expect(page.getByText('Date formatting is unavailable (crash test)')).toBeVisible();

    await page.evaluate(() => (window as unknown as { restoreIntl: () => void }).restoreIntl());
    await page.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByRole('heading', { name: 'This page crashed.' })).toHaveCount(0);
    await expect(
      page.getByRole('main').getByRole('link', { name: 'Welcome to the developer portal', exact: true }),
    ).toBeVisible();
  });
});

test('the progress bar appears when a navigation takes longer than 200 ms', async ({ page }) => {
  await page.goto('/docs/');
  await hydrated(page);
  // Slow every code chunk from now on, so the next route takes about 1.5 s to load.
  await page.route('**/assets/js/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  await page.locator('article').getByRole('link', { name: 'Layout Engine' }).first().click();
  await expect(page.locator('#nprogress .bar')).toBeAttached({ timeout: 1400 });
  // While the next route loads, the current page stays on screen.
  await expect(page.locator('h1')).toHaveText('Getting Started');
  await expect(page.locator('h1')).toHaveText('Layout Engine', { timeout: 10_000 });
  await expect(page.locator('#nprogress')).toHaveCount(0);
});

test.describe('a route whose code fails to load', () => {
  // Chromium reports the blocked chunk requests.
  test.use({ allowedConsoleErrors: /net::ERR_FAILED|Loading chunk/ });

  test('reloads the page, which the server renders in full', async ({ page }) => {
    await page.goto('/docs/');
    await hydrated(page);
    let blocked = 0;
    await page.route('**/assets/js/**', async (route) => {
      blocked += 1;
      await route.abort('failed');
    });
    const reload = page.waitForRequest(
      (request) => request.isNavigationRequest() && new URL(request.url()).pathname === '/docs/layout-engine/',
    );
    await page.locator('article').getByRole('link', { name: 'Layout Engine' }).first().click();
    await reload;
    expect(blocked).toBeGreaterThan(0);
    // The full page arrives from the server even while its code cannot load.
    await expect(page.locator('h1')).toHaveText('Layout Engine');
    await page.unroute('**/assets/js/**');
  });
});

test.describe('a site whose code and styles cannot load', () => {
  // Docusaurus puts the banner's script on the home page only.
  test.use({ allowedConsoleErrors: /net::ERR_FAILED/ });

  test('shows the base-URL banner "Your Docusaurus site did not load properly."', async ({ page }) => {
    await page.route('**/assets/**', (route) => route.abort('failed'));
    await page.goto('/');
    await expect(page.getByText('Your Docusaurus site did not load properly.')).toBeVisible();
  });

  test('does not show the banner when it loads', async ({ page }) => {
    await page.goto('/');
    await hydrated(page);
    await expect(page.getByText('Your Docusaurus site did not load properly.')).toBeHidden();
  });
});
