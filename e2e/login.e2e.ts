import type { Page } from '@playwright/test';

import { expect, hydrated, test } from './fixtures';
import { demoReader, emulatorReaders } from './readers';

const email = (page: Page) => page.getByLabel('E-mail');
const password = (page: Page) => page.getByLabel('Password');
const signInButton = (page: Page) => page.getByRole('button', { name: 'Sign in', exact: true });

/** The ids an element's aria-describedby names, resolved to their text. */
async function description(page: Page, label: string): Promise<string> {
  return page.getByLabel(label).evaluate((input) =>
    (input.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent?.trim() ?? `#${id} is missing`)
      .join(' | '),
  );
}

test.describe('the login page', () => {
  test('says where the reader is going and how to ask for access', async ({ page }) => {
    await page.goto('/login?next=%2Fdocs%2Flayout-engine%2F');
    await hydrated(page);
    await expect(page.getByRole('main')).toContainText('to continue to /docs/layout-engine/');
    await expect(page.getByRole('link', { name: /Ask .* for access/ })).toHaveAttribute(
      'href',
      /^mailto:developer-access@norigin\.example\?subject=Access%20to%20the%20Norigin%20developer%20docs%3A%20%2Fdocs%2Flayout-engine%2F/,
    );
    await page.goto('/login');
    await hydrated(page);
    await expect(page.getByRole('main')).toContainText('to read the Norigin developer docs');
  });

  test('starts in the e-mail field, and Tab goes on to the password, Sign in, then GitHub', async ({ page }) => {
    await page.goto('/login?next=%2Fdocs%2F');
    await hydrated(page);
    await expect(email(page)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(password(page)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(signInButton(page)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Sign in with GitHub' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Forgot your password?' })).toBeFocused();
  });

  test('ties each missing field’s message to the field and moves focus to it', async ({ page }) => {
    await page.goto('/login');
    await hydrated(page);
    await signInButton(page).click();
    await expect(email(page)).toBeFocused();
    await expect(email(page)).toHaveAttribute('aria-invalid', 'true');
    expect(await description(page, 'E-mail')).toBe('Enter your e-mail address.');
    expect(await description(page, 'Password')).toBe('Enter your password.');

    await email(page).fill('reader@norigin.example');
    await signInButton(page).click();
    await expect(password(page)).toBeFocused();
    await expect(email(page)).toHaveAttribute('aria-invalid', 'false');
    expect(await description(page, 'Password')).toBe('Enter your password.');

    await email(page).fill('not an address');
    await password(page).fill('something');
    await password(page).press('Enter');
    await expect(email(page)).toBeFocused();
    expect(await description(page, 'E-mail')).toBe('Enter a valid e-mail address.');
  });

  test('keeps what the reader typed before the page hydrated, and signs them in with it', async ({ page }) => {
    // A slow phone: the page's code arrives seconds after its HTML, and the reader types meanwhile.
    await page.route(/\/assets\/js\/main(\.[\w]+)?\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await route.continue();
    });
    await page.goto('/login?next=%2Fdocs%2F', { waitUntil: 'commit' });
    await email(page).fill(demoReader.email);
    await password(page).fill(demoReader.password);
    expect(await page.locator('html').getAttribute('data-has-hydrated')).not.toBe('true');
    await hydrated(page);
    await expect(email(page)).toHaveValue(demoReader.email);
    await expect(password(page)).toHaveValue(demoReader.password);
    await signInButton(page).click();
    await expect(page).toHaveURL(/\/docs\/$/);
  });

  test.describe('after a refused sign-in', () => {
    // The identity service answers a wrong password with 400, which Chromium logs.
    test.use({ allowedConsoleErrors: /status of 400/ });

    test('keeps focus in the form, on the password, described by the message', async ({ page }) => {
      await page.goto('/login');
      await hydrated(page);
      await email(page).fill(demoReader.email);
      await password(page).fill('not-the-password');
      await password(page).press('Enter');
      await expect(page.getByRole('alert')).toHaveText('The e-mail or password is not correct.');
      // Not lost to the page body while the buttons were busy: back where the reader retypes.
      await expect(password(page)).toBeFocused();
      expect(await description(page, 'Password')).toBe('The e-mail or password is not correct.');
      expect(await description(page, 'E-mail')).toBe('The e-mail or password is not correct.');
    });
  });

  test('sends a password-reset link, and against the emulator says where it is', async ({ page }) => {
    const reader = await emulatorReaders.create();
    await page.goto('/login');
    await hydrated(page);
    await email(page).fill(reader.email);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    // The reset form starts with the address already typed, in focus.
    await expect(email(page)).toBeFocused();
    await expect(email(page)).toHaveValue(reader.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    const sent = page.getByRole('status');
    await expect(sent).toContainText(`If ${reader.email} has an account, we have sent it a link`);
    const mailbox = sent.getByRole('link', { name: 'the emulator’s list of sent e-mails' });
    const href = await mailbox.getAttribute('href');
    expect(href).toMatch(/\/emulator\/v1\/projects\/demo-norigin-portal\/oobCodes$/);
    // The emulator really holds a reset code for that address.
    const codes = (await (await fetch(String(href))).json()) as {
      oobCodes: { email: string; requestType: string; oobLink: string }[];
    };
    expect(codes.oobCodes.filter((code) => code.email === reader.email).map((code) => code.requestType)).toContain(
      'PASSWORD_RESET',
    );
    await page.getByRole('button', { name: 'Back to sign in' }).click();
    await expect(email(page)).toBeFocused();
    await expect(email(page)).toHaveValue(reader.email);
  });

  test.describe('for an address without an account', () => {
    // The identity service answers EMAIL_NOT_FOUND with 400, which Chromium logs.
    test.use({ allowedConsoleErrors: /status of 400/ });

    test('answers a reset request the same way as for one with an account', async ({ page }) => {
      await page.goto('/login');
      await hydrated(page);
      await page.getByRole('button', { name: 'Forgot your password?' }).click();
      await email(page).fill('nobody-here@readers.example');
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await expect(page.getByRole('status')).toContainText('If nobody-here@readers.example has an account');
    });
  });

  test.describe('GitHub sign-in without the internet', () => {
    // The blocked helper script and the failed popup sign-in (spec §8: logged as an error).
    test.use({ allowedConsoleErrors: /net::ERR_FAILED|ERR_INTERNET_DISCONNECTED|GitHub sign-in failed/ });

    test('says it could not reach the internet, not that the service had a problem', async ({ page, context }) => {
      // Google's helper script is out of reach, as on a machine without internet access.
      await context.route('https://apis.google.com/**', (route) => route.abort('internetdisconnected'));
      await page.goto('/login');
      await hydrated(page);
      await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
      const alert = page.getByRole('alert');
      await expect(alert).toContainText('GitHub sign-in could not reach the internet', { timeout: 15_000 });
      await expect(alert).toContainText('sign in with your e-mail and password');
      await expect(alert).toBeFocused();
    });
  });
});
