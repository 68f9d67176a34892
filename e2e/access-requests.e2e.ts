import { randomUUID } from 'node:crypto';

import type { Page } from '@playwright/test';

import { axe, expect, hydrated, test } from './fixtures';
import { layoutShift } from './layout-shift';
import { openMail } from './mail';
import { adminReader, emulatorReaders, signedInContext } from './readers';

/** An organisation of `domain` licensed for `units`, made through the admin API as an administrator does. */
async function licensedOrganisation(
  admin: Page,
  origin: string,
  { id, name, domain, units }: { id: string; name: string; domain: string; units: string[] },
): Promise<void> {
  const post = (url: string, data: unknown) => admin.request.post(`${origin}${url}`, { data, headers: { origin } });
  expect((await post('/api/admin/organisations', { id, name, domains: [domain] })).status()).toBe(201);
  expect((await post(`/api/admin/organisations/${id}/licences`, { units })).status()).toBe(201);
}

test.describe('asking for access', () => {
  // A refused page is a 403 document, which Chromium logs.
  test.use({ allowedConsoleErrors: /status of 403/ });

  test('a partner asks for a locked package, an administrator approves it for their organisation, and they and a colleague read it without signing in again', async ({
    browser,
    baseURL,
  }) => {
    // Three readers' browsers and an administrator's, side by side.
    test.slow();
    const origin = String(baseURL);
    const suffix = randomUUID().slice(0, 8);
    const organisation = `asking-${suffix}`;
    const domain = `asking-${suffix}.example`;
    const admin = await signedInContext(browser, origin, adminReader);
    // An organisation licensed for the blog only.
    await licensedOrganisation(admin.page, origin, {
      id: organisation,
      name: `Asking ${suffix}`,
      domain,
      units: ['blog'],
    });
    const partner = await emulatorReaders.create({ groups: [], email: `dev@${domain}` });
    const colleague = await emulatorReaders.create({ groups: [], email: `lead@${domain}` });
    const one = await signedInContext(browser, origin, partner);
    const two = await signedInContext(browser, origin, colleague);

    // The refusal page: the site's own, at the asked address, naming the unit and why.
    const refused = await one.page.goto('/docs/layout-engine/');
    expect(refused?.status()).toBe(403);
    await hydrated(one.page);
    await expect(one.page).toHaveURL(/\/docs\/layout-engine\/$/);
    await expect(one.page.getByRole('heading', { level: 1 })).toHaveText('You do not have access to this page');
    await expect(one.page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    await expect(one.page.getByText(`You are signed in as ${partner.email} of Asking ${suffix}.`)).toBeVisible();
    await expect(one.page.getByText('This page is part of Layout Engine.')).toBeVisible();
    await expect(one.page.getByText(`Asking ${suffix}’s licence does not include it.`)).toBeVisible();

    await one.page.getByLabel(/Why do you need Layout Engine/).fill('Our programme guide is built on it');
    await one.page.getByRole('button', { name: 'Ask for access' }).click();
    await expect(one.page.getByRole('status').filter({ hasText: 'awaiting an administrator' })).toBeVisible();
    // The same request, seen again on reload and on the account page.
    await one.page.goto('/account');
    await expect(one.page.getByRole('heading', { name: 'Your access requests' })).toBeVisible();
    await expect(one.page.getByText(/awaiting an administrator's answer/)).toBeVisible();

    // The administrator's queue: approve it for the whole organisation.
    await admin.page.goto('/admin/requests');
    await hydrated(admin.page);
    const request = admin.page.getByRole('listitem').filter({ hasText: partner.email });
    await expect(request).toContainText('Layout Engine');
    await expect(request).toContainText('Our programme guide is built on it');
    // The organisation's licence is shown beside it, and nothing is chosen for the administrator.
    await expect(request).toContainText(`Asking ${suffix}’s licence now: Blog (no end).`);
    await expect(request.getByLabel('Approve for')).toHaveValue('');
    await expect(request.getByRole('button', { name: 'Approve…' })).toBeDisabled();
    await request.getByLabel('Approve for').selectOption('organisation');
    await request.getByRole('button', { name: 'Approve…' }).click();
    const confirm = admin.page.getByRole('dialog', { name: `Approve Layout Engine for Asking ${suffix}?` });
    await expect(confirm).toContainText(`Every reader of Asking ${suffix}, now and later, will read Layout Engine`);
    await confirm.getByRole('button', { name: 'Approve' }).click();
    await expect(
      admin.page.getByRole('status').filter({ hasText: `Layout Engine approved for Asking ${suffix}.` }),
    ).toBeVisible();

    // Both read it on their next request, with the sessions they already had.
    for (const { page } of [one, two]) {
      const page200 = await page.goto('/docs/layout-engine/');
      expect(page200?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('You do not have access to this page');
    }
    await one.page.goto('/account');
    await expect(one.page.getByText('Approved for your organisation.')).toBeVisible();

    for (const { context } of [admin, one, two]) await context.close();
  });

  test('the sidebar lists a package the licence lacks with a lock and its name only, hides the internal pages, and its link asks for it', async ({
    browser,
    baseURL,
  }) => {
    const origin = String(baseURL);
    const suffix = randomUUID().slice(0, 8);
    const organisation = `locks-${suffix}`;
    const domain = `locks-${suffix}.example`;
    const admin = await signedInContext(browser, origin, adminReader);
    await licensedOrganisation(admin.page, origin, {
      id: organisation,
      name: `Locks ${suffix}`,
      domain,
      units: ['player', 'player-core', 'player-adapter-shaka'],
    });
    await admin.context.close();
    const reader = await emulatorReaders.create({ groups: [], email: `dev@${domain}` });
    const { page, context } = await signedInContext(browser, origin, reader);

    await page.goto('/docs/player-manager-mono/packages/player-core/');
    await hydrated(page);
    const sidebar = page.getByRole('navigation', { name: 'Docs sidebar' });
    await sidebar.getByRole('button', { name: /Player adapters/ }).click();
    const lockOf = (link: ReturnType<typeof sidebar.getByRole>) =>
      link.evaluate((element) => getComputedStyle(element, '::after').getPropertyValue('mask-image'));
    // The licensed adapter opens as always; the others are listed by name, locked, with nothing below them.
    const shaka = sidebar.getByRole('link', { name: 'Shaka adapter', exact: true });
    await expect(shaka).toBeVisible();
    expect(await lockOf(shaka)).toBe('none');
    // The lock's alternative text names it for a screen reader too.
    const dash = sidebar.getByRole('link', { name: 'DASH adapter (locked)', exact: true });
    await expect(dash).toBeVisible();
    expect(await lockOf(dash)).toContain('data:image/svg+xml');
    await expect(sidebar.getByRole('button', { name: "Expand sidebar category 'Shaka adapter'" })).toBeVisible();
    await expect(sidebar.getByRole('button', { name: "Expand sidebar category 'DASH adapter'" })).toBeHidden();
    // A family the licence has nothing of is listed, locked, and still opens to show its packages.
    const ui = sidebar.getByRole('link', { name: 'UI Toolkit (locked)', exact: true });
    await expect(ui).toBeVisible();
    expect(await lockOf(ui)).toContain('data:image/svg+xml');
    // The company's own pages are not listed at all.
    await expect(sidebar.getByRole('link', { name: 'Custom test build' })).toBeHidden();
    await expect(sidebar.getByText('Support Documentation')).toBeHidden();

    // The locked entry leads to the refusal page, which names the package and offers to ask for it.
    await dash.click();
    await expect(page).toHaveURL(/\/docs\/player-manager-mono\/packages\/player-adapter-dash\.js\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You do not have access to this page');
    await expect(page.getByText('This page is part of DASH adapter.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Ask for access' })).toBeVisible();

    // In a page's text, a link to a page the partner may not read carries the same lock and
    // words, and says why on focus; a link to a page they read carries none.
    await page.goto('/docs/player-manager-mono/packages/player-adapter-shaka/');
    await hydrated(page);
    const text = page.locator('.theme-doc-markdown');
    const fork = text.getByRole('link', { name: 'Shaka Fork guideline (locked)', exact: true });
    await expect(fork).toBeVisible();
    expect(await lockOf(fork)).toContain('data:image/svg+xml');
    const locked = text.locator('a[data-units]');
    const count = await locked.count();
    expect(count).toBeGreaterThanOrEqual(3);
    for (let index = 0; index < count; index++) {
      const link = locked.nth(index);
      const units = (await link.getAttribute('data-units')) ?? '';
      // Every link to a unit the licence does not give is locked, and only those.
      const held = ['player', 'player-core', 'player-adapter-shaka'].some((unit) => units.split(' ').includes(unit));
      expect(await lockOf(link), `${await link.getAttribute('href')}`).toEqual(
        held ? 'none' : expect.stringContaining('svg'),
      );
    }
    await expect(text.getByRole('link', { name: 'web playground', exact: true })).toBeVisible();
    // Why, in a note shown on hover and keyboard focus (and not read out a second time).
    const note = () => fork.evaluate((element) => getComputedStyle(element, '::before').content);
    expect(await note()).toBe('none');
    await expect(fork).toHaveAttribute(
      'data-locked-in',
      'Locked: this page is part of Internal: guidelines, training and client work, which you cannot read.',
    );
    await fork.hover();
    expect(await note()).toMatch(/^attr\(data-locked-in\)|Locked: this page is part of Internal/);
    await expect(fork).toHaveAccessibleName('Shaka Fork guideline (locked)');
    await context.close();
  });

  test('the refusal page does not move while it finds out who is asking and why, on a phone and a desktop', async ({
    browser,
    baseURL,
  }) => {
    const origin = String(baseURL);
    const suffix = randomUUID().slice(0, 8);
    const domain = `steady-${suffix}.example`;
    const admin = await signedInContext(browser, origin, adminReader);
    // An organisation with a long name, licensed for the blog only: the reader's line names it, and the form shows.
    await licensedOrganisation(admin.page, origin, {
      id: `steady-${suffix}`,
      name: `Steady Broadcasting Partners ${suffix}`,
      domain,
      units: ['blog'],
    });
    const { page, context } = await signedInContext(
      browser,
      origin,
      await emulatorReaders.create({ groups: [], email: `developer.relations@${domain}` }),
    );
    // Why comes late, as on a slow network: after the page has painted and started.
    await page.route('**/api/access/refusal?**', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    for (const viewport of [
      { width: 360, height: 740 },
      { width: 412, height: 823 },
      { width: 1280, height: 800 },
    ]) {
      await page.setViewportSize(viewport);
      expect((await page.goto('/docs/layout-engine/'))?.status()).toBe(403);
      await hydrated(page);
      await expect(page.getByRole('button', { name: 'Ask for access' })).toBeVisible();
      await expect(page.getByText(`of Steady Broadcasting Partners ${suffix}.`)).toBeVisible();
      expect(await layoutShift(page), `at ${viewport.width} px`).toBe(0);
    }
    await context.close();
    await admin.context.close();
  });
});

test.describe('a licence that ends soon', () => {
  test("its organisation's contact gets the mail in MailDev, and its readers see the banner on every page", async ({
    browser,
    baseURL,
  }) => {
    const origin = String(baseURL);
    const suffix = randomUUID().slice(0, 8);
    const [id, name, domain] = [`ending-${suffix}`, `Ending ${suffix}`, `ending-${suffix}.example`];
    const admin = await signedInContext(browser, origin, adminReader);
    const post = (url: string, data: unknown) =>
      admin.page.request.post(`${origin}${url}`, { data, headers: { origin } });
    expect(
      (await post('/api/admin/organisations', { id, name, domains: [domain], contact: `apps@${domain}` })).status(),
    ).toBe(201);
    const ends = new Date(Date.now() + 10 * 24 * 60 * 60 * 1000);
    const endsOn = ends.toISOString().slice(0, 10);
    const day = ends.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
    expect((await post(`/api/admin/organisations/${id}/licences`, { units: ['layout'], endsOn })).status()).toBe(201);

    // The contact's mail, as they read it in MailDev (a browser of their own: MailDev's page logs its own errors).
    const inbox = await browser.newContext();
    const mail = await openMail(
      await inbox.newPage(),
      `apps@${domain}`,
      `${name}’s licence of the Norigin Developer Docs ends on ${day}`,
    );
    await expect(mail.locator('body')).toContainText(`${name}’s licence ends on ${day}, in 10 days`);
    await expect(mail.locator('li')).toHaveText(['Layout Engine']);
    await expect(mail.getByRole('link')).toHaveAttribute('href', /^mailto:/);
    await inbox.close();

    // A reader of theirs sees the banner above the navbar, on a doc page and on their account page.
    const reader = await emulatorReaders.create({ groups: [], email: `dev@${domain}` });
    const { context, page: readerPage } = await signedInContext(browser, origin, reader);
    await readerPage.goto('/docs/layout-engine/');
    await hydrated(readerPage);
    const banner = readerPage.getByRole('region', { name: 'Your licence' });
    await expect(banner.getByRole('paragraph')).toHaveText(
      `${name}’s licence ends on ${day}: after that day you can no longer read Layout Engine. See what you read and ask to renew`,
    );
    // It arrives with the session and moves nothing on the page.
    expect(await layoutShift(readerPage)).toBe(0);
    // axe on the page with the banner, in both colour modes.
    for (const mode of ['light', 'dark'] as const) {
      await readerPage.evaluate((theme) => document.documentElement.setAttribute('data-theme', theme), mode);
      await readerPage.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
      const serious = (await axe(readerPage)).violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => ({ rule: violation.id, nodes: violation.nodes.slice(0, 5).map((node) => node.target) }));
      expect(serious, `${mode}: ${JSON.stringify(serious)}`).toEqual([]);
    }
    await banner.getByRole('link', { name: 'See what you read and ask to renew' }).click();
    await expect(readerPage).toHaveURL(/\/account\/?$/);
    await expect(readerPage.getByRole('region', { name: 'Your licence' })).toBeVisible();
    // Hidden, it stays hidden in this tab, from page to page.
    await readerPage.getByRole('region', { name: 'Your licence' }).getByRole('button', { name: 'Hide' }).click();
    await expect(readerPage.getByRole('region', { name: 'Your licence' })).toHaveCount(0);
    await readerPage.goto('/docs/layout-engine/');
    await hydrated(readerPage);
    await expect(readerPage.locator('html')).toHaveClass(/portal-signed-in/);
    await expect(readerPage.getByRole('region', { name: 'Your licence' })).toHaveCount(0);

    // Nobody else sees it: the administrator, on the same page.
    await admin.page.goto('/docs/layout-engine/');
    await hydrated(admin.page);
    await expect(admin.page.locator('html')).toHaveClass(/portal-signed-in/);
    await expect(admin.page.getByRole('region', { name: 'Your licence' })).toHaveCount(0);
    await context.close();
    await admin.context.close();
  });
});
