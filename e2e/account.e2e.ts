import type { Page } from '@playwright/test';

import { accountMenu, expect, hydrated, test } from './fixtures';
import { emulatorReaders, partnerReader, signInThroughApi as signIn } from './readers';

// Chromium asks before a page reads or writes the clipboard; these tests read what was copied.
test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const clipboardText = (page: Page): Promise<string> => page.evaluate(() => navigator.clipboard.readText());

/** A call with the token alone: no cookie, as a coding assistant makes it. */
const withToken = (url: string, token: string): Promise<Response> =>
  fetch(url, { headers: { authorization: `Bearer ${token}` } });

test.describe('the account page', () => {
  test('sends an anonymous reader to sign in, with /account as the page to return to', async ({ page }) => {
    await page.goto('/account');
    await expect(page).toHaveURL(/\/login\?next=%2Faccount$/);
  });

  test('a reader creates a token, copies it, an assistant uses it, and once revoked it is refused', async ({
    page,
    baseURL,
  }) => {
    const base = String(baseURL);
    // A reader of this test's own, so that the token list holds exactly what the test made.
    const reader = await emulatorReaders.create({ groups: ['partner'] });
    await signIn(page, base, reader);

    await page.goto('/docs/');
    await hydrated(page);
    await accountMenu(page).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account', exact: true }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
    await expect(page.getByText(reader.email, { exact: true }).last()).toBeVisible();
    await expect(page.getByText('Partner and customer developers')).toBeVisible();
    await expect(page.getByText('You have no tokens yet.')).toBeVisible();

    await page.getByLabel('Token name').fill('Claude Code on the test machine');
    await page.getByLabel('Expires after').selectOption({ label: '7 days' });
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByText('you will not see it again')).toBeVisible();
    const shown = page.getByRole('textbox', { name: 'New token' });
    await expect(shown).toHaveValue(/^norigin_pat_[A-Za-z0-9_-]{43}$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
    const token = await clipboardText(page);
    expect(token).toBe(await shown.inputValue());

    const row = page.getByRole('row').filter({ hasText: 'Claude Code on the test machine' });
    await expect(row).toContainText('active');
    await expect(row).toContainText('(in 7 days)');
    await expect(row.getByRole('cell').nth(2)).toHaveText('never');
    // The list shows the token's start only, never the secret.
    await expect(row).toContainText(`${token.slice(0, 'norigin_pat_'.length + 4)}…`);
    await expect(page.getByRole('table')).not.toContainText(token);

    // The assistant's side: the token alone reads what this partner may read.
    const search = await withToken(`${base}/api/search?q=dash.js&limit=3`, token);
    expect(search.status).toBe(200);
    const { results } = (await search.json()) as { results: { url: string }[] };
    expect(results[0]?.url).toBe('/docs/player-manager-mono/packages/player-adapter-dash.js/');
    const markdown = await withToken(`${base}/docs/layout-engine.md`, token);
    expect(markdown.status).toBe(200);
    expect(await markdown.text()).toMatch(/^---\n[\s\S]*?\n---\n\n# Layout Engine\n/);
    expect((await withToken(`${base}/docs/frontend-guidelines.md`, token)).status).toBe(403);

    await page.reload();
    await hydrated(page);
    await expect(row.getByRole('cell').nth(2)).not.toHaveText('never');

    await row.getByRole('button', { name: 'Revoke Claude Code on the test machine' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke “Claude Code on the test machine”?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'is revoked' })).toBeVisible();
    await expect(row).toContainText('revoked');
    await expect(row.getByRole('button', { name: /^Revoke/ })).toHaveCount(0);

    expect((await withToken(`${base}/api/search?q=dash.js`, token)).status).toBe(401);
    expect((await withToken(`${base}/docs/layout-engine.md`, token)).status).toBe(401);
  });

  test('says why a token was not made, and makes none', async ({ page, baseURL }) => {
    const reader = await emulatorReaders.create({ groups: ['staff'] });
    await signIn(page, String(baseURL), reader);
    await page.goto('/account');
    await hydrated(page);
    await expect(page.getByText('You have no tokens yet.')).toBeVisible();
    await page.getByRole('button', { name: 'Create token' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Give the token a name' })).toBeVisible();
    await expect(page.getByLabel('Token name')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('You have no tokens yet.')).toBeVisible();
  });
});

test.describe('“Copy page as Markdown”', () => {
  test('copies a doc page’s Markdown, which starts with its title below its front matter', async ({
    page,
    baseURL,
  }) => {
    await signIn(page, String(baseURL), partnerReader);
    await page.goto('/docs/layout-engine/');
    await hydrated(page);
    const title = await page.getByRole('heading', { level: 1 }).first().innerText();
    await page.getByRole('button', { name: 'Copy page as Markdown' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
    const copied = await clipboardText(page);
    // The front matter names the page (its canonical address among others); then its title.
    expect(copied).toMatch(
      /^---\ntitle: .+\ncanonical_url: "https?:\/\/[^"]+\/docs\/layout-engine\/"\n[\s\S]*?---\n\n# /,
    );
    expect(copied).toContain(`\n---\n\n# ${title}\n`);
    expect(copied).toBe(await (await page.request.get('/docs/layout-engine.md')).text());
  });

  test('copies an open page for a signed-out reader too, from a trailing-slash address', async ({ page }) => {
    await page.goto('/docs/Norigin-Spatial-Navigation/');
    await hydrated(page);
    const title = await page.getByRole('heading', { level: 1 }).first().innerText();
    await page.getByRole('button', { name: 'Copy page as Markdown' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();
    expect(await clipboardText(page)).toContain(`\n---\n\n# ${title}\n`);
  });

  test.describe('when the Markdown cannot be fetched', () => {
    // Chromium logs the refused download as an error; that refusal is the case under test.
    test.use({ allowedConsoleErrors: /status of 503/ });

    test('says it copied nothing, and offers the Markdown to open', async ({ page, baseURL }) => {
      await signIn(page, String(baseURL), partnerReader);
      await page.route('**/docs/layout-engine.md', (route) => route.fulfill({ status: 503, body: 'down' }));
      await page.goto('/docs/layout-engine/');
      await hydrated(page);
      await page.evaluate(() => navigator.clipboard.writeText('before'));
      await page.getByRole('button', { name: 'Copy page as Markdown' }).click();
      const alert = page.getByRole('alert').filter({ hasText: 'Not copied: the portal answered 503.' });
      await expect(alert).toBeVisible();
      await expect(alert.getByRole('link', { name: 'Open the Markdown' })).toHaveAttribute(
        'href',
        '/docs/layout-engine.md',
      );
      expect(await clipboardText(page)).toBe('before');
    });
  });
});
