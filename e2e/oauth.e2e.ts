import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser, BrowserContext } from '@playwright/test';

import { startSession } from '../scripts/portal-client.mjs';
import { expect, signInWithEmail, test } from './fixtures';
import { adminReader, emulatorReaders, MCP_TOOLS, partnerReader } from './readers';

/*
 * An assistant connects to /mcp from nothing, as the MCP authorization specification says: the
 * official MCP SDK client with its OAuth client provider discovers the portal's authorization
 * server, registers itself, and sends the reader to sign in and consent in a real Chromium
 * against the real Auth Emulator. No token is pasted anywhere.
 */

/** Where the assistant's redirect lands: a local server that keeps the code, as a desktop assistant's does. */
async function callbackServer(): Promise<{ url: string; code: Promise<string>; close(): void }> {
  let deliver: (code: string) => void = () => undefined;
  const code = new Promise<string>((resolve) => (deliver = resolve));
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    response.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
    const value = url.searchParams.get('code');
    if (value) deliver(value);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/callback`, code, close: () => server.close() };
}

/** The SDK's OAuth client provider, keeping what a real assistant keeps, in memory. */
class AssistantAuth implements OAuthClientProvider {
  private client: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = '';
  authorizationUrl: URL | null = null;

  constructor(private readonly callback: string) {}

  get redirectUrl(): string {
    return this.callback;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'E2E Assistant',
      redirect_uris: [this.callback],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

const text = (result: unknown): string =>
  ((result as { content?: { type: string; text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('\n');

/**
 * Connects the SDK client from nothing: the first connection is refused and names the
 * authorization server; the reader signs in and allows it in Chromium; the second connects.
 */
async function connectFromNothing(
  browser: Browser,
  base: string,
  reader: { email: string; password: string },
): Promise<{ client: Client; auth: AssistantAuth; context: BrowserContext }> {
  const callback = await callbackServer();
  try {
    const auth = new AssistantAuth(callback.url);
    const mcpUrl = new URL(`${base}/mcp`);
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth });
    await expect(new Client({ name: 'portal-e2e', version: '1.0.0' }).connect(first)).rejects.toThrow(/Unauthorized/);
    expect(auth.authorizationUrl?.pathname).toBe('/oauth/authorize');

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(String(auth.authorizationUrl));
    // The portal's own sign-in, then back to the consent page.
    await expect(page).toHaveURL(/\/login\?next=%2Foauth%2Fconsent%2F/);
    await signInWithEmail(page, reader.email, reader.password);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Allow E2E Assistant to read the docs as you?');
    await expect(page.locator('main')).toContainText(reader.email);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(callback.url));

    await first.finishAuth(await callback.code);
    const client = new Client({ name: 'portal-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: auth }));
    return { client, auth, context };
  } finally {
    callback.close();
  }
}

test.describe('an assistant signs in to /mcp with OAuth', () => {
  test('connects from nothing as the partner, lists the tools and reads a partner page, never a staff-only one', async ({
    browser,
    baseURL,
  }) => {
    const base = String(baseURL);
    const { client, context } = await connectFromNothing(browser, base, partnerReader);
    await context.close();
    const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(tools).toEqual(MCP_TOOLS);
    const page = await client.callTool({ name: 'read_page', arguments: { path: '/docs/layout-engine/' } });
    expect(page.isError).toBeFalsy();
    expect(text(page)).toMatch(/^---\n[\s\S]*?\n---\n\n# Layout Engine\n/);

    // The leak check of this surface: the guidelines are staff-only, by every tool.
    const staffPage = await client.callTool({
      name: 'read_page',
      arguments: { path: '/docs/frontend-guidelines/' },
    });
    expect(staffPage.isError).toBe(true);
    const sections = text(await client.callTool({ name: 'list_sections', arguments: {} }));
    expect(sections).not.toContain('frontend-guidelines');
    const search = text(await client.callTool({ name: 'search_docs', arguments: { query: 'GitFlow', limit: 20 } }));
    expect(search).not.toContain('/docs/frontend-guidelines/');
    const changelog = await client.callTool({
      name: 'latest_changelog',
      arguments: { package: 'frontend-guidelines' },
    });
    expect(changelog.isError).toBe(true);
    await client.close();
  });

  test('is refused within a second once its reader is disabled', async ({ browser, baseURL }) => {
    const base = String(baseURL);
    const partner = await emulatorReaders.create({ groups: ['partner'] });
    const { client, context } = await connectFromNothing(browser, base, partner);
    await context.close();
    expect(
      (await client.callTool({ name: 'read_page', arguments: { path: '/docs/layout-engine/' } })).isError,
    ).toBeFalsy();

    const adminCookie = await startSession(base, await emulatorReaders.signIn(adminReader.email, adminReader.password));
    const started = performance.now();
    const disabled = await fetch(`${base}/api/admin/readers/${partner.uid}/disable`, {
      method: 'POST',
      headers: { cookie: adminCookie, origin: base },
    });
    expect(disabled.status).toBe(200);
    const refusal = await client.callTool({ name: 'read_page', arguments: { path: '/docs/layout-engine/' } }).then(
      () => null,
      (error: Error) => error,
    );
    const elapsed = performance.now() - started;
    expect(refusal, 'the disabled reader’s assistant still read a page').not.toBeNull();
    console.log(`OAuth client refused ${Math.round(elapsed)} ms after the disable was asked for`);
    expect(elapsed).toBeLessThan(1000);
    await client.close().catch(() => undefined);
  });

  test('shows the app under Connected apps on /account, where Revoke ends its access', async ({ browser, baseURL }) => {
    const base = String(baseURL);
    const partner = await emulatorReaders.create({ groups: ['partner'] });
    const { client, context } = await connectFromNothing(browser, base, partner);
    const page = await context.newPage();
    await page.goto(`${base}/account`);
    const apps = page.getByRole('region', { name: 'Connected apps' });
    const row = apps.getByRole('row', { name: /E2E Assistant/ });
    await expect(row).toBeVisible();
    await expect(row).not.toContainText('never');
    await row.getByRole('button', { name: 'Revoke E2E Assistant' }).click();
    await page.getByRole('button', { name: 'Revoke app' }).click();
    await expect(apps.getByRole('status').first()).toContainText('E2E Assistant can no longer read for you.');
    await expect(apps).toContainText('No app reads for you.');
    const refusal = await client.callTool({ name: 'read_page', arguments: { path: '/docs/layout-engine/' } }).then(
      () => null,
      (error: Error) => error,
    );
    expect(refusal, 'a revoked app still read a page').not.toBeNull();
    await context.close();
  });
});
