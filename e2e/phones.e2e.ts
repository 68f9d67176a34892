import { readFileSync } from 'node:fs';

import type { Page } from '@playwright/test';

import { accountMenu, expect, hydrated, pagesToOpen, test } from './fixtures';
import { adminReader, demoReader, partnerReader, signedInContext } from './readers';
import { OLDER_SYMBOL_PAGE } from './synced';

/**
 * Issue 34: on a phone (390 × 844) no page is wider than the screen, in any state, for any
 * reader: wide tables and code scroll in their own box. Each reader walks every page the
 * build holds that they may read (from the gate's manifest), then the states that only
 * appear after something is done: a token on /account, the search dialog with results, the
 * menu, a refused page, a failed sign-in.
 */
const PHONE = { width: 390, height: 844 };

interface Entry {
  url: string;
  kind: 'page' | 'file';
  access: 'public' | 'private';
  units: string[];
}

const manifest = JSON.parse(readFileSync(new URL('../site/build/portal-manifest.json', import.meta.url), 'utf8')) as {
  entries: Record<string, Entry>;
};

/**
 * The public API reference pages a signed-in walk leaves to the signed-out one: every symbol
 * page and every older release's reference. They read the same signed in (the chrome differs
 * only in the navbar's menu, which the newest reference's index and API changes pages show),
 * and walking them again as each reader took each walk past its time in CI.
 */
const REFERENCE_PAGE = /\/api\/(?!api-changes\/?$)[^/]+\/?$|\/\d+\.\d+\.\d+\/api\//;

/** The pages a reader holding `units` may open: public ones, and private ones of one of their units. */
function pagesFor(units: readonly string[]): string[] {
  const signedIn = units.length > 0;
  return Object.values(manifest.entries)
    .filter((entry) => entry.kind === 'page' && !OLDER_SYMBOL_PAGE.test(entry.url))
    .filter((entry) => !(signedIn && entry.access === 'public' && REFERENCE_PAGE.test(entry.url)))
    .filter((entry) => entry.access === 'public' || entry.units.some((unit) => units.includes(unit)))
    .map((entry) => entry.url)
    .sort();
}

