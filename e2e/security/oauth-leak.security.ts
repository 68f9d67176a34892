import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, test } from '@playwright/test';

import { unitsOfGroups } from '@portal/access';

import { startSession } from '../../scripts/portal-client.mjs';
import { oauthTokens } from '../../tools/lib/oauth-client.mjs';
import { demoReader, emulatorReaders, partnerReader } from '../readers';

/*
 * The OAuth surface of /mcp, tried for leaks with canaries: sentences that only staff-only
 * pages of this build have (each internal page's longest line of prose that no partner or
 * open page carries). A partner's OAuth access token, got through registration, sign-in and
 * consent, asks every MCP tool for them: read_page of each staff-only page in every
 * spelling, search_docs for their words, list_sections, latest_changelog, get_symbol and
 * api_changes of each package name those pages have. No answer may carry a canary.
 */

/** A partner's OAuth access token for /mcp: registration, the authorize request, sign-in (a session) and consent. */
async function partnerAccessToken(base: string): Promise<string> {
  const session = await startSession(base, await emulatorReaders.signIn(partnerReader.email, partnerReader.password));
  return (await oauthTokens(base, session, 'Leak test')).accessToken;
}

interface Entry {
  url: string;
  file: string;
  access: 'public' | 'private';
  units: string[];
}

const buildDir = fileURLToPath(new URL('../../site/build/', import.meta.url));

/** The staff-only pages' Markdown twins and a canary of each. */
function staffCanaries(): { url: string; canary: string }[] {
  const manifest = JSON.parse(readFileSync(join(buildDir, 'portal-manifest.json'), 'utf8')) as {
    entries: Record<string, Entry>;
  };
  const markdown = Object.values(manifest.entries).filter((entry) => entry.url.endsWith('.md'));
  const partner = unitsOfGroups(['partner']);
  const partnerReads = (entry: Entry) => entry.units.some((unit) => partner.includes(unit));
  const text = (entry: Entry) => readFileSync(join(buildDir, entry.file), 'utf8');
  const others = markdown
    .filter((entry) => entry.access === 'public' || partnerReads(entry))
    .map(text)
    .join('\n');
  const found: { url: string; canary: string }[] = [];
  for (const entry of markdown.filter((e) => e.access === 'private' && !partnerReads(e))) {
    const lines = text(entry)
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^[A-Za-z][^|`<>[\]]{50,}$/.test(line) && !others.includes(line))
      .sort((a, b) => b.length - a.length);
    if (lines[0]) found.push({ url: entry.url, canary: lines[0] });
  }
  return found;
}

test('a partner’s OAuth token never reads a staff-only canary through any MCP tool', async ({ baseURL }) => {
  const base = String(baseURL);
  const canaries = staffCanaries();
  expect(canaries.length, 'staff-only pages with a sentence of their own').toBeGreaterThan(10);
  const client = new Client({ name: 'oauth-leak', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${await partnerAccessToken(base)}` } },
    }),
  );
  const answers: string[] = [];
  const ask = async (name: string, args: Record<string, unknown>) =>
    answers.push(JSON.stringify(await client.callTool({ name, arguments: args })));

  // The token reads: a partner page comes back whole, so an empty answer below is the gate's doing.
  const partnerPage = await client.callTool({ name: 'read_page', arguments: { path: '/docs/layout-engine/' } });
  expect(JSON.stringify(partnerPage)).toContain('# Layout Engine');
  await ask('list_sections', {});
  for (const { url, canary } of canaries) {
    const page = url.replace(/\.md$/, '/');
    for (const path of [url, page, page.toUpperCase(), `${base}${page}`, `${page}?x=1`, `${page}#top`])
      await ask('read_page', { path });
    const words = canary.match(/[A-Za-z]{6,}/g) ?? [];
    await ask('search_docs', { query: words.slice(0, 3).join(' ') || canary.slice(0, 60), limit: 20 });
    const pkg = url.split('/')[2] ?? 'x';
    await ask('latest_changelog', { package: pkg });
    await ask('get_symbol', { package: pkg, name: words[0] ?? 'index' });
    await ask('api_changes', { package: pkg, from: '1.0.0' });
  }
  await client.close();
  const all = answers.join('\n');
  const leaked = canaries.filter(
    ({ canary }) => all.includes(canary) || all.includes(JSON.stringify(canary).slice(1, -1)),
  );
  console.log(`OAuth leak test: ${canaries.length} canaries, ${answers.length} MCP calls, ${leaked.length} leaked`);
  expect(leaked).toEqual([]);

  // The canaries are real: staff read the first one through the same tool.
  const staffCookie = await startSession(base, await emulatorReaders.signIn(demoReader.email, demoReader.password));
  const made = await fetch(`${base}/api/tokens`, {
    method: 'POST',
    headers: { cookie: staffCookie, origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'leak test control', days: 7 }),
  });
  const staff = new Client({ name: 'oauth-leak-control', version: '1.0.0' });
  await staff.connect(
    new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${((await made.json()) as { token: string }).token}` } },
    }),
  );
  const [first] = canaries;
  const read = JSON.stringify(await staff.callTool({ name: 'read_page', arguments: { path: first?.url } }));
  expect(read).toContain(JSON.stringify(first?.canary).slice(1, -1));
  await staff.close();
});
