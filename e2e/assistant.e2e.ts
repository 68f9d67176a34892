import type { Page } from '@playwright/test';

import { accountMenu, expect, hydrated, test } from './fixtures';
import { partnerReader, signInThroughApi as signIn } from './readers';

/*
 * "Use with your assistant" (/account/assistant): a page of the account unit, so only a
 * signed-in reader reads it. It shows the MCP address at the page's own origin and install
 * links that carry exactly that address.
 */

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const clipboardText = (page: Page): Promise<string> => page.evaluate(() => navigator.clipboard.readText());

test.describe('the “Use with your assistant” page', () => {
  test('sends an anonymous visitor to sign in, and serves none of the page', async ({ page, request }) => {
    const response = await request.get('/account/assistant', { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toMatch(/\/login\?next=%2Faccount%2Fassistant$/);
    expect(await response.text()).not.toContain('Install in Cursor');

    await page.goto('/account/assistant');
    await expect(page).toHaveURL(/\/login\?next=%2Faccount%2Fassistant$/);
  });

  test('a partner reaches it from the account menu, copies the address, and each install link carries it', async ({
    page,
    baseURL,
  }) => {
    const base = String(baseURL);
    await signIn(page, base, partnerReader);
    await page.goto('/docs/');
    await hydrated(page);
    await accountMenu(page).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Use with your assistant' }).click();
    await expect(page).toHaveURL(/\/account\/assistant$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Use with your assistant' })).toBeVisible();

    const origin = new URL(page.url()).origin;
    const url = `${origin}/mcp`;
    await expect(page.getByLabel('MCP address', { exact: true })).toHaveText(url);
    await page.getByRole('button', { name: 'Copy the MCP address' }).click();
    await expect(page.getByText('Copied the MCP address.')).toBeVisible();
    expect(await clipboardText(page)).toBe(url);

    const href = async (name: string): Promise<string> =>
      String(await page.getByRole('link', { name, exact: true }).getAttribute('href'));
    const vscode = await href('Install in VS Code');
    expect(vscode.startsWith('vscode:mcp/install?')).toBe(true);
    expect(JSON.parse(decodeURIComponent(vscode.slice('vscode:mcp/install?'.length)))).toEqual({
      name: 'norigin-docs',
      type: 'http',
      url,
    });
    const insiders = await href('Install in VS Code Insiders');
    expect(insiders).toBe(vscode.replace(/^vscode:/, 'vscode-insiders:'));
    const cursor = new URL(await href('Install in Cursor'));
    expect(`${cursor.protocol}//${cursor.host}${cursor.pathname}`).toBe(
      'cursor://anysphere.cursor-deeplink/mcp/install',
    );
    expect(cursor.searchParams.get('name')).toBe('norigin-docs');
    expect(JSON.parse(Buffer.from(String(cursor.searchParams.get('config')), 'base64').toString('utf8'))).toEqual({
      url,
    });

    await expect(page.getByLabel('Claude Code command', { exact: true })).toHaveText(
      `claude mcp add --transport http norigin-docs ${url}`,
    );
    expect(JSON.parse(String(await page.getByLabel('MCP configuration', { exact: true }).textContent()))).toEqual({
      mcpServers: { 'norigin-docs': { type: 'http', url } },
    });

    // Personal tokens are the fallback, on the account page, which links back here.
    await page.getByRole('link', { name: 'your account' }).last().click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('main').getByRole('link', { name: 'Use with your assistant' })).toHaveAttribute(
      'href',
      '/account/assistant',
    );
  });
});
