import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { Page } from '@playwright/test';

import { expect, hydrated, signInWithEmail, test } from './fixtures';
import { serveOfflineStandIns } from './offline';
import {
  adminReader,
  demoReader,
  emulatorReaders,
  noAccessReader,
  partnerReader,
  signedInContext as signedInPage,
} from './readers';

const sidebar = (page: Page) => page.getByRole('navigation', { name: 'Docs sidebar' });

test.describe('a partner', () => {
  // The no-access page is a 403 document, which Chromium logs.
  test.use({ allowedConsoleErrors: /status of 403/ });

  test('reads the player docs, and gets the no-access page on the guidelines, never the login page', async ({
    browser,
    baseURL,
  }) => {
    const { context, page } = await signedInPage(browser, String(baseURL), partnerReader);
    const player = await page.goto('/docs/player-manager-mono/');
    expect(player?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Player packages');

    const guidelines = await page.goto('/docs/frontend-guidelines/GitFlow');
    expect(guidelines?.status()).toBe(403);
    await expect(page).toHaveURL(/\/docs\/frontend-guidelines\/GitFlow$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You do not have access to this page');
    await expect(page.locator('main').getByText(partnerReader.email)).toBeVisible();
    // The site's own page: its navbar, the unit named, why, and whom to write to (internal
    // pages cannot be asked for in the portal).
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(
      page.getByText(/part of Internal: guidelines, training and client work, which is internal/),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'developer-access@norigin.example' })).toHaveAttribute(
      'href',
      'mailto:developer-access@norigin.example',
    );
    await page.getByRole('link', { name: 'Go to the home page' }).click();
    await expect(page).toHaveURL(/\/$/);
    await context.close();
  });

  test('following a link in a page to a guideline gets the no-access page, not a broken app', async ({
    browser,
    baseURL,
  }) => {
    const { context, page } = await signedInPage(browser, String(baseURL), partnerReader);
    await page.goto('/docs/layout-engine/');
    await hydrated(page);
    await page.locator('article').getByRole('link', { name: 'Sentry guideline' }).click();
    await expect(page).toHaveURL(/\/docs\/frontend-guidelines\/Sentry$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You do not have access to this page');
    await context.close();
  });

  test('sees only what they may open in the sidebar, the category cards and the pager; staff see it all', async ({
    browser,
    baseURL,
  }) => {
    const partner = await signedInPage(browser, String(baseURL), partnerReader);
    const staff = await signedInPage(browser, String(baseURL), demoReader);
    const internal = ['Support Documentation', 'Custom test build'];
    for (const { page } of [partner, staff]) {
      await page.goto('/docs/category/player-framework');
      await hydrated(page);
      await expect(sidebar(page).getByRole('link', { name: 'Player Framework', exact: true })).toBeVisible();
    }
    for (const name of internal) {
      await expect(sidebar(partner.page).getByRole('link', { name, exact: true })).toBeHidden();
      await expect(sidebar(staff.page).getByRole('link', { name, exact: true })).toBeVisible();
    }
    // The category page's cards: the internal test copy is not offered to the partner.
    const card = (page: Page, name: string) => page.locator('article.col').filter({ hasText: name });
    await expect(card(partner.page, 'Custom test build')).toBeHidden();
    await expect(card(partner.page, 'Player packages').first()).toBeVisible();
    // Staff see what the test copy holds, not "6 items".
    await expect(card(staff.page, 'Custom test build')).toContainText('6 packages: Player core, Player manager');
    // The last page of the player packages (the web playground: their repository pages are
    // out of previous/next) is followed by the internal test copy.
    for (const { page } of [partner, staff]) await page.goto('/docs/player-manager-mono/apps/playground-web/');
    const next = (page: Page) => page.locator('.pagination-nav__link--next');
    await expect(next(staff.page)).toBeVisible();
    await expect(next(partner.page)).toBeHidden();
    await expect(partner.page.locator('.pagination-nav__link--prev')).toBeVisible();
    await partner.context.close();
    await staff.context.close();
  });

  test('searches the pages they may read, and no other', async ({ browser, baseURL }) => {
    const query = async (page: Page, words: string): Promise<string[]> => {
      await page.keyboard.press('Control+k');
      const box = page.getByRole('searchbox', { name: 'Search' });
      await box.fill(words);
      const list = page.getByRole('list', { name: 'Search results' });
      await expect(list).toHaveAttribute('data-answered', words);
      const hrefs = await list
        .locator(':scope > li > a')
        .evaluateAll((anchors) => anchors.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
      await box.press('Escape');
      return hrefs;
    };
    const partner = await signedInPage(browser, String(baseURL), partnerReader);
    const staff = await signedInPage(browser, String(baseURL), demoReader);
    for (const { page } of [partner, staff]) {
      await page.goto('/docs/');
      await hydrated(page);
    }
    // "cherry-pick" is in the guidelines (GitFlow, release flow) only: staff find it, partners do not.
    const staffHits = await query(staff.page, 'cherry-pick');
    expect(staffHits.some((href) => href.startsWith('/docs/frontend-guidelines/'))).toBe(true);
    const partnerHits = await query(partner.page, 'cherry-pick');
    for (const href of partnerHits) expect(href).not.toMatch(/^\/docs\/(frontend-guidelines|tv-app-training)\//);
    // Partner pages and public pages are both found by a partner.
    expect(await query(partner.page, 'dash.js')).toContain(
      '/docs/player-manager-mono/packages/player-adapter-dash.js/',
    );
    expect(await query(partner.page, 'useFocusable')).toContainEqual(
      // The guide to the package (its 3.x README leaves the API to the portal's guide).
      expect.stringMatching(/^\/docs\/(Norigin-Spatial-Navigation|Spat-Nav)\//),
    );
    await partner.context.close();
    await staff.context.close();
  });
});

test.describe('a signed-out visitor', () => {
  test('sees the private sections marked with a lock, named for sign-in', async ({ page }) => {
    await page.goto('/docs/');
    await hydrated(page);
    await expect(page.locator('html')).toHaveClass(/portal-signed-out/);
    const support = sidebar(page).getByRole('link', { name: /^Support Documentation/ });
    await expect(support).toBeVisible();
    const lock = await support.evaluate((link) => getComputedStyle(link, '::after').getPropertyValue('mask-image'));
    expect(lock).toContain('data:image/svg+xml');
    // The open section carries no lock.
    const open = sidebar(page).getByRole('link', { name: 'Navigation and Layout', exact: true });
    expect(await open.evaluate((link) => getComputedStyle(link, '::after').getPropertyValue('mask-image'))).toBe(
      'none',
    );
  });
});

test.describe('an account with no group', () => {
  // The identity service answers a wrong password with 400; the refused session is a 403.
  test.use({ allowedConsoleErrors: /status of (400|403)/ });

  test('is told on the login page who is signed in, whom to ask, and can try another account', async ({ page }) => {
    await page.goto('/login?next=%2Fdocs%2Fwhitelabel%2F');
    await signInWithEmail(page, noAccessReader.email, noAccessReader.password);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText(`You are signed in with ${noAccessReader.email}`);
    await expect(alert).toContainText('this account has no access');
    await expect(page.getByRole('link', { name: 'developer-access@norigin.example' })).toHaveAttribute(
      'href',
      /^mailto:developer-access@norigin\.example\?subject=/,
    );
    expect((await page.request.get('/api/session')).status()).toBe(401);
    const another = page.getByRole('button', { name: 'Try another account' });
    await expect(another).toBeFocused();
    await another.click();
    await expect(page.getByLabel('E-mail')).toBeFocused();
    await signInWithEmail(page, partnerReader.email, partnerReader.password);
    await expect(page).toHaveURL(/\/docs\/whitelabel\/$/);
  });

  test('made by anyone with the public sign-up call is refused, at another domain or unverified at ours', async ({
    page,
  }) => {
    const stamp = Date.now();
    for (const email of [`someone-${stamp}@gmail.example`, `impostor-${stamp}@norigin.example`]) {
      const response = await fetch(
        `http://${emulatorReaders.host}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo-api-key`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'self-made-123', returnSecureToken: true }),
        },
      );
      expect(response.status).toBe(200);
      await page.goto('/login');
      await signInWithEmail(page, email, 'self-made-123');
      await expect(page.getByRole('alert')).toContainText(`You are signed in with ${email}`);
      await expect(page.getByRole('alert')).toContainText('no access');
      expect((await page.request.get('/api/session')).status()).toBe(401);
    }
  });

  test('signing in with an unknown GitHub account is refused the same way', async ({ page, context }) => {
    await serveOfflineStandIns(context);
    await page.goto('/login');
    await hydrated(page);
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    const popup = await popupOpened;
    await popup.getByText('Add new account').click();
    const email = `octo-stranger-${Date.now()}@octo.example`;
    await popup.locator('#email-input').fill(email);
    await popup.locator('#sign-in').click();
    await expect(page.getByRole('alert')).toContainText(`You are signed in with ${email}`);
    await expect(page.getByRole('alert')).toContainText('no access');
    expect((await page.request.get('/api/session')).status()).toBe(401);
  });
});

test.describe('changing groups', () => {
  test('a group removed with the readers command closes its sections, without a restart', async ({
    browser,
    baseURL,
  }) => {
    const reader = await emulatorReaders.create({ groups: ['partner'], email: `groups-${Date.now()}@studio.example` });
    const { context, page } = await signedInPage(browser, String(baseURL), reader);
    expect((await page.goto('/docs/whitelabel/'))?.status()).toBe(200);
    const readers = (...args: string[]) =>
      spawnSync(process.execPath, [fileURLToPath(new URL('../scripts/readers.mjs', import.meta.url)), ...args], {
        encoding: 'utf8',
        env: { ...process.env, AUTH_EMULATOR_PORT: process.env.E2E_EMULATOR_PORT, DATA_DIR: process.env.E2E_DATA_DIR },
      });
    const granted = readers('grant', reader.email, 'staff');
    expect(granted.status, granted.stderr).toBe(0);
    // The gate trusts a verified cookie for SESSION_CACHE_TTL_SECONDS (2 s in this run; 60 s at most).
    await expect(async () => {
      expect((await page.goto('/docs/frontend-guidelines/'))?.status()).toBe(200);
    }).toPass({ timeout: 10_000 });
    const revoked = readers('revoke', reader.email, 'staff');
    expect(revoked.status, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain('staff, partner → partner');
    await expect(async () => {
      expect((await page.goto('/docs/frontend-guidelines/'))?.status()).toBe(403);
    }).toPass({ timeout: 10_000 });
    // The partner pages stay open.
    expect((await page.goto('/docs/whitelabel/'))?.status()).toBe(200);
    await context.close();
  });
});

test.describe('a licensed partner', () => {
  test('is told on the home page how many of a family’s packages their licence reads; staff see the count', async ({
    browser,
    baseURL,
  }) => {
    const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const id = `home-${suffix}`;
    const admin = await signedInPage(browser, String(baseURL), adminReader);
    const headers = { origin: String(baseURL) };
    const made = await admin.page.request.post('/api/admin/organisations', {
      data: { id, name: `Home Count ${suffix}`, domains: [`${id}.example`] },
      headers,
    });
    expect(made.status()).toBe(201);
    const licensed = await admin.page.request.post(`/api/admin/organisations/${id}/licences`, {
      data: { units: ['player', 'player-core', 'player-adapter-shaka'] },
      headers,
    });
    expect(licensed.status()).toBe(201);
    await admin.context.close();
    const reader = await emulatorReaders.create({ groups: [], email: `dev@${id}.example` });
    const { context, page } = await signedInPage(browser, String(baseURL), reader);
    await page.goto('/');
    await hydrated(page);
    const card = (name: string) => page.getByRole('link', { name: new RegExp(`^${name}`) });
    await expect(card('Player Framework')).toContainText('You read 2 of 23 packages');
    await context.close();
    const staff = await signedInPage(browser, String(baseURL), demoReader);
    await staff.page.goto('/');
    await hydrated(staff.page);
    await expect(staff.page.getByRole('link', { name: /^Player Framework/ })).toContainText('23 packages');
    await expect(staff.page.getByRole('link', { name: /^Player Framework/ })).not.toContainText('You read');
    await staff.context.close();
  });
});
