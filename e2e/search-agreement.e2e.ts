import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from '@playwright/test';

import { expect, pagesToOpen, test } from './fixtures';
import { adminReader, demoReader, partnerReader, signInThroughApi } from './readers';

/**
 * What readers type: package names with dots and dashes, API names, prefixes, phrases, words
 * of staff-only pages (which a partner must not find), and nonsense (which nobody may).
 */
const QUERIES = [
  'dash.js',
  'hls.js',
  'player-adapter-dash.js',
  'useFocusable',
  'setFocus',
  'FocusContext',
  'focus boundary',
  'layout engine',
  'virtualis',
  'widevine',
  'drm licence',
  'tizen',
  'webos',
  'subtitles',
  'preload',
  'shaka',
  'whitelabel brand',
  'theme tokens',
  'react native',
  'playback error',
  'tracking manager',
  'bitmovin',
  'play',
  'installation',
  'chromecast',
  'release flow',
  'jenkins',
  'xyzzyqq',
  'zqxjkw player',
  'musk',
];
const NONSENSE = ['xyzzyqq', 'zqxjkw player', 'musk'];

const docsDir = fileURLToPath(new URL('../site/docs/', import.meta.url));

/** The doc whose Markdown has a heading that starts with `symbol` as a whole word: the page that defines it. */
function definingPage(symbol: string): string {
  const heading = new RegExp(`^#+ \`?${symbol}\\b(?![-.])`, 'm');
  const pages = readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
    // Older versions of a synced package (`…/2.3.0/README.md`) are not searched by default, and
    // its API reference (`…/api/`) is made from its declarations, not written.
    .filter(
      (file) =>
        file.endsWith('.md') &&
        !/\/\d+\.\d+\.\d+\//.test(file) &&
        !/(^|\/)api\//.test(file) &&
        heading.test(readFileSync(join(docsDir, file), 'utf8')),
    )
    .map((file) => `/docs/${file.replace(/(^|\/)README\.md$/, '$1').replace(/\.md$/, '')}`);
  expect(pages, `pages with a heading starting "${symbol}"`).toHaveLength(1);
  return pages[0] as string;
}

/** The search box's result pages for `query`, in order, as paths, once the box knows who searches. */
async function boxResults(page: Page, query: string, signedIn: boolean): Promise<string[]> {
  const dialog = page.getByRole('dialog', { name: 'Search the documentation' });
  if (!(await dialog.isVisible())) {
    await expect(page.locator('html[data-has-hydrated="true"]')).toBeAttached({ timeout: 30_000 });
    await page.keyboard.press('Control+k');
    await expect(dialog).toBeVisible();
  }
  const box = dialog.getByRole('searchbox', { name: 'Search' });
  // Until the session answers, the box searches the public pages only.
  await expect(box).toHaveAttribute('placeholder', signedIn ? /you can read/ : /public pages/);
  await box.fill(query);
  const list = dialog.getByRole('list', { name: 'Search results' });
  // The first query of a page loads Pagefind's engine and the reader's index chunks.
  await expect(list).toHaveAttribute('data-answered', query, { timeout: 30_000 });
  await expect(dialog.getByRole('status')).not.toHaveText(/not available/);
  return list
    .locator(':scope > li > a')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLAnchorElement).href).pathname));
}

/** `/api/search`'s result pages for `query`, with the page's cookies (or none), as paths. */
async function apiResults(page: Page, query: string, limit = 8): Promise<string[]> {
  const response = await page.request.get(`/api/search?q=${encodeURIComponent(query)}&limit=${limit}`);
  expect(response.status(), `/api/search?q=${query}`).toBe(200);
  return ((await response.json()) as { results: { url: string }[] }).results.map((result) => result.url);
}

