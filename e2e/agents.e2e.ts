import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from '@playwright/test';

import { startSession } from '../scripts/portal-client.mjs';
import { demoReader, emulatorReaders, MCP_TOOLS, partnerReader } from './readers';

const docsDir = fileURLToPath(new URL('../site/docs/', import.meta.url));

/** A word of a staff-only page (the front-end guidelines) that no partner or public page has. */
function staffOnlyWord(): { word: string; path: string } {
  const all = readdirSync(docsDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md'));
  const texts = new Map(all.map((file) => [file, readFileSync(join(docsDir, file), 'utf8').toLowerCase()]));
  const internal =
    /^(frontend-guidelines|tv-app-training|knowledge-nugget-app|player-manager-mono-custom-test|france24-demo)\//;
  for (const file of all.filter((f) => f.startsWith('frontend-guidelines/'))) {
    const words = [
      ...new Set(
        texts
          .get(file)
          ?.replace(/```[\s\S]*?```/g, '')
          .match(/\b[a-z]{9,}\b/g) ?? [],
      ),
    ];
    const word = words.find((candidate) =>
      all.every((other) => internal.test(other) || !texts.get(other)?.includes(candidate.slice(0, 7))),
    );
    if (word) return { word, path: `/docs/${file.replace(/\.md$/, '')}` };
  }
  throw new Error('no guideline has a word of its own');
}

async function tokenFor(
  baseURL: string,
  reader: { email: string; password: string },
  days = 30,
): Promise<{ token: string; id: string; cookie: string }> {
  const cookie = await startSession(baseURL, await emulatorReaders.signIn(reader.email, reader.password));
  const response = await fetch(`${baseURL}/api/tokens`, {
    method: 'POST',
    headers: { cookie, origin: baseURL, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'e2e assistant', days }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { token: string; record: { id: string } };
  return { token: body.token, id: body.record.id, cookie };
}

async function mcp(baseURL: string, token: string): Promise<Client> {
  const client = new Client({ name: 'portal-e2e', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

const text = (result: unknown): string =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

test.describe('the MCP server, with the SDK’s own client', () => {
  test('searches a synced package at its newest release, or at the version asked for', async ({ baseURL }) => {
    const base = String(baseURL);
    const { token } = await tokenFor(base, partnerReader);
    const client = await mcp(base, token);
    const paths = async (args: Record<string, unknown>) =>
      (
        (await client.callTool({ name: 'search_docs', arguments: { query: 'setFocus', limit: 10, ...args } }))
          .structuredContent as { results: { url: string }[] }
      ).results.map((result) => result.url);
    const newest = await paths({});
    // The symbol's reference page first, then the pages that use it.
    expect(newest[0]).toBe('/docs/Norigin-Spatial-Navigation/api/setFocus');
    expect(newest.filter((path) => /\/\d+\.\d+\.\d+\//.test(path))).toEqual([]);
    const older = await paths({ version: '2.3.0' });
    expect(older[0]).toBe('/docs/Norigin-Spatial-Navigation/2.3.0/api/setFocus');
    expect(older).toContain('/docs/Norigin-Spatial-Navigation/2.3.0/');
    expect(older.every((path) => path.startsWith('/docs/Norigin-Spatial-Navigation/2.3.0/'))).toBe(true);
    expect(
      text(await client.callTool({ name: 'search_docs', arguments: { query: 'setFocus', version: '0.0.1' } })),
    ).toBe('No pages of version 0.0.1 match "setFocus".');
    await client.close();
  });

  test('lists its tools, and a partner’s token finds and reads partner pages but nothing staff-only', async ({
    baseURL,
  }) => {
    const base = String(baseURL);
    const { token } = await tokenFor(base, partnerReader);
    const client = await mcp(base, token);
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(tools).toEqual(MCP_TOOLS);
    // The open package's API, from the build's reference.
    const symbol = await client.callTool({
      name: 'get_symbol',
      arguments: { package: '@noriginmedia/norigin-spatial-navigation', name: 'useFocusable', version: '2.3.0' },
    });
    expect(text(symbol)).toContain('useFocusable: a hook of @noriginmedia/norigin-spatial-navigation 2.3.0');
    expect(text(symbol)).toContain('/docs/Norigin-Spatial-Navigation/2.3.0/api/useFocusable');
    const changes = await client.callTool({
      name: 'api_changes',
      arguments: { package: 'norigin-spatial-navigation', from: '2.3.0', to: '3.3.0' },
    });
    expect(text(changes)).toMatch(/Added \(\d+\):\n- /);

    const found = await client.callTool({ name: 'search_docs', arguments: { query: 'dash.js' } });
    expect(text(found)).toContain('/docs/player-manager-mono/packages/player-adapter-dash.js/');
    const page = await client.callTool({ name: 'read_page', arguments: { path: '/docs/layout-engine/' } });
    expect(text(page)).toMatch(/^---\n[\s\S]*?\n---\n\n# Layout Engine\n/);
    expect(page.isError).toBeFalsy();

    const secret = staffOnlyWord();
    expect(text(await client.callTool({ name: 'search_docs', arguments: { query: secret.word } }))).not.toContain(
      '/docs/frontend-guidelines/',
    );
    const staffPage = await client.callTool({ name: 'read_page', arguments: { path: secret.path } });
    const missing = await client.callTool({ name: 'read_page', arguments: { path: '/docs/no-such-page' } });
    expect(staffPage.isError).toBe(true);
    // A page outside the reader's groups reads exactly like one that does not exist.
    expect(text(staffPage).replace(secret.path, 'X')).toBe(text(missing).replace('/docs/no-such-page', 'X'));
    const sections = text(await client.callTool({ name: 'list_sections', arguments: {} }));
    expect(sections).toContain('## Player Framework');
    expect(sections).not.toContain('frontend-guidelines');
    const changelog = text(
      await client.callTool({ name: 'latest_changelog', arguments: { package: 'player-adapter-shaka' } }),
    );
    expect(changelog).toMatch(/^## \d+\.\d+\.\d+/);
    const badArguments = await client
      .callTool({ name: 'read_page', arguments: { path: 42 } })
      .catch((error: Error) => error);
    expect(String((badArguments as { isError?: boolean }).isError ?? badArguments)).toMatch(/true|Invalid|invalid/);
    await client.close();

    // Staff find the same word in the guidelines, so the partner's empty answer is the gate's doing.
    const staff = await tokenFor(base, demoReader);
    const staffClient = await mcp(base, staff.token);
    expect(text(await staffClient.callTool({ name: 'search_docs', arguments: { query: secret.word } }))).toContain(
      '/docs/frontend-guidelines/',
    );
    await staffClient.close();
  });

  test('refuses a revoked token, a missing one, and one in the URL', async ({ baseURL }) => {
    const base = String(baseURL);
    const { token, id, cookie } = await tokenFor(base, partnerReader);
    const revoked = await fetch(`${base}/api/tokens/${id}`, { method: 'DELETE', headers: { cookie, origin: base } });
    expect(revoked.status).toBe(204);
    // The SDK's transport error carries the HTTP status as its code.
    await expect(mcp(base, token)).rejects.toMatchObject({ code: 401 });
    const { token: other } = await tokenFor(base, partnerReader);
    const inUrl = new Client({ name: 'portal-e2e', version: '1.0.0' });
    await expect(
      inUrl.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp?token=${other}`))),
    ).rejects.toMatchObject({ code: 401 });
  });
});

test.describe('the search API, llms.txt and the Markdown pages', () => {
  test('answer a partner’s token with partner and public pages only', async ({ baseURL }) => {
    const base = String(baseURL);
    const { token } = await tokenFor(base, partnerReader);
    const headers = { authorization: `Bearer ${token}` };
    const secret = staffOnlyWord();
    const search = async (q: string) =>
      (
        (await (await fetch(`${base}/api/search?q=${encodeURIComponent(q)}&limit=10`, { headers })).json()) as {
          results: { url: string; mdUrl: string; title: string }[];
        }
      ).results;
    const dash = await search('dash.js');
    expect(dash[0]).toMatchObject({
      url: '/docs/player-manager-mono/packages/player-adapter-dash.js/',
      mdUrl: '/docs/player-manager-mono/packages/player-adapter-dash.js.md',
    });
    expect(
      (await search(secret.word)).map((r) => r.url).filter((url) => url.startsWith('/docs/frontend-guidelines/')),
    ).toEqual([]);
    const index = await (await fetch(`${base}/llms.txt`, { headers })).text();
    expect(index).toContain(`(${base}/docs/player-manager-mono.md)`);
    expect(index).not.toContain('frontend-guidelines');
    const full = await (await fetch(`${base}/llms-full.txt`, { headers })).text();
    expect(full.toLowerCase()).not.toContain(secret.word);
    expect((await fetch(`${base}${secret.path}.md`, { headers })).status).toBe(403);
    const anonymous = await (await fetch(`${base}/llms.txt`)).text();
    expect(anonymous).toContain('/docs/Norigin-Spatial-Navigation.md');
    expect(anonymous).not.toContain('/docs/player-manager-mono.md');
  });
});
