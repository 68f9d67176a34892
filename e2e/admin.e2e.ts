import type { Page } from '@playwright/test';

import { axe, everyVariant, expect, hydrated, test } from './fixtures';
import { layoutShift } from './layout-shift';
import { inboxUrl, openMail } from './mail';
import { adminReader, emulatorReaders, signedInContext as signedIn } from './readers';

const unique = (prefix: string): string => `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@studio.example`;

async function openAdmin(page: Page): Promise<void> {
  await page.goto('/admin');
  await hydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Administration' })).toBeVisible();
}

/** The administration pages, one tab each. */
const ADMIN_PAGES = ['/admin', '/admin/audit', '/admin/tokens', '/admin/sources', '/admin/insights'];

/** Opens the row's menu of actions and chooses `item`. */
async function chooseAction(page: Page, email: string, item: string): Promise<void> {
  await page.getByRole('button', { name: `Actions for ${email}` }).click();
  await page
    .getByRole('menu', { name: `Actions for ${email}` })
    .getByRole('menuitem', { name: item })
    .click();
}

/** The readers table's row of `email`, found with the page's own search. */
async function readerRow(page: Page, email: string) {
  await page.getByLabel('Search by e-mail').fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  return row;
}

test.describe('the administration page', () => {
  // A disabled reader's page keeps prefetching for a moment; the refused requests are logged.
  test.use({ allowedConsoleErrors: /status of (400|401|403)/ });

  test('is for administrators only: others get the no-access page, anonymous readers the sign-in', async ({
    page,
    browser,
    baseURL,
  }) => {
    const anonymous = await page.goto('/admin');
    expect(anonymous?.request().redirectedFrom()?.url()).toMatch(/\/admin$/);
    await expect(page).toHaveURL(/\/login\?next=%2Fadmin$/);
    const staff = await emulatorReaders.create({ groups: ['staff'] });
    const { context, page: staffPage } = await signedIn(browser, String(baseURL), staff);
    for (const path of ADMIN_PAGES) {
      expect((await staffPage.goto(path))?.status(), path).toBe(403);
      await expect(staffPage.getByRole('heading', { level: 1 })).toHaveText('You do not have access to this page');
    }
    await context.close();
  });

  test('an administrator invites a reader of an organisation, who opens the mail in MailDev, chooses a password on the portal and lands signed in on what they read', async ({
    browser,
    baseURL,
  }) => {
    const origin = String(baseURL);
    const suffix = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
    const organisation = {
      id: `invited-${suffix}`,
      name: `Invited Studio ${suffix}`,
      domain: `invited-${suffix}.example`,
    };
    const { context, page } = await signedIn(browser, origin, adminReader);
    const post = (url: string, data: unknown) => page.request.post(`${origin}${url}`, { data, headers: { origin } });
    expect(
      (
        await post('/api/admin/organisations', {
          id: organisation.id,
          name: organisation.name,
          domains: [organisation.domain],
        })
      ).status(),
    ).toBe(201);
    expect(
      (
        await post(`/api/admin/organisations/${organisation.id}/licences`, { units: ['layout'], endsOn: '2027-01-31' })
      ).status(),
    ).toBe(201);
    await openAdmin(page);
    const email = `new-dev-${suffix}@${organisation.domain}`;
    await page.getByLabel('E-mail address').fill(email);
    const groups = page.getByRole('group', { name: 'Groups' });
    await expect(groups.getByRole('checkbox', { name: /^partner/ })).toBeChecked();
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(page.getByLabel('Password-setup link')).toHaveValue(
      /\/login\/action\?mode=resetPassword&oobCode=.*&invite=1$/,
    );
    // The mail catcher the result links to is MailDev's inbox, and it opens.
    const catcher = page.getByRole('link', { name: 'mail catcher' });
    expect(new URL(String(await catcher.getAttribute('href'))).origin).toBe(inboxUrl);

    // The reader, in a browser of their own: the mail in the inbox, and its link.
    const reader = await browser.newContext();
    const readerPage = await reader.newPage();
    const mail = await openMail(readerPage, email, 'Your invitation to the Norigin Developer Docs');
    const link = String(await mail.getByRole('link', { name: 'Choose your password' }).getAttribute('href'));
    expect(new URL(link).origin).toBe(new URL(origin).origin);
    await readerPage.goto(link);
    await expect(readerPage.getByRole('heading', { level: 1 })).toHaveText('Choose your password');
    await expect(readerPage.getByText(email)).toBeVisible();
    await expect(readerPage.getByText(/reset/i)).toHaveCount(0);
    // Too short: Firebase's reason, and the link still works.
    await readerPage.getByLabel('Password', { exact: true }).fill('short');
    await readerPage.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(readerPage.getByRole('alert')).toHaveText('Choose a longer password: at least 6 characters.');
    await readerPage.getByLabel('Password', { exact: true }).fill('first-light-42');
    await readerPage.getByRole('button', { name: 'Set password and sign in' }).click();
    await expect(readerPage).toHaveURL(/\/account\?welcome=1$/);
    await expect(
      readerPage.getByRole('status').filter({ hasText: 'Welcome to the Norigin Developer Docs' }),
    ).toBeVisible();
    const reads = readerPage.getByRole('region', { name: 'What you can read' });
    await expect(reads).toContainText(`You read as a member of ${organisation.name}.`);
    const fromLicence = readerPage.getByRole('heading', {
      name: `From ${organisation.name}’s licence, until 31 January 2027`,
    });
    await expect(reads.locator('div').filter({ has: fromLicence }).getByRole('listitem')).toHaveText(['Layout Engine']);
    expect(await (await readerPage.request.get('/api/session')).json()).toMatchObject({ email, groups: ['partner'] });
    expect((await readerPage.goto('/docs/frontend-guidelines/'))?.status()).toBe(403);

    // The link is spent: it says so, and where to ask for a new one.
    await readerPage.goto(link);
    await expect(readerPage.getByRole('alert')).toContainText('This link has already been used');
    await expect(readerPage.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '/login?reset=1',
    );
    await reader.close();

    // The administrator sees what the new reader reads and where it comes from.
    await openAdmin(page);
    const row = await readerRow(page, email);
    await expect(row.getByRole('cell').filter({ hasText: organisation.name }).first()).toBeVisible();
    await expect(row).toContainText(`Layout Engine: ${organisation.name}’s licence, until 31 Jan 2027`);
    await expect(row).toContainText('active');
    // And the organisation counts them among its members, by their address's domain.
    await page.goto('/admin/organisations');
    await hydrated(page);
    const listed = page.getByRole('row').filter({ hasText: organisation.name });
    await expect(listed.getByRole('cell').last()).toHaveText('1');
    await listed.getByRole('button', { name: organisation.name }).click();
    await expect(page.getByRole('list', { name: `Members of ${organisation.name}` })).toHaveText(
      `${email} (by e-mail domain)`,
    );
    // Its access report, for the account manager, names them with the licence's end.
    const report = page.getByRole('link', { name: 'access report (CSV)' });
    const download = await page.request.get(String(await report.getAttribute('href')));
    expect(await download.text()).toContain(`${email},e-mail domain,Layout Engine,layout,licence,2027-01-31`);
    await context.close();
  });

  test("an administrator revokes a reader's own grant from their row; the reader is refused the package on their next page", async ({
    browser,
    baseURL,
  }) => {
    const origin = String(baseURL);
    const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const [id, domain] = [`granted-${suffix}`, `granted-${suffix}.example`];
    const { context, page } = await signedIn(browser, origin, adminReader);
    const post = (url: string, data: unknown) => page.request.post(`${origin}${url}`, { data, headers: { origin } });
    expect(
      (await post('/api/admin/organisations', { id, name: `Granted ${suffix}`, domains: [domain] })).status(),
    ).toBe(201);
    expect((await post(`/api/admin/organisations/${id}/licences`, { units: ['blog'] })).status()).toBe(201);
    const account = await emulatorReaders.create({ groups: [], email: `dev@${domain}` });
    const reader = await signedIn(browser, origin, account);
    const path = '/docs/layout-engine/';
    const asked = await reader.page.request.post(`${origin}/api/access-requests`, {
      data: { path, reason: 'Our programme guide' },
      headers: { origin },
    });
    expect(asked.status()).toBe(201);
    const approved = await post(`/api/admin/access-requests/${String((await asked.json()).id)}/approve`, {
      for: 'reader',
      endsOn: '2031-01-31',
    });
    expect(approved.status()).toBe(204);
    expect((await reader.page.goto(path))?.status()).toBe(200);

    await openAdmin(page);
    const row = await readerRow(page, account.email);
    await expect(row).toContainText('Layout Engine: granted to them, until 31 Jan 2031');
    await chooseAction(page, account.email, 'Revoke the grant of Layout Engine…');
    const dialog = page.getByRole('dialog', { name: `Revoke ${account.email}’s grant of Layout Engine?` });
    await expect(dialog).toContainText('stops reading Layout Engine on their next request');
    await dialog.getByRole('button', { name: 'Revoke grant' }).click();
    await expect(page.getByText(`${account.email}’s grant of Layout Engine is revoked.`)).toBeVisible();
    await expect(row).not.toContainText('granted to them');
    expect((await reader.page.goto(path))?.status()).toBe(403);
    await reader.context.close();
    await context.close();
  });

  test('a link of an account mail that is cut short or made up says so and offers a new one', async ({ page }) => {
    for (const query of ['', '?mode=resetPassword', '?mode=resetPassword&oobCode=not-a-code&invite=1']) {
      await page.goto(`/login/action${query}`);
      await hydrated(page);
      await expect(page.getByRole('alert')).toContainText(/not complete|already been used/);
      await expect(page.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/login?reset=1');
    }
    // Which opens the sign-in page on its form for a new link.
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible();
  });

  test('an administrator disables a reader who is reading; the reader is signed out within the cache time', async ({
    browser,
    baseURL,
  }) => {
    const account = await emulatorReaders.create({ groups: ['partner'], email: unique('reading') });
    const reader = await signedIn(browser, String(baseURL), account);
    expect((await reader.page.goto('/docs/whitelabel/'))?.status()).toBe(200);

    const admin = await signedIn(browser, String(baseURL), adminReader);
    await openAdmin(admin.page);
    const row = await readerRow(admin.page, account.email);
    await chooseAction(admin.page, account.email, 'Disable…');
    const dialog = admin.page.getByRole('dialog', { name: `Disable ${account.email}?` });
    await dialog.getByRole('button', { name: 'Disable' }).click();
    await expect(admin.page.getByRole('status').filter({ hasText: `${account.email} is disabled.` })).toBeVisible();
    await expect(row.getByText('disabled', { exact: true })).toBeVisible();

    // SESSION_CACHE_TTL_SECONDS is 2 in this run (60 at most in production).
    await expect(async () => {
      await reader.page.goto('/docs/layout-engine/');
      await expect(reader.page).toHaveURL(/\/login\?next=/, { timeout: 1000 });
    }).toPass({ timeout: 10_000 });
    await reader.context.close();

    // The trail names who did it.
    await admin.page.getByRole('link', { name: 'Audit trail' }).click();
    const filter = admin.page.getByLabel('Reader (e-mail or id)');
    await filter.fill(account.email);
    const trail = admin.page.getByRole('table');
    const kind = (name: string) =>
      trail.getByRole('row').filter({ has: admin.page.getByRole('cell', { name, exact: true }) });
    await expect(kind('Disabled')).toContainText(adminReader.email);
    // The session's end is recorded when the reader's request is refused, moments ago, and
    // the trail is written in batches within a second: ask again until it is there, as an
    // administrator would.
    await expect(async () => {
      await filter.fill('');
      await filter.fill(account.email);
      await expect(kind('Session ended').first()).toBeVisible({ timeout: 1500 });
    }).toPass({ timeout: 10_000 });
    await admin.context.close();
  });

  test('a new administrator sees why their own row offers no disable or remove, and works a row menu by keyboard', async ({
    browser,
    baseURL,
  }) => {
    const other = await emulatorReaders.create({ groups: ['partner'], email: unique('menu') });
    const admin = await signedIn(browser, String(baseURL), adminReader);
    await openAdmin(admin.page);
    const own = await readerRow(admin.page, adminReader.email);
    // Said before anyone clicks, in the row itself.
    await expect(own).toContainText('Your own account: another administrator can disable, remove or demote it.');
    const button = own.getByRole('button', { name: `Actions for ${adminReader.email}` });
    await button.focus();
    await admin.page.keyboard.press('Enter');
    const menu = admin.page.getByRole('menu', { name: `Actions for ${adminReader.email}` });
    await expect(menu.getByRole('menuitem')).toHaveText([
      'Change groups…',
      'Organisation and access groups…',
      'Show in the audit trail',
    ]);
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    await admin.page.keyboard.press('ArrowUp');
    await expect(menu.getByRole('menuitem', { name: 'Show in the audit trail' })).toBeFocused();
    await admin.page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(button).toBeFocused();
    // The groups dialog keeps one's own admin group, and says why.
    await chooseAction(admin.page, adminReader.email, 'Change groups…');
    const groups = admin.page.getByRole('dialog', { name: `Groups of ${adminReader.email}` });
    await expect(groups.getByRole('checkbox', { name: /^admin/ })).toBeDisabled();
    await groups.getByRole('button', { name: 'Cancel' }).click();

    // Another reader's menu offers everything, Remove last and not as a solid red button.
    await readerRow(admin.page, other.email);
    await admin.page.getByRole('button', { name: `Actions for ${other.email}` }).click();
    const items = admin.page.getByRole('menu', { name: `Actions for ${other.email}` }).getByRole('menuitem');
    await expect(items).toHaveText([
      'Change groups…',
      'Organisation and access groups…',
      'Disable…',
      'Show in the audit trail',
      'Remove…',
    ]);
    await admin.page.keyboard.press('Escape');
    // The server refuses what the page does not offer, and says why.
    const session = (await (await admin.page.request.get('/api/admin/readers?limit=1')).json()) as { self: string };
    const refused = await admin.page.request.post(`/api/admin/readers/${session.self}/disable`, {
      headers: { origin: String(baseURL) },
    });
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toEqual({
      error: 'You cannot disable your own account; another administrator can',
    });
    await admin.context.close();
  });

  test('an administrator moves a reader into an organisation, and the trail says so in words', async ({
    browser,
    baseURL,
  }) => {
    const base = String(baseURL);
    const reader = await emulatorReaders.create({ groups: ['partner'], email: unique('placed') });
    const admin = await signedIn(browser, base, adminReader);
    const id = `org-${Date.now().toString(36)}`;
    const made = await admin.page.request.post('/api/admin/organisations', {
      data: { id, name: `Northwind ${id}`, domains: [] },
      headers: { origin: base },
    });
    expect(made.status(), await made.text()).toBe(201);
    await openAdmin(admin.page);
    const row = await readerRow(admin.page, reader.email);
    await expect(row.getByRole('cell').first()).toHaveText('–');
    await chooseAction(admin.page, reader.email, 'Organisation and access groups…');
    const dialog = admin.page.getByRole('dialog', { name: `Organisation and groups of ${reader.email}` });
    await dialog.getByLabel('Organisation').selectOption({ label: `Northwind ${id}` });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(
      admin.page.getByRole('status').filter({ hasText: `Organisation and groups of ${reader.email} saved.` }),
    ).toBeVisible();
    await expect(row.getByRole('cell').first()).toHaveText(`Northwind ${id}`);

    await chooseAction(admin.page, reader.email, 'Show in the audit trail');
    await expect(admin.page).toHaveURL(/\/admin\/audit\?reader=/);
    await expect(admin.page.getByLabel('Reader (e-mail or id)')).toHaveValue(reader.email);
    await expect(
      admin.page.getByRole('row').filter({ hasText: `${reader.email}: organisation ${id} (was by e-mail domain)` }),
    ).toBeVisible();
    await admin.context.close();
  });

  test('the readers page does not move while it loads, and axe finds no serious violation on it', async ({
    browser,
    baseURL,
  }) => {
    // axe reads a table of 50 readers at two widths in two colour modes: all four with
    // `npm run test:e2e:full`, desktop in light and phone in dark in `npm test`.
    test.setTimeout(4 * 60_000);
    const admin = await signedIn(browser, String(baseURL), adminReader);
    const variants = [
      { viewport: { width: 1280, height: 800 }, mode: 'light' },
      { viewport: { width: 1280, height: 800 }, mode: 'dark' },
      { viewport: { width: 390, height: 844 }, mode: 'light' },
      { viewport: { width: 390, height: 844 }, mode: 'dark' },
    ] as const;
    for (const { viewport, mode } of everyVariant ? variants : [variants[0], variants[3]]) {
      await admin.page.setViewportSize(viewport);
      await admin.page.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
      await openAdmin(admin.page);
      await expect(admin.page.getByRole('table')).toBeVisible();
      await admin.page.evaluate(() => document.fonts.ready);
      const shift = await layoutShift(admin.page);
      test.info().annotations.push({ type: 'CLS', description: `/admin at ${viewport.width} px, ${mode}: ${shift}` });
      console.log(`CLS of /admin at ${viewport.width} px, ${mode}: ${shift}`);
      expect(shift, `/admin at ${viewport.width} px`).toBeLessThan(0.1);
      // With a row's menu open, so that its items are judged too.
      await admin.page
        .getByRole('button', { name: /^Actions for / })
        .first()
        .click();
      const results = await axe(admin.page);
      const serious = results.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => ({ rule: violation.id, nodes: violation.nodes.slice(0, 5).map((node) => node.target) }));
      expect(serious, `${viewport.width} px, ${mode}: ${JSON.stringify(serious)}`).toEqual([]);
    }
    await admin.context.close();
  });

  test("the trail shows the filter's events even when an earlier, unfiltered answer comes last", async ({
    browser,
    baseURL,
  }) => {
    const admin = await signedIn(browser, String(baseURL), adminReader);
    // The unfiltered trail answers late, as it does when the machine is busy.
    let releaseUnfiltered = (): void => undefined;
    const unfilteredHeld = new Promise<void>((resolve) => (releaseUnfiltered = resolve));
    await admin.page.route(/\/api\/admin\/audit\?/, async (route) => {
      const url = new URL(route.request().url());
      if (!url.searchParams.has('reader')) await unfilteredHeld;
      await route.continue();
    });
    await openAdmin(admin.page);
    const unfiltered = admin.page.waitForRequest(
      (request) => request.url().includes('/api/admin/audit?') && !request.url().includes('reader='),
    );
    await admin.page.getByRole('link', { name: 'Audit trail' }).click();
    await unfiltered;
    await admin.page.getByLabel('Reader (e-mail or id)').fill(unique('nobody'));
    await expect(admin.page.getByText('No events match.')).toBeVisible();
    const unfilteredAnswered = admin.page.waitForResponse(
      (response) => response.url().includes('/api/admin/audit?') && !response.url().includes('reader='),
    );
    releaseUnfiltered();
    await unfilteredAnswered;
    // Give React the moment it would take to show the late answer; it must not.
    await admin.page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
    await expect(admin.page.getByText('No events match.')).toBeVisible();
    await expect(admin.page.getByRole('table')).toHaveCount(0);
    await admin.context.close();
  });

  test('the insights show the views and a failed search made here', async ({ browser, baseURL }) => {
    const account = await emulatorReaders.create({ groups: ['partner'], email: unique('curious') });
    const reader = await signedIn(browser, String(baseURL), account);
    await reader.page.goto('/docs/demo-app/');
    await hydrated(reader.page);
    const nonsense = `qzxv-${Date.now().toString(36)}`;
    await reader.page.keyboard.press('Control+k');
    await reader.page.getByRole('searchbox', { name: 'Search' }).fill(nonsense);
    await expect(reader.page.getByRole('list', { name: 'Search results' })).toHaveAttribute('data-answered', nonsense);
    // The site reports a finished search when the reader leaves the dialog.
    const reported = reader.page.waitForResponse(
      (response) => response.url().endsWith('/api/search-events') && response.status() === 202,
    );
    await reader.page.keyboard.press('Escape');
    await reported;
    await reader.context.close();

    const admin = await signedIn(browser, String(baseURL), adminReader);
    await expect(async () => {
      await admin.page.goto('/admin/insights');
      await hydrated(admin.page);
      await admin.page.getByLabel('Readers in').selectOption('partner');
      // Among the readers' own searches that found nothing (it is among the most asked too).
      const failed = admin.page.getByRole('region', { name: 'Readers’ searches that found nothing' });
      await expect(failed.getByRole('row').filter({ hasText: nonsense })).toBeVisible({ timeout: 2000 });
    }).toPass({ timeout: 15_000 });
    await expect(admin.page.getByRole('img', { name: /^Page views per day: / })).toBeVisible();
    const views = admin.page.getByRole('paragraph').filter({ hasText: 'page views' }).getByRole('strong');
    expect(Number(await views.innerText())).toBeGreaterThan(0);
    await admin.context.close();
  });
});