/** How far the page reaches past the screen's right edge, and the widest elements that do it. */
async function overflowOf(page: Page): Promise<{ overflow: number; culprits: string[] }> {
  return page.evaluate(() => {
    const overflow = document.documentElement.scrollWidth - window.innerWidth;
    if (overflow <= 0) return { overflow, culprits: [] };
    const culprits = Array.from(document.querySelectorAll('body *'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((element) => !element.closest('.navbar-sidebar'))
      .slice(0, 5)
      .map((element) => `${element.tagName.toLowerCase()}.${String(element.className).slice(0, 40)}`);
    return { overflow, culprits };
  });
}

async function expectFits(page: Page, what: string): Promise<void> {
  const { overflow, culprits } = await overflowOf(page);
  expect(overflow, `${what} is ${overflow} px wider than the phone: ${culprits.join(', ')}`).toBeLessThanOrEqual(0);
}

/**
 * Opens each page of `paths` and checks that it fits: all with `npm run test:e2e:full`; in
 * `npm test` one in eighteen, each reader (`turn`) from another, since their lists overlap
 * (staff and administrators read nearly the same pages) and the layout hardly depends on who
 * reads (the navbar's menu, which each walk meets).
 */
async function walk(page: Page, paths: string[], turn: number): Promise<void> {
  expect(paths.length).toBeGreaterThan(0);
  for (const path of pagesToOpen(paths, { every: 18, offset: turn * 4 })) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(200);
    await hydrated(page);
    await expectFits(page, path);
  }
}

test.describe('on a phone', () => {
  // Each walk loads every page a reader may read, one after another (about 155 for staff).
  test.describe.configure({ timeout: 8 * 60_000 });
  test.use({ viewport: PHONE });

  test.describe('signed out', () => {
    // The identity service answers the refused sign-in with 400, which Chromium logs.
    test.use({ allowedConsoleErrors: /status of 400/ });
    test('an anonymous reader sees every public page, the sign-in page and its error fit the screen', async ({
      page,
    }) => {
      await walk(page, pagesFor([]), 0);
      await page.goto('/login');
      await hydrated(page);
      await page.getByLabel('E-mail').fill('nobody-with-a-very-long-address@streaming-startup.example');
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page.getByRole('alert').first()).toBeVisible();
      await expectFits(page, '/login with an error');
    });
  });

  for (const [turn, [role, reader]] of (
    [
      ['staff', demoReader],
      ['partner', partnerReader],
      ['admin', adminReader],
    ] as const
  ).entries()) {
    test(`a ${role} reader sees every page they may read fit the screen`, async ({ browser, baseURL }) => {
      const { context, page } = await signedInContext(browser, String(baseURL), reader);
      await page.setViewportSize(PHONE);
      const { units } = (await (await page.request.get('/api/session')).json()) as { units: string[] };
      await walk(page, pagesFor(units), turn + 1);
      await context.close();
    });
  }

  test('the states a reader reaches by doing something fit the screen too', async ({ browser, baseURL }) => {
    const { context, page } = await signedInContext(browser, String(baseURL), partnerReader);
    await page.setViewportSize(PHONE);
    // A token with a long name: the tokens table scrolls in its own box.
    const made = await page.request.post('/api/tokens', {
      data: { name: 'phone-check-a-long-token-name-for-the-build-machine', days: 30 },
      headers: { origin: String(baseURL) },
    });
    expect(made.status()).toBe(201);
    await page.goto('/account');
    await hydrated(page);
    // The tokens table (the connected apps' may follow it, with the apps of earlier tests).
    await expect(page.getByRole('table').first()).toBeVisible();
    await expectFits(page, '/account with a token');

    // The menu, open.
    await page.getByRole('button', { name: /Toggle navigation bar/ }).click();
    await expect(page.locator('.navbar-sidebar')).toBeVisible();
    await expectFits(page, 'the open phone menu');
    await page.keyboard.press('Escape');

    // The search dialog with results.
    await page.goto('/docs/');
    await hydrated(page);
    await page
      .getByRole('button', { name: /^Search/ })
      .first()
      .click();
    await page.keyboard.type('focus');
    await expect(page.getByRole('dialog').getByRole('link').first()).toBeVisible();
    await expectFits(page, 'the search dialog with results');
    await page.keyboard.press('Escape');

    // A page outside the reader's units: the site's refusal page, with its form to ask.
    const refused = await page.goto('/docs/frontend-guidelines/');
    expect(refused?.status()).toBe(403);
    await expectFits(page, 'the refusal page');
    await context.close();
  });

  test('every administration page reads on a phone: its tables loaded, a row menu open', async ({
    browser,
    baseURL,
  }) => {
    const { context, page } = await signedInContext(browser, String(baseURL), adminReader);
    await page.setViewportSize(PHONE);
    // A token, so that the tokens table has a row.
    const made = await page.request.post('/api/tokens', {
      data: { name: 'phone-check-an-administrator-s-long-token-name', days: 30 },
      headers: { origin: String(baseURL) },
    });
    expect(made.status()).toBe(201);
    for (const [path, loaded] of [
      ['/admin', 'Readers'],
      ['/admin/audit', 'Audit trail'],
      ['/admin/tokens', 'Personal access tokens'],
      ['/admin/sources', 'Package sources'],
    ] as const) {
      await page.goto(path);
      await hydrated(page);
      await expect(page.getByRole('region', { name: loaded }).getByRole('table').first()).toBeVisible();
      await expectFits(page, `${path} with its table`);
    }
    await page.goto('/admin');
    await hydrated(page);
    await page
      .getByRole('button', { name: /^Actions for / })
      .first()
      .click();
    await expect(page.getByRole('menu')).toBeVisible();
    await expectFits(page, '/admin with a row menu open');
    await context.close();
  });

  test('the avatar menu is not there: e-mail, Account and Logout are items of the phone menu', async ({
    browser,
    baseURL,
  }) => {
    const { context, page } = await signedInContext(browser, String(baseURL), partnerReader);
    await page.setViewportSize(PHONE);
    // The home page's menu opens on the navbar's items (a docs page's opens on its sidebar).
    await page.goto('/');
    await hydrated(page);
    await expect(accountMenu(page)).toBeHidden();
    await page.getByRole('button', { name: /Toggle navigation bar/ }).click();
    const menu = page.locator('.navbar-sidebar');
    await expect(menu.getByText(partnerReader.email)).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Account', exact: true })).toBeVisible();
    await expect(menu.getByRole('button', { name: /^Logout/ })).toBeVisible();
    await context.close();
  });
});
