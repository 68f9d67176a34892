import { accountMenu, expect, hydrated, logOut, signInWithEmail, test } from './fixtures';
import { serveOfflineStandIns } from './offline';
import { demoReader, disabledReader, emulatorReaders, githubReader } from './readers';

const PRIVATE_PAGE = '/docs/layout-engine/';

test.describe('signing in with e-mail and password', () => {
  // The identity service answers a refused sign-in with 400, which Chromium logs.
  test.use({ allowedConsoleErrors: /status of 400/ });

  test('an anonymous reader is sent to sign in and comes back to the wanted page', async ({ page }) => {
    await page.goto(`${PRIVATE_PAGE}?tab=tizen#install`);
    // The browser keeps the #fragment through the redirect; it never reaches the server, so `next` cannot carry it.
    await expect(page).toHaveURL(/\/login\?next=%2Fdocs%2Flayout-engine%2F%3Ftab%3Dtizen#install$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await signInWithEmail(page, demoReader.email, demoReader.password);
    await expect(page).toHaveURL(/\/docs\/layout-engine\/\?tab=tizen$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Layout Engine');
    await expect(accountMenu(page)).toBeVisible();
    // The avatar menu says who is signed in.
    await expect(
      page.getByRole('navigation').getByRole('button', { name: `Account menu (${demoReader.email})` }),
    ).toBeVisible();
  });

  test('a wrong password is explained on the page and nothing else changes', async ({ page }) => {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto('/login?next=%2Fdocs%2Flayout-engine%2F');
    await signInWithEmail(page, demoReader.email, 'not-the-password');
    await expect(page.getByRole('alert')).toHaveText('The e-mail or password is not correct.');
    await expect(page).toHaveURL(/\/login\?next=/);
    expect(warnings.join('\n')).toMatch(/auth\/(wrong-password|invalid-credential)/);
    expect((await page.request.get('/api/session')).status()).toBe(401);
  });

  test('an unknown e-mail gets the same message, so it does not reveal who has an account', async ({ page }) => {
    await page.goto('/login');
    await signInWithEmail(page, 'nobody@readers.example', 'whatever-123');
    await expect(page.getByRole('alert')).toHaveText('The e-mail or password is not correct.');
  });

  test('a disabled reader is told so', async ({ page }) => {
    await page.goto('/login');
    await signInWithEmail(page, disabledReader.email, disabledReader.password);
    await expect(page.getByRole('alert')).toContainText('disabled');
    // …and whom to ask to have it back.
    await expect(page.getByRole('alert')).toContainText('developer-access@norigin.example');
    expect((await page.request.get('/api/session')).status()).toBe(401);
  });

  test('empty fields are caught on the page', async ({ page }) => {
    await page.goto('/login');
    await hydrated(page);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    // Each message under its field (login.e2e.ts checks how they are tied), focus on the first.
    await expect(page.getByText('Enter your e-mail address.')).toBeVisible();
    await expect(page.getByText('Enter your password.')).toBeVisible();
    await expect(page.getByLabel('E-mail')).toBeFocused();
    await expect(page.getByLabel('E-mail')).toHaveAttribute('aria-invalid', 'true');
  });
});

test.describe('signing in with GitHub through the emulator', () => {
  test.use({ allowedConsoleErrors: /status of 400|popup-closed-by-user|cancelled-popup-request/ });

  test('the popup offers the GitHub reader, and choosing them signs in', async ({ page, context }) => {
    await serveOfflineStandIns(context);
    await page.goto('/login?next=%2Fdocs%2Fwhitelabel%2F');
    await hydrated(page);
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    const popup = await popupOpened;
    await expect(popup).toHaveURL(/\/emulator\/auth\/handler\?.*providerId=github\.com/);
    // The popup is the spec's 500 × 600 window.
    expect(await popup.evaluate(() => [window.outerWidth, window.outerHeight])).toEqual([500, 600]);
    await popup.getByText(githubReader.email).click();
    await expect(page).toHaveURL(/\/docs\/whitelabel\/$/);
    await expect(
      page.getByRole('navigation').getByRole('button', { name: `Account menu (${githubReader.email})` }),
    ).toBeVisible();
  });

  test('closing the popup is explained on the page', async ({ page, context }) => {
    await serveOfflineStandIns(context);
    await page.goto('/login');
    await hydrated(page);
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    await (await popupOpened).close();
    await expect(page.getByRole('alert')).toContainText(/closed|cancel/i, { timeout: 15_000 });
  });
});

test.describe('signing out and losing access', () => {
  // A page loaded while signed in keeps prefetching private chunks; once the session is
  // gone the gate refuses them (401), which Chromium logs.
  test.use({ allowedConsoleErrors: /status of 401/ });

  test('logout ends the session and goes home; private pages need sign-in again', async ({ page }) => {
    const reader = await emulatorReaders.create();
    await page.goto(`/login?next=${encodeURIComponent(PRIVATE_PAGE)}`);
    await signInWithEmail(page, reader.email, reader.password);
    await expect(page).toHaveURL(new RegExp(`${PRIVATE_PAGE}$`));
    await logOut(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Login' })).toBeVisible();
    await page.goto(PRIVATE_PAGE);
    await expect(page).toHaveURL(/\/login\?next=/);
  });

  test.describe('while the session ends', () => {
    // Once the session has ended, whatever the open page still fetches is refused (401):
    // link prefetches made when the browser is idle, and the chunks of a page whose HTML
    // was served just before the verification cache expired (a failed chunk to the runtime).
    test.use({
      allowedConsoleErrors: /status of 401|Loading chunk \d+ failed|Refused to execute script from .* MIME type/,
    });

    test('a reader disabled while reading is signed out', async ({ page }) => {
      const reader = await emulatorReaders.create();
      await page.goto(`/login?next=${encodeURIComponent(PRIVATE_PAGE)}`);
      await signInWithEmail(page, reader.email, reader.password);
      await expect(page).toHaveURL(new RegExp(`${PRIVATE_PAGE}$`));
      await emulatorReaders.disable(reader.uid);
      // The gate trusts a verified cookie for SESSION_CACHE_TTL_SECONDS (2 s in this run).
      await expect(async () => {
        await page.goto('/docs/whitelabel/');
        await expect(page).toHaveURL(/\/login\?next=%2Fdocs%2Fwhitelabel%2F$/, { timeout: 1000 });
      }).toPass({ timeout: 10_000 });
      const cookies = await page.context().cookies();
      expect(cookies.filter((cookie) => cookie.name === '__session')).toEqual([]);
    });
  });
});