/** An MCP client with a personal token made on /account for the page's signed-in reader. */
async function mcpFor(page: Page, baseURL: string): Promise<Client> {
  const made = await page.request.post('/api/tokens', {
    data: { name: 'search agreement', days: 1 },
    headers: { origin: baseURL },
  });
  expect(made.status()).toBe(201);
  const { token } = (await made.json()) as { token: string };
  const client = new Client({ name: 'portal-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

async function mcpResults(client: Client, query: string): Promise<string[]> {
  const answer = await client.callTool({ name: 'search_docs', arguments: { query, limit: 8 } });
  expect(answer.isError, `search_docs "${query}"`).toBeFalsy();
  return ((answer.structuredContent as { results: { url: string }[] }).results ?? []).map((result) => result.url);
}

test.describe('one search on every surface', () => {
  test.describe.configure({ timeout: 120_000 });

  // All 30 with `npm run test:e2e:full`, every third in `npm test`.
  const queries = pagesToOpen(QUERIES);
  test(`a partner gets the same pages in the same order from the search box, /api/search and MCP for ${queries.length} queries`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(300_000);
    await signInThroughApi(page, String(baseURL), partnerReader);
    await page.goto('/docs/');
    const client = await mcpFor(page, String(baseURL));
    let found = 0;
    try {
      for (const query of queries) {
        const box = await boxResults(page, query, true);
        expect(await apiResults(page, query), `"${query}": /api/search vs the search box`).toEqual(box);
        expect(await mcpResults(client, query), `"${query}": MCP vs the search box`).toEqual(box);
        if (NONSENSE.includes(query)) expect(box, `"${query}" is nonsense`).toEqual([]);
        // Nothing outside the partner's units: no internal guideline, no administration page.
        for (const path of box) expect(path, query).not.toMatch(/^\/(docs\/frontend-guidelines|admin)\b/i);
        if (box.length > 0) found += 1;
      }
    } finally {
      await client.close();
    }
    // The comparison means something only if most queries find pages.
    const nonsense = queries.filter((query) => NONSENSE.includes(query)).length;
    expect(found).toBeGreaterThanOrEqual(queries.length - nonsense - 2);
  });

  // The open section is the npm package's own README since it is synced (site/sources.yaml);
  // from 3.x that README leaves the API to the guide, which partners and staff read, and to the
  // open section's API reference, made from the package's declarations (issue 32).
  test('setFocus finds its reference page first for everyone, and the guide that explains it for partners and staff', async ({
    page,
    baseURL,
  }) => {
    const defining = definingPage('setFocus');
    const reference = '/docs/Norigin-Spatial-Navigation/api/setFocus';
    await page.goto('/docs/');
    const signedOut = await boxResults(page, 'setFocus', false);
    expect(signedOut[0], 'signed out, search box').toBe(reference);
    expect(signedOut, 'signed out, search box').not.toContain(defining);
    expect(await apiResults(page, 'setFocus'), 'signed out, /api/search').not.toContain(defining);
    for (const [who, reader] of [
      ['partner', partnerReader],
      ['staff', demoReader],
    ] as const) {
      await signInThroughApi(page, String(baseURL), reader);
      await page.goto('/docs/');
      const box = await boxResults(page, 'setFocus', true);
      // More than the one page: the ranking, not a lone hit, put it first.
      expect(box.length, who).toBeGreaterThan(3);
      expect(box[0], `${who}, search box`).toBe(reference);
      expect(box, `${who}, search box`).toContain(defining);
      expect((await apiResults(page, 'setFocus'))[0], `${who}, /api/search`).toBe(reference);
    }
  });

  test('an administrator searches like everyone else, and nonsense finds nothing for them either', async ({
    page,
    baseURL,
  }) => {
    await signInThroughApi(page, String(baseURL), adminReader);
    await page.goto('/docs/');
    const client = await mcpFor(page, String(baseURL));
    try {
      for (const query of ['useFocusable', 'release flow', 'xyzzyqq']) {
        const box = await boxResults(page, query, true);
        expect(await apiResults(page, query), query).toEqual(box);
        expect(await mcpResults(client, query), query).toEqual(box);
        if (query === 'xyzzyqq') expect(box).toEqual([]);
        else expect(box.length, query).toBeGreaterThan(0);
      }
      // An administrator reads the internal guidelines: their search finds them.
      expect(await apiResults(page, 'release flow')).toContainEqual(
        expect.stringMatching(/^\/docs\/frontend-guidelines\//),
      );
    } finally {
      await client.close();
    }
  });

  test('a signed-out reader finds nothing for nonsense in the search box or /api/search', async ({ page }) => {
    await page.goto('/docs/');
    for (const query of NONSENSE) {
      expect(await boxResults(page, query, false), query).toEqual([]);
      expect(await apiResults(page, query), query).toEqual([]);
    }
  });
});
