import { readFile } from 'node:fs/promises';

import { everyVariant, expect, hydrated, test } from './fixtures';
import { layoutShift } from './layout-shift';
import { adminReader, partnerReader, signedInContext as signedIn } from './readers';

const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

test.describe('the organisations page', () => {
  test('is for administrators only: a partner gets the no-access page, an anonymous visitor the sign-in', async ({
    page,
    browser,
    baseURL,
  }) => {
    await page.goto('/admin/organisations');
    await expect(page).toHaveURL(/\/login\?next=%2Fadmin%2Forganisations$/);
    const { context, page: partnerPage } = await signedIn(browser, String(baseURL), partnerReader);
    expect((await partnerPage.goto('/admin/organisations'))?.status()).toBe(403);
    await expect(partnerPage.getByRole('heading', { level: 1 })).toHaveText('You do not have access to this page');
    await context.close();
  });

  test('an administrator creates an organisation with a licence for two units, imports three readers after the preview, and exports them', async ({
    browser,
    baseURL,
  }) => {
    const { context, page } = await signedIn(browser, String(baseURL), adminReader);
    await page.goto('/admin/organisations');
    await hydrated(page);
    await expect(page.getByRole('link', { name: 'Organisations' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('table', { name: 'Organisations' })).toBeVisible();

    // A new organisation.
    const id = `e2e-${suffix}`;
    const name = `E2E Studio ${suffix}`;
    await page.getByLabel('Id (lower case, dashes)').fill(id);
    await page.getByRole('region', { name: 'Organisations' }).getByLabel('Name', { exact: true }).last().fill(name);
    await page.getByLabel('Verified e-mail domains').last().fill(`${id}.example`);
    await page.getByRole('button', { name: 'Create organisation' }).click();
    await expect(page.getByRole('status').filter({ hasText: `${name} is created` })).toBeVisible();

    // Its licence: two units from the picker, with an end date.
    const editor = page.getByRole('region', { name: new RegExp(name) });
    const picker = editor.getByRole('group', { name: /New licence: packages/ });
    await picker
      .getByRole('group', { name: 'Adapters' })
      .getByLabel(/Shaka adapter/)
      .check();
    await picker
      .getByRole('group', { name: 'Other' })
      .getByLabel(/Layout Engine/)
      .check();
    await editor.getByLabel('Last day (empty: no end)').last().fill('2030-06-30');
    await expect(editor.getByText('30 June 2030')).toBeVisible();
    await editor.getByRole('button', { name: 'Grant licence' }).click();
    await expect(editor.getByRole('status').filter({ hasText: `${name} now reads 2 more package(s)` })).toBeVisible();
    const licences = editor.getByRole('list', { name: `Licences of ${name}` });
    await expect(licences.getByRole('listitem')).toHaveCount(1);
    await expect(licences).toContainText('Shaka adapter');
    await expect(licences).toContainText('Layout Engine');
    await expect(licences).toContainText('until the end of');

    // Three readers from a CSV: the preview first, then the import.
    const emails = ['ana', 'bo', 'cy'].map((who) => `${who}-${suffix}@e2e-readers.example`);
    const csv = ['email,organisation,groups', ...emails.map((email) => `${email},${id},`)].join('\n');
    const tabs = page.getByRole('tablist');
    await tabs.getByRole('tab', { name: 'Import and export' }).click();
    await page.getByLabel('CSV file to import').setInputFiles({
      name: 'readers.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    const apply = page.getByRole('button', { name: 'Apply import' });
    await expect(apply).toBeDisabled();
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Import preview' });
    await expect(preview).toContainText('Preview (nothing changed yet): 3 row(s), 3 new');
    const rows = preview.getByRole('table', { name: 'What each row does' }).getByRole('row');
    await expect(rows).toHaveCount(4);
    await expect(rows.filter({ hasText: emails[0] })).toContainText(`new membership in ${id}`);
    await expect(editor.getByRole('list', { name: `Members of ${name}` })).toHaveCount(0);
    await apply.click();
    await expect(page.getByRole('status').filter({ hasText: 'Imported readers.csv: 3 new' })).toBeVisible();
    await tabs.getByRole('tab', { name: 'Organisations and licences' }).click();
    const members = editor.getByRole('list', { name: `Members of ${name}` });
    for (const email of emails) await expect(members).toContainText(email);

    // Who reads one of its packages: its organisation, with its readers.
    await tabs.getByRole('tab', { name: 'Who reads a package' }).click();
    await page.getByRole('combobox', { name: /^Package/ }).selectOption({ label: 'Layout Engine' });
    const who = page.getByRole('region', { name: 'Who reads Layout Engine' });
    await expect(who.getByRole('table', { name: 'Organisations licensed for Layout Engine' })).toContainText(name);
    for (const email of emails)
      await expect(who.getByRole('row').filter({ hasText: email })).toContainText(
        `${name}’s licence, until 30 Jun 2030`,
      );

    // The export holds the same rows, in the columns the import reads.
    await tabs.getByRole('tab', { name: 'Import and export' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export readers (CSV)' }).click();
    const file = await (await download).path();
    const exported = await readFile(file, 'utf8');
    expect(exported.split('\n')[0]).toBe('email,organisation,groups');
    for (const email of emails) expect(exported).toContain(`${email},${id},`);
    await context.close();
  });

  test('loads without a layout shift, and fits a 390 px phone without sideways scrolling', async ({
    browser,
    baseURL,
  }) => {
    const { context, page } = await signedIn(browser, String(baseURL), adminReader);
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/admin/organisations');
      await hydrated(page);
      await expect(page.getByRole('table', { name: 'Organisations' })).toBeVisible();
      await page.evaluate(() => document.fonts.ready);
      expect(await layoutShift(page), `at ${viewport.width} px`).toBe(0);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `page width at ${viewport.width} px`).toBeLessThanOrEqual(viewport.width);
    }
    await context.close();
  });

  test('is never painted with half a navbar, on a slow processor', async ({ browser, baseURL }) => {
    // Loads at a sixth of the speed: ten (more than a minute on CI's two shared cores) with
    // `npm run test:e2e:full`, four in `npm test`.
    test.setTimeout(4 * 60_000);
    const loads = everyVariant ? 10 : 4;
    // A browser may paint a page it has parsed only in part, more often on a busy processor:
    // the navbar's right-hand items then came one by one and moved the ones drawn before,
    // until every page's head made the browser wait for the whole navbar.
    const { context, page } = await signedIn(browser, String(baseURL), adminReader);
    await page.setViewportSize({ width: 1280, height: 800 });
    const devtools = await context.newCDPSession(page);
    await devtools.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    for (let load = 1; load <= loads; load++) {
      await page.goto('/admin/organisations');
      await hydrated(page);
      await page.evaluate(() => document.fonts.ready);
      expect(await layoutShift(page), `load ${load}`).toBe(0);
    }
    await context.close();
  });
});
