import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { startSession } from '../scripts/portal-client.mjs';
import { expect, hydrated, test } from './fixtures';
import { adminReader, emulatorReaders, signedInContext as signedIn } from './readers';

/*
 * Issue 33's "Done when": a search made through MCP (the SDK's own client, with a personal
 * token) appears in the admin insights as an assistant's search, with its client's name; the
 * insights name pages by their title and unit, not their path.
 */

test('an MCP search appears in the insights as an assistant’s, named by its token', async ({ browser, baseURL }) => {
  const base = String(baseURL);
  const reader = await emulatorReaders.create({ groups: ['partner'] });
  const cookie = await startSession(base, await emulatorReaders.signIn(reader.email, reader.password));
  const tokenName = `Claude Code e2e ${Date.now().toString(36)}`;
  const made = await fetch(`${base}/api/tokens`, {
    method: 'POST',
    headers: { cookie, origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ name: tokenName, days: 1 }),
  });
  expect(made.status).toBe(201);
  const { token } = (await made.json()) as { token: string };

  const client = new Client({ name: 'portal-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  const nonsense = `vkqz-${Date.now().toString(36)}`;
  const found = await client.callTool({ name: 'search_docs', arguments: { query: nonsense } });
  expect(found.isError).toBeFalsy();
  const read = await client.callTool({ name: 'read_page', arguments: { path: '/docs/layout-engine/' } });
  expect(read.isError).toBeFalsy();
  await client.close();

  const admin = await signedIn(browser, base, adminReader);
  const failed = admin.page.getByRole('table', { name: 'Assistants’ searches that found nothing' });
  await expect(async () => {
    await admin.page.goto('/admin/insights');
    await hydrated(admin.page);
    await admin.page.getByLabel('Readers in').selectOption('partner');
    await expect(failed.getByRole('row').filter({ hasText: nonsense })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 20_000 });
  const row = failed.getByRole('row').filter({ hasText: nonsense });
  await expect(row.getByRole('rowheader')).toHaveText(nonsense);
  await expect(row.getByRole('cell').nth(1)).toHaveText(tokenName);

  const clients = admin.page.getByRole('table', { name: 'By client' });
  const clientRow = clients.getByRole('row').filter({ hasText: tokenName });
  // One read (read_page), one search, which found nothing.
  await expect(clientRow.getByRole('cell')).toHaveText(['Personal token', '1', '1', '1']);

  // Not among the readers' own searches.
  await expect(
    admin.page.getByRole('region', { name: 'Readers’ searches that found nothing' }).getByText(nonsense),
  ).toHaveCount(0);

  // Pages by their title, with their unit below, never by their path.
  const mostRead = admin.page.getByRole('table', { name: 'Most read' });
  const headers = await mostRead.getByRole('rowheader').allInnerTexts();
  expect(headers.length).toBeGreaterThan(0);
  for (const header of headers) expect(header).toMatch(/^[^/].*\n.+/);
  await admin.context.close();
});
