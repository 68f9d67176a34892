import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { Browser, Page, Request } from '@playwright/test';

import { expect, hydrated, test } from './fixtures';

const buildDir = fileURLToPath(new URL('../site/build', import.meta.url));

const isScript = (request: Request): boolean => new URL(request.url()).pathname.endsWith('.js');

/** The scripts a page asks for (run or prefetched), and those whose answer has not come yet. */
function watchScripts(page: Page): { requested: Set<string>; inFlight: Set<Request> } {
  const requested = new Set<string>();
  const inFlight = new Set<Request>();
  page.on('request', (request) => {
    if (!isScript(request)) return;
    requested.add(new URL(request.url()).pathname);
    inFlight.add(request);
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('requestfailed', (request) => inFlight.delete(request));
  return { requested, inFlight };
}

/** The scripts a route runs for a visitor with nothing cached, without what its links prefetch. */
async function scriptsOf(browser: Browser, path: string): Promise<string[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const scripts = new Set<string>();
    // Prefetches are of type "other"; the route's own chunks are loaded as scripts.
    page.on('request', (request) => {
      if (isScript(request) && request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
    });
    await page.goto(path);
    // A cold browser compiles every script afresh: allow it more than a warm page needs.
    await expect(page.locator('html[data-has-hydrated="true"]')).toBeAttached({ timeout: 20_000 });
    return [...scripts];
  } finally {
    await context.close();
  }
}

const missing = (expected: readonly string[], seen: { requested: Set<string> }): string[] =>
  expected.filter((script) => !seen.requested.has(script));

/** The scripts asked for that hold the Firebase Auth SDK (it calls identitytoolkit), read from the build. */
const firebaseIn = (seen: { requested: Set<string> }): string[] =>
  [...seen.requested].filter((path) =>
    readFileSync(`${buildDir}${decodeURIComponent(path)}`, 'utf8').includes('identitytoolkit.googleapis.com'),
  );

const publicPages = [
  '/',
  '/docs/',
  '/docs/Norigin-Spatial-Navigation/',
  '/docs/Norigin-Spatial-Navigation/CHANGELOG',
  '/docs/Norigin-Spatial-Navigation/CODE_OF_CONDUCT',
  '/docs/Norigin-Spatial-Navigation/CONTRIBUTING',
  '/login',
];

test.describe('an anonymous reader', () => {
  test('reads every public page, and the browser is refused none of the files they need', async ({ page }) => {
    const refused: string[] = [];
    // Not even the session check: without the portal_groups cookie a public page knows the
    // visitor is signed out and does not ask (GET /api/session would answer 401).
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (response.status() >= 400) refused.push(`${response.status()} ${url.pathname}`);
    });
    for (const path of publicPages) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await hydrated(page);
      await expect(page.locator('main').getByRole('heading').first(), path).toBeVisible();
    }
    // The same pages reached by client-side navigation load their chunks through the runtime.
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
    await page.locator('article').getByRole('link', { name: 'Layout Engine', exact: true }).first().click();
    await expect(page).toHaveURL(/\/login\?next=%2Fdocs%2Flayout-engine%2F$/);
    expect(sawPrivate).toBe(false);
  });

  test('loads the Firebase SDK on the login page only, once the reader starts signing in', async ({
    page,
    browser,
  }) => {
    // Three fresh browsers (two to learn what routes run, one for the login page alone).
    test.slow();
    // What each route runs, seen by a fresh visitor: the runtime, main and the route's chunks.
    const loginScripts = await scriptsOf(browser, '/login');
    const docsScripts = await scriptsOf(browser, '/docs/');

    const publicPages = watchScripts(page);
    for (const path of ['/', '/docs/', '/docs/Norigin-Spatial-Navigation/']) {
      await page.goto(path);
      await hydrated(page);
    }
    // The navbar's Login link makes the pages prefetch the login route's code, which is what
    // would carry the SDK in: wait until all of it has come, then look.
    await expect.poll(() => missing(loginScripts, publicPages), { timeout: 15_000 }).toEqual([]);
    await expect.poll(() => publicPages.inFlight.size).toBe(0);
    expect(publicPages.requested.size).toBeGreaterThan(3);
    expect(firebaseIn(publicPages)).toEqual([]);

    // The login page on its own (a fresh browser, nothing cached): not even there until the
    // reader starts signing in. It prefetches the Documentation link's route once its own
    // effects have run and the page is idle; after that, nothing else would fetch the SDK.
    const context = await browser.newContext();
    try {
      const login = await context.newPage();
      const loginPage = watchScripts(login);
      await login.goto('/login');
      await hydrated(login);
      const docsOnly = docsScripts.filter((script) => !loginScripts.includes(script));
      expect(docsOnly.length).toBeGreaterThan(0);
      await expect.poll(() => missing(docsOnly, loginPage), { timeout: 15_000 }).toEqual([]);
      await expect.poll(() => loginPage.inFlight.size).toBe(0);
      expect(firebaseIn(loginPage)).toEqual([]);
      await login.getByLabel('E-mail').pressSequentially('reader@');
      await expect.poll(() => firebaseIn(loginPage)).not.toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('finds only public pages in the sitemap', async ({ request }) => {
    const xml = await (await request.get('/sitemap.xml')).text();
    const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1] ?? '').pathname).sort();
    expect(paths).toEqual([...publicPages].sort());
  });
});
