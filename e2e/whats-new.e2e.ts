import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { accountMenu, expect, hydrated, test } from './fixtures';
import { partnerReader, signInThroughApi as signIn } from './readers';

/*
 * "What's new for you" (/account/whats-new) in Chromium, over the build the tests serve: the
 * open package's releases since a date the reader picks, the symbol they read first with both
 * signatures, watching, the feed with its feed token, and the same answer to their assistant.
 * (A release published after the reader read, the sidebar's mark and the digest in MailDev are
 * in server/src/routes/whats-new.test.ts, which publishes a second build to the same database.)
 */

const SINCE = '2026-08-01';

test.describe('what’s new for you', () => {
  test('sends an anonymous visitor to sign in, and answers its API 401', async ({ request }) => {
    const page = await request.get('/account/whats-new', { maxRedirects: 0 });
    expect(page.status()).toBe(302);
    expect(page.headers().location).toMatch(/\/login\?next=%2Faccount%2Fwhats-new$/);
    expect((await request.get('/api/whats-new')).status()).toBe(401);
  });

  test('a partner who read setFocus at 3.1.0 finds it first in 3.2.1, with both signatures, and takes the feed', async ({
    page,
    baseURL,
  }) => {
    const base = String(baseURL);
    await signIn(page, base, partnerReader);
    // Reading the symbol's reference page of the older release makes it "a symbol you use".
    expect((await page.goto('/docs/Norigin-Spatial-Navigation/3.1.0/api/setFocus'))?.status()).toBe(200);
    await page.goto('/docs/');
    await hydrated(page);
    await accountMenu(page).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'What’s new for you' }).click();
    await expect(page).toHaveURL(/\/account\/whats-new$/);
    await expect(page.getByRole('heading', { level: 1, name: 'What’s new for you' })).toBeVisible();

    // Page views are written once a second: the answer orders by them once they are in.
    await page.waitForTimeout(1_500);
    await page.getByLabel('Since').fill(SINCE);
    const card = page.getByRole('region', { name: 'Norigin Spatial Navigation' });
    // The first answer after a build works out the facts of its pages: on a busy machine, seconds.
    await expect(card.getByRole('heading', { level: 4, name: /^3\.2\.1/ })).toBeVisible({ timeout: 20_000 });
    await expect(card).toContainText('Compared with 3.1.0, the previous release in version order.');
    await expect(card).toContainText('Breaking in a non-major release.');
    const release = card.locator('div').filter({ has: page.getByRole('heading', { level: 4, name: /^3\.2\.1/ }) });
    const first = release.getByRole('listitem').first();
    await expect(first).toContainText('You read setFocus; 3.2.1 changed its signature.');
    await expect(first.getByRole('figure')).toHaveCount(2);
    await expect(first.getByText('Before (3.1.0)')).toBeVisible();
    await expect(first.getByText('After (3.2.1)')).toBeVisible();
    await expect(first.getByRole('link', { name: 'setFocus' })).toHaveAttribute(
      'href',
      '/docs/Norigin-Spatial-Navigation/3.2.1/api/setFocus',
    );

    // The reader read the package: it is watched; they can stop.
    const watching = card.getByRole('button', { name: 'Watching' });
    await expect(watching).toHaveAttribute('aria-pressed', 'true');
    await watching.click();
    await expect(card.getByRole('button', { name: 'Watch', exact: true })).toHaveAttribute('aria-pressed', 'false');

    // A feed address, shown once, that a feed reader takes as it is.
    await page.getByRole('button', { name: 'Make a feed address' }).click();
    const address = await page.getByLabel('Feed address', { exact: true }).innerText();
    expect(address).toMatch(/\/feeds\/whats-new\.atom\?token=ndf_/);
    const feed = await page.request.get(address.trim(), { headers: { cookie: '' } });
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toContain('application/atom+xml');

    // And a feed of the package's releases, every one of them.
    await card.getByRole('button', { name: 'Feed of its releases: Norigin Spatial Navigation' }).click();
    const packageFeed = await page
      .getByLabel('Feed address of Norigin Spatial Navigation', { exact: true })
      .innerText();
    expect(packageFeed).toMatch(/\/feeds\/packages\/norigin-spatial-navigation\.atom\?token=ndf_/);
    const releases = await page.request.get(packageFeed.trim(), { headers: { cookie: '' } });
    expect(releases.status()).toBe(200);
    expect(await releases.text()).toContain('Norigin Spatial Navigation 2.3.0');

    // The reader's assistant gets the same answer from MCP's whats_new.
    const made = await page.request.post('/api/tokens', {
      data: { name: 'what’s new', days: 1 },
      headers: { origin: new URL(page.url()).origin },
    });
    const { token } = (await made.json()) as { token: string };
    const client = new Client({ name: 'portal-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${new URL(page.url()).origin}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${token}` } },
      }),
    );
    const answer = await client.callTool({ name: 'whats_new', arguments: { since: SINCE } });
    await client.close();
    const text = (answer.content as { text: string }[])[0]?.text ?? '';
    expect(text).toContain('### Norigin Spatial Navigation 3.2.1');
    expect(text).toContain('you read `setFocus`; 3.2.1 changed its signature');
  });
});
