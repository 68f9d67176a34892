import type { Page } from '@playwright/test';
import { load } from 'cheerio';

import { fullTitle, hydrated, expect, pagesToOpen, test } from './fixtures';
import { specRoutes } from './routes';

test.describe('every route of the specification', () => {
  test('each answers 200 with its title in the page as the server renders it', async ({ page }) => {
    const wrong: string[] = [];
    for (const route of specRoutes) {
      const response = await page.request.get(route.path);
      const title = load(await response.text())('title').text();
      if (response.status() !== 200 || title !== fullTitle(route.title))
        wrong.push(`${route.path}: ${response.status()} "${title}"`);
    }
    expect(wrong).toEqual([]);
  });

  // In the browser, where the client router must match the same page after hydration: all of
  // them with `npm run test:e2e:full`, every sixth in `npm test` (the request above checks all).
  for (const route of pagesToOpen(specRoutes, { every: 6 })) {
    test(`${route.path} renders "${route.title}"`, async ({ warmPage: page }) => {
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
    { asked: '/docs/player-manager-mono/packages/player-adapter-dash.js', title: 'DASH adapter' },
    { asked: '/Docs/Player-Manager-Mono/Packages/Player-Adapter-HLS.js/', title: 'HLS adapter' },
    { asked: '/docs', title: 'Getting Started' },
    { asked: '/LOGIN/', title: 'Sign in' },
  ];
  for (const { asked, title } of variants) {
    test(`${asked} shows "${title}" and stays on it after hydration`, async ({ warmPage: page }) => {
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

/** Goes to `path` in the app, as its router does for a link or a search result. */
async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

test('client-side navigation to an unknown path asks the server once, which answers its not-found page', async ({
  page,
}) => {
  const documents: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'document')
      documents.push(`${response.status()} ${new URL(response.url()).pathname}`);
  });
  await page.goto('/');
  await hydrated(page);
  await navigateInApp(page, '/docs/missing-page');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await expect.poll(() => documents).toEqual(['200 /', '404 /docs/missing-page']);
  await hydrated(page);
  // The not-found page the server sent is not loaded again.
  await page.waitForTimeout(1000);
  expect(documents).toEqual(['200 /', '404 /docs/missing-page']);
});

test('a page of a build swapped in after the tab loaded is fetched from the server, not shown as not found', async ({
  page,
}) => {
  // A release's rebuild (docs/architecture.md) added this page after the tab loaded the app:
  // the server answers it, the tab's route table does not know it.
  const added = '/docs/Norigin-Spatial-Navigation/0.9.0/';
  await page.route(`**${added}`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html lang="en"><title>0.9.0</title><h1>Norigin Spatial Navigation 0.9.0</h1></html>',
    }),
  );
  await page.goto('/docs/Norigin-Spatial-Navigation/');
  await hydrated(page);
  await navigateInApp(page, added);
  await expect(page.getByRole('heading', { name: 'Norigin Spatial Navigation 0.9.0' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toHaveCount(0);
});