test.describe('"Was this page helpful?"', () => {
  test('records an answer with a comment, and the reader changes it later', async ({ browser, baseURL }) => {
    const account = await emulatorReaders.create({ groups: ['partner'], email: unique('rating') });
    const { context, page } = await signedIn(browser, String(baseURL), account);
    await page.goto('/docs/whitelabel/');
    await hydrated(page);
    const widget = page.getByRole('region', { name: 'Was this page helpful?' });
    await widget.getByRole('button', { name: 'No' }).click();
    // Saving keeps the reader's place: focus stays on the answer, not dropped to the page.
    await expect(widget.getByRole('status')).toHaveText(/Saved/);
    await expect(widget.getByRole('button', { name: 'No' })).toBeFocused();
    await widget.getByLabel('What was missing or wrong? (optional)').fill('No example for two brands on one TV');
    await widget.getByRole('button', { name: 'Send' }).click();
    await expect(widget.getByRole('status')).toHaveText(/your answer is saved/);
    await expect(widget.getByRole('button', { name: 'No' })).toBeFocused();
    await page.reload();
    await hydrated(page);
    await expect(widget.getByRole('button', { name: 'No' })).toHaveAttribute('aria-pressed', 'true');
    await expect(widget.getByRole('status')).toHaveText('You answered no with a comment.');
    await widget.getByRole('button', { name: 'Yes' }).click();
    await expect(widget.getByRole('button', { name: 'Yes' })).toHaveAttribute('aria-pressed', 'true');
    await page.reload();
    await hydrated(page);
    await expect(widget.getByRole('status')).toHaveText('You answered yes.');
    const stored = await (await page.request.get('/api/feedback?path=%2Fdocs%2Fwhitelabel%2F')).json();
    expect(stored).toMatchObject({ feedback: { helpful: true, comment: null } });
    await context.close();
  });
});

