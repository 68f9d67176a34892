import type { Page, Request } from '@playwright/test';

import { expect, hydrated, test } from './fixtures';
import { apiReferencePaths, olderReleasePaths, versionedPagePaths } from './synced';

/** Docusaurus's runtime in the page (with the portal's gated prefetch: false when nothing is loaded). */
interface Runtime {
  docusaurus: { preload(route: string): Promise<unknown> | false };
}

const publicPages = [
  '/',
  '/docs/',
  '/docs/Norigin-Spatial-Navigation/',
  '/docs/Norigin-Spatial-Navigation/CHANGELOG',
  '/docs/Norigin-Spatial-Navigation/CODE_OF_CONDUCT',
  '/docs/Norigin-Spatial-Navigation/CONTRIBUTING',
  '/login',
  '/login/action',
];

test.describe('an anonymous reader', () => {
  /** Every answer of 400 or more the page's browser meets, as "status path". */
  const refusals = (page: Page): string[] => {
    const refused: string[] = [];
    // Not even the session check: without the portal_groups cookie a public page knows the
    // visitor is signed out and does not ask (GET /api/session would answer 401).
    page.on('response', (response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${new URL(response.url()).pathname}`);
    });
    return refused;
  };

  test('reads every public page, and the browser is refused none of the files they need', async ({ page }) => {
    const refused = refusals(page);
    for (const path of publicPages) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await hydrated(page);
      await expect(page.locator('main').getByRole('heading').first(), path).toBeVisible();
    }
    expect(refused).toEqual([]);
  });

  test('reaches the public pages by following links, the runtime loading their chunks', async ({ page }) => {
    const refused = refusals(page);
    await page.goto('/');
    await hydrated(page);
    await page.getByRole('navigation').getByRole('link', { name: 'Documentation' }).first().click();
    await expect(page).toHaveURL(/\/docs\/$/);
    await page
      .locator('article')
      .getByRole('link', { name: 'Norigin Spatial Navigation', exact: true })
      .first()
      .click();
    await expect(page).toHaveURL(/\/docs\/Norigin-Spatial-Navigation\/$/);
    await expect(page.locator('article h1, article header h1').first()).toBeVisible();
    await page.getByRole('navigation').getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL(/\/login\?next=%2Fdocs%2FNorigin-Spatial-Navigation%2F$/);
    await expect(page.getByLabel('E-mail')).toBeVisible();
    expect(refused).toEqual([]);
  });

  test('is sent to sign in for a private page, by the server', async ({ page }) => {
    const response = await page.goto('/DOCS/Player-Manager-Mono/packages/player-adapter-dash.js');
    expect(response?.request().redirectedFrom()?.url()).toMatch(/player-adapter-dash\.js$/);
    await expect(page).toHaveURL(/\/login\?next=%2FDOCS%2FPlayer-Manager-Mono%2Fpackages%2Fplayer-adapter-dash\.js$/);
  });

  test('following a link to a private page goes to sign in without showing it', async ({ page }) => {
    // The page knows the reader is signed out before it hydrates (no portal_groups cookie),
    // so the guard sends them to sign in before any private code is fetched.
    await page.goto('/docs/');
    await hydrated(page);
    await expect(page.locator('html')).toHaveClass(/portal-signed-out/);
    // The private page's heading must never appear, not even for a moment.
    let sawPrivate = false;
    await page.exposeFunction('reportPrivateHeading', () => {
      sawPrivate = true;
    });
    await page.evaluate(() => {
      new MutationObserver(() => {
        if (document.querySelector('article h1')?.textContent === 'Layout Engine') {
          (window as unknown as { reportPrivateHeading(): void }).reportPrivateHeading();
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // A link to a page the reader may not read says so in its name (the access styles).
    await page
      .locator('article')
      .getByRole('link', { name: /^Layout Engine\W+sign in to read\W*$/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/login\?next=%2Fdocs%2Flayout-engine%2F$/);
    expect(sawPrivate).toBe(false);
  });

  test('loads the Firebase SDK on the login page only', async ({ page }) => {
    // Every script the page asks for, as the request starts (its text is read when checked).
    const scripts: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.endsWith('.js')) scripts.push(request);
    });
    const firebaseScripts = async (): Promise<string[]> => {
      const found: string[] = [];
      for (const request of scripts) {
        const text = (await (await request.response())?.text().catch(() => '')) ?? '';
        if (text.includes('identitytoolkit.googleapis.com')) found.push(new URL(request.url()).pathname);
      }
      return found;
    };
    for (const path of ['/', '/docs/', '/docs/Norigin-Spatial-Navigation/']) {
      await page.goto(path);
      await hydrated(page);
      // What link prefetching would load, loaded in full and waited for: the login page's
      // code, and that of every other route the page links to that this reader may fetch.
      // (The portal's preload answers false, and loads nothing, until it knows who reads;
      // Docusaurus's answers false for a route it loaded before.)
      await expect
        .poll(() =>
          page.evaluate(async () => {
            const loading = (window as unknown as Runtime).docusaurus.preload('/login');
            return loading !== false && (await loading, true);
          }),
        )
        .toBe(true);
      await page.evaluate(async () => {
        const { preload } = (window as unknown as Runtime).docusaurus;
        const links = Array.from(document.querySelectorAll<HTMLAnchorElement>('a[href^="/"]'), (a) => a.pathname);
        await Promise.all([...new Set(links)].map((route) => preload(route)));
      });
    }
    expect(scripts.length).toBeGreaterThan(3);
    expect(await firebaseScripts()).toEqual([]);
    await page.goto('/login');
    await hydrated(page);
    // Not even there until the reader starts signing in: once the page's effects have run
    // and the main thread has been idle, nothing has asked for it; typing does.
    await page.evaluate(() => new Promise((resolve) => requestIdleCallback(resolve)));
    expect(await firebaseScripts()).toEqual([]);
    await page.getByLabel('E-mail').pressSequentially('reader@');
    await expect.poll(firebaseScripts).not.toEqual([]);
  });

  test('finds only public pages in the sitemap', async ({ request }) => {
    const xml = await (await request.get('/sitemap.xml')).text();
    const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1] ?? '').pathname).sort();
    // With the open package's licence, its older releases, its API reference and the guide the
    // portal's authors wrote for its 3.x releases, which the build writes from the content
    // cache (site/sources.yaml).
    const synced = [
      '/docs/Norigin-Spatial-Navigation/LICENSE',
      ...olderReleasePaths('norigin-spatial-navigation'),
      ...apiReferencePaths('norigin-spatial-navigation'),
      ...versionedPagePaths('norigin-spatial-navigation'),
    ];
    expect(synced.length).toBeGreaterThan(5);
    expect(paths).toEqual([...publicPages, ...synced].sort());
  });
});
