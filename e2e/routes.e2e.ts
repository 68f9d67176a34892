import { fullTitle, hydrated, expect, test } from './fixtures';
import { specRoutes } from './routes';

test.describe('every route of the specification', () => {
  for (const route of specRoutes) {
    test(`${route.path} renders "${route.title}"`, async ({ page }) => {
      const response = await page.goto(route.path);
      expect(response?.status()).toBe(200);
      await hydrated(page);
      await expect(page).toHaveTitle(fullTitle(route.title));
      await expect(page.locator('main').getByRole('heading').first()).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Page Not Found' })).toHaveCount(0);
    });
  }
});

test.describe('route matching ignores case and a trailing slash', () => {
  const variants: { asked: string; title: string }[] = [
    { asked: '/DOCS/Layout-Engine', title: 'Layout Engine' },
    { asked: '/docs/layout-engine', title: 'Layout Engine' },
    { asked: '/docs/LAYOUT-ENGINE/', title: 'Layout Engine' },
    { asked: '/Blog/Welcome/', title: 'Welcome to the developer portal' },
    { asked: '/MARKDOWN-PAGE/', title: 'Portal conventions' },
    { asked: '/docs/frontend-guidelines/cypress', title: 'Cypress' },
    { asked: '/docs/norigin-spatial-navigation/changelog/', title: 'Norigin Spatial Navigation changelog' },
    { asked: '/docs/player-manager-mono/packages/player-adapter-dash.js', title: 'player-adapter-dash.js' },
    { asked: '/Docs/Player-Manager-Mono/Packages/Player-Adapter-HLS.js/', title: 'player-adapter-hls.js' },
    { asked: '/docs', title: 'Getting Started' },
    { asked: '/LOGIN/', title: 'Sign in' },
  ];
  for (const { asked, title } of variants) {
    test(`${asked} shows "${title}" and stays on it after hydration`, async ({ page }) => {
      const response = await page.goto(asked);
      expect(response?.status()).toBe(200);
      await hydrated(page);
      await expect(page).toHaveTitle(fullTitle(title));
      // The client router must match the same page, not swap in the not-found page.
      await expect(page.getByRole('heading', { name: 'Page Not Found' })).toHaveCount(0);
      await expect(page.locator('main').getByRole('heading').first()).toBeVisible();
    });
  }
});

test('an unknown path shows the not-found page with status 404', async ({ page }) => {
  const response = await page.goto('/docs/no-such-package/');
  expect(response?.status()).toBe(404);
  await hydrated(page);
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect(page).toHaveTitle(fullTitle('Page Not Found'));
  // What a search engine or a link preview shows of it, in the HTML as served.
  expect(await response?.text()).toMatch(
    /<meta[^>]+name="?description"?[^>]+content="There is no page at this address\./,
  );
});

test('client-side navigation to an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/');
  await hydrated(page);
  await page.evaluate(() => {
    window.history.pushState({}, '', '/docs/missing-page');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
});