test.describe('personal access tokens on the administration page', () => {
  test("an administrator revokes a reader's token, which is refused from then on", async ({ browser, baseURL }) => {
    const base = String(baseURL);
    const account = await emulatorReaders.create({ groups: ['partner'], email: unique('token-owner') });
    const reader = await signedIn(browser, base, account);
    const made = await reader.page.request.post('/api/tokens', {
      data: { name: 'Cursor on the old laptop', days: 30 },
      headers: { origin: base },
    });
    expect(made.status()).toBe(201);
    const { token } = (await made.json()) as { token: string };
    const withToken = () => fetch(`${base}/docs/whitelabel.md`, { headers: { authorization: `Bearer ${token}` } });
    expect((await withToken()).status).toBe(200);
    await reader.context.close();

    const admin = await signedIn(browser, base, adminReader);
    await openAdmin(admin.page);
    await admin.page.getByRole('link', { name: 'Tokens and apps' }).click();
    await admin.page
      .getByRole('region', { name: 'Personal access tokens' })
      .getByLabel('Reader (e-mail or id)')
      .fill(account.email);
    const row = admin.page.getByRole('row').filter({ hasText: 'Cursor on the old laptop' });
    await expect(row).toContainText(account.email);
    await expect(row).toContainText('active');
    await row.getByRole('button', { name: `Revoke Cursor on the old laptop of ${account.email}` }).click();
    await admin.page.getByRole('dialog').getByRole('button', { name: 'Revoke token' }).click();
    await expect(admin.page.getByRole('status').filter({ hasText: 'is revoked' })).toBeVisible();
    await expect(row).toContainText('revoked');
    expect((await withToken()).status).toBe(401);
    await admin.context.close();
  });
});

test.describe('the package sources on the administration page', () => {
  test('show what the content cache holds of each synced package and the build served', async ({
    browser,
    baseURL,
  }) => {
    const admin = await signedIn(browser, String(baseURL), adminReader);
    await openAdmin(admin.page);
    await admin.page.getByRole('link', { name: 'Package sources' }).click();
    const panel = admin.page.getByRole('region', { name: 'Package sources' });
    const row = panel.getByRole('row').filter({ hasText: 'norigin-spatial-navigation' });
    await expect(row).toContainText('@noriginmedia/norigin-spatial-navigation');
    // The newest release of each minor line, newest first, as the section publishes them.
    await expect(row).toContainText(/3\.3\.0, 3\.2\.1, .*2\.3\.0.*1\.0\.5/);
    await expect(panel).toContainText(/Serving build [0-9a-f]{16} \(\d[\d,]* files\)/);
    // The browser tests' gate has no hook secret.
    await expect(panel).toContainText('Release hooks are off (set SOURCES_HOOK_SECRET to turn them on)');
    await expect(panel).toContainText('No release hook has asked for a rebuild since this replica started.');
    await admin.context.close();
  });
});
