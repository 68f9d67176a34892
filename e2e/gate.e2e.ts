import { expect, hydrated, test } from './fixtures';

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

  test('loads the Firebase SDK on the login page only', async ({ page }) => {
    const scripts = new Map<string, string>();
    page.on('response', async (response) => {
      // Scripts the page runs and chunks Docusaurus prefetches for links on it.
      if (new URL(response.url()).pathname.endsWith('.js') && response.ok()) {
        scripts.set(new URL(response.url()).pathname, await response.text().catch(() => ''));
      }
    });
    const firebaseScripts = (): string[] =>
      [...scripts].filter(([, text]) => text.includes('identitytoolkit.googleapis.com')).map(([path]) => path);
    for (const path of ['/', '/docs/', '/docs/Norigin-Spatial-Navigation/']) {
      await page.goto(path);
      await hydrated(page);
    }
    // Let link prefetching settle: those chunks would be loaded on the next click.
    await page.waitForTimeout(1000);
    expect(scripts.size).toBeGreaterThan(3);
    expect(firebaseScripts()).toEqual([]);
    await page.goto('/login');
    await hydrated(page);
    // Not even there until the reader starts signing in: typing fetches it.
    await page.waitForTimeout(1000);
    expect(firebaseScripts()).toEqual([]);
    await page.getByLabel('E-mail').pressSequentially('reader@');
    await expect.poll(firebaseScripts).not.toEqual([]);
  });

  test('finds only public pages in the sitemap', async ({ request }) => {
    const xml = await (await request.get('/sitemap.xml')).text();
    const paths = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1] ?? '').pathname).sort();
    expect(paths).toEqual([...publicPages].sort());
  });
});
