import { emulatorRequest } from '../tools/lib/emulator.mjs';
import { axe, expect, hydrated, test } from './fixtures';
import { serveOfflineStandIns } from './offline';
import { adminReader, emulatorReaders, signedInContext } from './readers';

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const organisation = { id: `sso-${suffix}`, name: `Skyline TV ${suffix}`, domain: `sso-${suffix}.example` };
const provider = { id: `oidc.skyline-${suffix}`, name: 'Skyline Okta' };
const PRIVATE_PAGE = '/docs/layout-engine/';

/**
 * An organisation that signs its readers in with its own OIDC provider and requires it, as an
 * administrator sets it up, and one of its developers: an account at its domain that the
 * Auth Emulator's provider window offers, and that also has a password from before.
 */
test.describe('signing in through the organisation’s own provider', () => {
  // The gate refuses the password sign-in (403); closing a popup is logged by the SDK.
  test.use({ allowedConsoleErrors: /status of 403|popup-closed-by-user/ });
  let reader: { uid: string; email: string; password: string };

  test.beforeAll(async ({ browser, baseURL }) => {
    const { context, page } = await signedInContext(browser, String(baseURL), adminReader);
    const call = async (method: 'post' | 'put', url: string, data: unknown, status: number) => {
      const response = await page.request[method](url, { data, headers: { origin: String(baseURL) } });
      expect(response.status(), await response.text()).toBe(status);
    };
    await call(
      'post',
      '/api/admin/organisations',
      { id: organisation.id, name: organisation.name, domains: [organisation.domain] },
      201,
    );
    await call('post', `/api/admin/organisations/${organisation.id}/licences`, { units: ['layout'] }, 201);
    await call(
      'put',
      `/api/admin/organisations/${organisation.id}/sign-in`,
      { provider: provider.id, name: provider.name, required: true },
      204,
    );
    await context.close();
    reader = await emulatorReaders.create({ groups: [], email: `dev@${organisation.domain}` });
    // What the first sign-in through the provider makes: the account linked to it.
    const { host, projectId } = emulatorReaders;
    await emulatorRequest(host, projectId, '/accounts:batchCreate', {
      users: [
        {
          localId: reader.uid,
          email: reader.email,
          emailVerified: true,
          displayName: 'Skyline Developer',
          providerUserInfo: [{ providerId: provider.id, rawId: `sub-${suffix}`, email: reader.email }],
        },
      ],
      allowOverwrite: true,
    });
    await emulatorRequest(host, projectId, '/accounts:update', { localId: reader.uid, password: reader.password });
  });

  test('the reader enters their e-mail, signs in through the provider’s window and reads the licensed package', async ({
    page,
    context,
  }) => {
    await serveOfflineStandIns(context);
    await page.goto(`/login?next=${encodeURIComponent(PRIVATE_PAGE)}`);
    await hydrated(page);
    await page.getByLabel('E-mail').fill(reader.email);
    const button = page.getByRole('button', { name: `Continue with ${provider.name}` });
    await expect(button).toBeVisible();
    // Required: no password, no other way, and a line that says why.
    await expect(page.getByLabel('Password')).toBeHidden();
    await expect(page.getByRole('button', { name: 'Sign in with GitHub' })).toHaveCount(0);
    await expect(button).toHaveAccessibleDescription(
      `Readers at ${organisation.domain} sign in with ${provider.name}; no portal password is needed.`,
    );
    const serious = (await axe(page)).violations.filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical',
    );
    expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
    const popupOpened = page.waitForEvent('popup');
    await button.click();
    const popup = await popupOpened;
    await expect(popup).toHaveURL(
      new RegExp(`/emulator/auth/handler\\?.*providerId=${provider.id.replace('.', '\\.')}`),
    );
    expect(await popup.evaluate(() => [window.outerWidth, window.outerHeight])).toEqual([500, 600]);
    await popup.getByText(reader.email).click();
    await expect(page).toHaveURL(new RegExp(`${PRIVATE_PAGE}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Layout Engine');
    await expect(
      page.getByRole('navigation').getByRole('button', { name: `Account menu (${reader.email})` }),
    ).toBeVisible();
  });

  test('where the browser blocks the popup, the page goes to the provider and finishes the sign-in when it comes back', async ({
    page,
    context,
  }) => {
    await serveOfflineStandIns(context);
    // A browser that blocks pop-ups: window.open gives nothing back.
    await context.addInitScript(() => {
      window.open = () => null;
    });
    await page.goto(`/login?next=${encodeURIComponent(PRIVATE_PAGE)}`);
    await hydrated(page);
    await page.getByLabel('E-mail').fill(reader.email);
    await page.getByRole('button', { name: `Continue with ${provider.name}` }).click();
    await expect(page).toHaveURL(/\/emulator\/auth\/handler\?/);
    await page.getByText(reader.email).click();
    await expect(page).toHaveURL(new RegExp(`${PRIVATE_PAGE}$`), { timeout: 20_000 });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Layout Engine');
  });

  test('the same reader’s password is refused with a message saying how to sign in', async ({ page, baseURL }) => {
    // The form sent before the page learnt the domain's way (a password manager's quick fill):
    // the page asks first and sends no password.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/sign-in-options?*', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/login');
    await hydrated(page);
    await page.getByLabel('E-mail').fill(reader.email);
    await page.getByLabel('Password').fill(reader.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    release();
    await expect(page.getByRole('alert')).toHaveText(
      `Readers at ${organisation.domain} sign in with ${provider.name}, not a password: choose “Continue with ${provider.name}”.`,
    );
    await expect(page.getByRole('button', { name: `Continue with ${provider.name}` })).toBeVisible();
    expect((await page.request.get('/api/session')).status()).toBe(401);

    // And the gate itself refuses a password sign-in of the account, naming the organisation's way.
    const idToken = await emulatorReaders.signIn(reader.email, reader.password);
    const refused = await page.request.post('/api/session', {
      data: { idToken },
      headers: { origin: String(baseURL) },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({
      code: 'sso-required',
      error: `${organisation.name} signs its readers in with ${provider.name}, not a password: enter your e-mail on the sign-in page and choose “Continue with ${provider.name}”.`,
    });
  });

  test('an administrator sees the sign-in, mints a SCIM token shown once, and finds the directory’s calls with their outcome', async ({
    browser,
    baseURL,
  }) => {
    const { context, page } = await signedInContext(browser, String(baseURL), adminReader);
    await page.goto('/admin/organisations');
    await hydrated(page);
    const row = page
      .getByRole('table', { name: 'Organisations' })
      .getByRole('row', { name: new RegExp(organisation.name) });
    await expect(row).toContainText('SSO required');
    await row.getByRole('button', { name: organisation.name }).click();
    const section = page.getByRole('region', { name: 'Sign-in and provisioning' });
    await expect(section.getByLabel('Provider id')).toHaveValue(provider.id);
    await expect(section.getByLabel('Name on the sign-in page')).toHaveValue(provider.name);
    await expect(section.getByLabel('Readers must use it')).toBeChecked();

    // A provider id that is no OIDC or SAML provider is explained and not saved.
    await section.getByLabel('Provider id').fill('google.com');
    await section.getByRole('button', { name: 'Save sign-in' }).click();
    await expect(section.getByText(/oidc\.|saml\./).first()).toBeVisible();
    await section.getByLabel('Provider id').fill(provider.id);

    await section.getByLabel(/Name of the new token/).fill('Skyline directory');
    await section.getByRole('button', { name: 'New SCIM token' }).click();
    const reveal = section.getByRole('region', { name: 'The new SCIM token “Skyline directory”' });
    await expect(reveal).toContainText('it is shown this once');
    const secret = ((await reveal.getByLabel('new SCIM token', { exact: true }).textContent()) ?? '').trim();
    expect(secret).toMatch(/^ndp_scim_/);
    const endpoint = ((await section.getByLabel('SCIM endpoint', { exact: true }).textContent()) ?? '').trim();
    expect(endpoint).toMatch(/\/scim\/v2\/?$/);

    // The directory's calls: one that works, one refused (another domain's reader).
    const scim = (data: unknown) =>
      page.request.post(`${endpoint.replace(/\/$/, '')}/Users`, {
        data,
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/scim+json' },
      });
    const user = 'urn:ietf:params:scim:schemas:core:2.0:User';
    expect((await scim({ schemas: [user], userName: `ada@${organisation.domain}` })).status()).toBe(201);
    expect((await scim({ schemas: [user], userName: 'eve@elsewhere.example' })).status()).toBe(400);
    await reveal.getByRole('button', { name: 'I have copied it' }).click();
    await expect(reveal).toBeHidden();
    await page.reload();
    await hydrated(page);
    await page.getByRole('table', { name: 'Organisations' }).getByRole('button', { name: organisation.name }).click();
    const calls = page.getByRole('table', { name: /Last provisioning calls/ });
    await expect(calls.getByRole('row', { name: /201/ })).toHaveCount(1);
    await expect(calls.getByRole('row', { name: /400/ })).toContainText('is not at a domain of');
    // The secret is never shown again: the tokens list has its last four characters only.
    await expect(page.getByRole('table', { name: /SCIM tokens/ })).toContainText(secret.slice(-4));
    await expect(page.getByText(secret)).toHaveCount(0);

    const serious = (await axe(page)).violations.filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical',
    );
    expect(serious, JSON.stringify(serious, null, 2)).toEqual([]);
    // On a phone, in the dark: nothing wider than the screen, and the same for axe.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await expect(page.getByRole('table', { name: /Last provisioning calls/ })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const onPhone = (await axe(page)).violations.filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical',
    );
    expect(onPhone, JSON.stringify(onPhone, null, 2)).toEqual([]);

    // The audit trail names the directory as the actor of what it did.
    await page.goto('/admin/audit');
    await hydrated(page);
    await page.getByLabel('Reader (e-mail or id)').fill(`ada@${organisation.domain}`);
    const made = page.getByRole('row').filter({ hasText: 'Reader provisioned by SCIM' });
    await expect(made).toContainText(`SCIM client of ${organisation.id}`);
    await context.close();
  });
});
