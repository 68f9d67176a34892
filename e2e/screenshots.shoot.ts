import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { test } from '@playwright/test';

import { hydrated } from './fixtures';

/**
 * `npm run screenshots`: full-page PNGs of every page template, at 1280 and 390 px, light
 * and dark, in screenshots/ (gitignored), for people to look at. Not a test: nothing is
 * compared, so a Chromium update never fails anything. The project runs signed in as
 * staff; the login page is taken signed out, as a visitor meets it.
 */
const outDir = fileURLToPath(new URL('../screenshots/', import.meta.url));

const templates = [
  { name: 'home', path: '/' },
  { name: 'login', path: '/login?next=%2Fdocs%2Flayout-engine%2F', signedOut: true },
  { name: 'doc', path: '/docs/player-manager-mono/packages/player-adapter-dash.js/' },
  { name: 'category', path: '/docs/category/player-framework' },
  { name: 'blog-list', path: '/blog' },
  { name: 'blog-post', path: '/blog/mdx-blog-post' },
  { name: 'not-found', path: '/docs/no-such-package/' },
  { name: 'search', path: '/docs/', search: 'dash.js' },
];
const widths = [1280, 390];
const modes = ['light', 'dark'];

test.beforeAll(() => mkdirSync(outDir, { recursive: true }));

for (const template of templates) {
  test(`screenshots of ${template.name}`, async ({ browser }) => {
    for (const width of widths) {
      for (const mode of modes) {
        const context = await browser.newContext({
          viewport: { width, height: width > 500 ? 800 : 844 },
          ...(template.signedOut && { storageState: { cookies: [], origins: [] } }),
        });
        await context.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
        const page = await context.newPage();
        await page.goto(template.path);
        await hydrated(page);
        await page.evaluate(() => document.fonts.ready);
        if (template.search) {
          await page.keyboard.press('Control+k');
          await page.getByRole('searchbox', { name: 'Search' }).fill(template.search);
          await page.getByRole('list', { name: 'Search results' }).getByRole('link').first().waitFor();
        }
        await page.screenshot({
          path: `${outDir}${template.name}-${width}-${mode}.png`,
          fullPage: !template.search,
          animations: 'disabled',
        });
        await context.close();
      }
    }
  });
}
