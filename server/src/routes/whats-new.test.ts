import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiModels } from '@portal/built-site/api-reference';

import { startMailCatcher, type MailCatcher } from '../../../tools/lib/mail-catcher.mjs';
import { freePort } from '../../../tools/lib/ports.mjs';
import { Mailer } from '../mail.js';
import { ORIGIN, makeToken, readyTestApp, signInCookie } from '../test/harness.js';
import { sendDigests } from '../whats-new/digest.js';
import type { EmulatorReaders } from '../test/readers.js';
import { makeTestSite, miniSite, miniSiteFileReaders, STAFF_CANARY } from '../test/test-site.js';

const HOUR = 3_600_000;
/** The package's id: its own in this run (the test files of a worker share one database). */
const ID = `layout-${randomUUID().slice(0, 8)}`;
const quiet = { info: () => undefined, warn: () => undefined };
/** A link's path and query: the test's requests go to the app itself. */
const local = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};
const MCP_HEADERS = { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };

const page = (title: string, text = '') =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p>${' '.repeat(300)}</body></html>`;
const fn = (name: string, declaration: string, summary = '') => ({
  name,
  slug: name,
  kind: 'function',
  declaration,
  summary,
});

/** The layout package (partners read it) at 1.0.0, and at 1.1.0 a minor release that changes setFocus and removes pause. */
function layoutModels(newest: boolean): ApiModels {
  const v1 = {
    version: '1.0.0',
    date: new Date(Date.now() - 60 * 24 * HOUR).toISOString(),
    path: newest ? '/docs/layout-engine/1.0.0/api/' : '/docs/layout-engine/api/',
    symbols: [fn('setFocus', 'function setFocus(key: string): void'), fn('pause', 'function pause(): void')],
  };
  const v11 = {
    version: '1.1.0',
    date: new Date(Date.now() - HOUR).toISOString(),
    path: '/docs/layout-engine/api/',
    symbols: [fn('setFocus', 'function setFocus(key: string, options: FocusOptions): void')],
  };
  return {
    id: ID,
    package: '@noriginmedia/layout-kit',
    title: 'Layout Engine',
    basePath: '/docs/layout-engine/',
    latest: newest ? '1.1.0' : '1.0.0',
    versions: newest ? [v11, v1] : [v1],
  };
}

/** A package only staff read, with a release in the same window: partners never hear of it. */
const guideModels: ApiModels = {
  id: 'guides',
  package: '@noriginmedia/guides-kit',
  title: 'Guides kit',
  basePath: '/docs/frontend-guidelines/',
  latest: '5.0.0',
  versions: [
    {
      version: '5.0.0',
      date: new Date(Date.now() - HOUR).toISOString(),
      path: '/docs/frontend-guidelines/api/',
      symbols: [fn('review', 'function review(): void', STAFF_CANARY)],
    },
    { version: '4.0.0', date: new Date(Date.now() - 90 * 24 * HOUR).toISOString(), path: null as never, symbols: [] },
  ],
};

async function site(newest: boolean): Promise<string> {
  return makeTestSite(
    {
      ...miniSite,
      'docs/layout-engine.md': newest
        ? '# Layout Engine\n\nNow with rows that scroll.\n'
        : (miniSite['docs/layout-engine.md'] ?? ''),
      'docs/layout-engine/api/index.html': page('API reference'),
      'docs/layout-engine/api/setFocus/index.html': page('setFocus'),
      'docs/layout-engine/api/setFocus.md': '# setFocus\n\nMoves the focus.\n',
      'docs/layout-engine/api/models.json': JSON.stringify(layoutModels(newest)),
      ...(newest
        ? {
            'docs/layout-engine/virtualisation/index.html': page('Virtualisation'),
            'docs/layout-engine/virtualisation.md': '# Virtualisation\n\nLong rows.\n',
            'docs/frontend-guidelines/api/index.html': page('API reference', STAFF_CANARY),
            'docs/frontend-guidelines/api/models.json': JSON.stringify(guideModels),
          }
        : {}),
    },
    {
      ...miniSiteFileReaders,
      '/docs/layout-engine/api/models.json': ['layout'],
      '/docs/layout-engine/api/setFocus.md': ['layout'],
      '/docs/layout-engine/virtualisation.md': ['layout'],
      '/docs/frontend-guidelines/api/models.json': ['internal'],
    },
  );
}

describe("what's new for you, through the gate", () => {
  let before: FastifyInstance;
  let after: FastifyInstance;
  let readers: EmulatorReaders;
  let catcher: MailCatcher;
  let partner: { cookie: string; email: string };
  let staff: { cookie: string; email: string };
  let feedUrl: string;
  let feedTokenId: string;
  /** After 1.0.0 was first served, before 1.1.0 was. */
  let betweenBuilds: Date;
  const start = new Date(Date.now() - 24 * HOUR).toISOString();

  beforeAll(async () => {
    catcher = await startMailCatcher();
    const env = { SMTP_URL: catcher.smtpUrl };
    ({ app: before, readers } = await readyTestApp(await site(false), env));
    await before.whatsNew.check();
    const signIn = async (groups: string[]) => {
      const account = await readers.create({ groups });
      return {
        cookie: await signInCookie(before, await readers.signIn(account.email, account.password)),
        email: account.email,
      };
    };
    partner = await signIn(['partner']);
    staff = await signIn(['staff']);
    // The partner reads setFocus's reference page and the package's page at 1.0.0, and asks for the digest.
    for (const url of ['/docs/layout-engine/api/setFocus', '/docs/layout-engine/'])
      expect((await before.inject({ url, headers: { cookie: partner.cookie } })).statusCode).toBe(200);
    await before.store.flush();
    const settings = await before.inject({
      method: 'PUT',
      url: '/api/whats-new/settings',
      headers: { cookie: partner.cookie, origin: ORIGIN },
      payload: { digest: 'release' },
    });
    expect(settings.statusCode, settings.body).toBe(200);
    const feed = await before.inject({
      method: 'POST',
      url: '/api/feed-tokens',
      headers: { cookie: partner.cookie, origin: ORIGIN },
      payload: { feed: 'whats-new' },
    });
    expect(feed.statusCode, feed.body).toBe(201);
    ({ url: feedUrl } = feed.json() as { url: string });
    feedTokenId = (feed.json() as { record: { id: string } }).record.id;
    betweenBuilds = new Date();
    // 1.1.0 is published and built: another gate serves it (the same database), records it and sends the digests.
    ({ app: after } = await readyTestApp(await site(true), env));
    await after.whatsNew.check();
  }, 60_000);
  afterAll(async () => {
    await before?.close();
    await after?.close();
    await catcher?.stop();
  });

  const news = (cookie: string, query = `since=${encodeURIComponent(start)}`) =>
    after.inject({ url: `/api/whats-new?${query}`, headers: { cookie } });

  it('puts the package first, the symbol the reader read first, with both signatures, and the pages that changed', async () => {
    const response = await news(partner.cookie);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.packages.map((pkg: { id: string }) => pkg.id)).toEqual([ID]);
    const release = body.packages[0].releases[0];
    expect(release).toMatchObject({ version: '1.1.0', comparedWith: '1.0.0', breaking: true });
    expect(release.symbols[0]).toMatchObject({
      name: 'setFocus',
      change: 'changed',
      use: 'read',
      before: 'function setFocus(key: string): void',
      after: 'function setFocus(key: string, options: FocusOptions): void',
    });
    expect(release.symbols[1]).toMatchObject({ name: 'pause', change: 'removed', use: null });
    expect(body.changedPages.map((p: { url: string }) => p.url)).toEqual(['/docs/layout-engine/']);
    expect(body.newPages.map((p: { url: string }) => p.url)).toContain('/docs/layout-engine/virtualisation/');
    // Staff hear of the guides kit too; the partner, never.
    expect(response.body).not.toContain(STAFF_CANARY);
    expect(response.body).not.toContain('guides');
    const forStaff = (await news(staff.cookie)).json();
    expect(forStaff.packages.map((pkg: { id: string }) => pkg.id).sort()).toEqual(['guides', ID].sort());
  });

  it('answers the same as Markdown, to a personal token, and through MCP', async () => {
    const markdown = await after.inject({
      url: `/account/whats-new.md?since=${encodeURIComponent(start)}`,
      headers: { cookie: partner.cookie },
    });
    expect(markdown.statusCode).toBe(200);
    expect(markdown.headers['content-type']).toContain('text/markdown');
    expect(markdown.body).toContain('you read `setFocus`; 1.1.0 changed its signature');
    expect(markdown.body).toContain('**Breaking in a non-major release**');
    const token = await makeToken(after, partner.cookie);
    const viaToken = await after.inject({
      url: `/api/whats-new?since=${encodeURIComponent(start)}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(viaToken.json().packages[0].releases[0].symbols[0].name).toBe('setFocus');
    const mcp = await after.inject({
      method: 'POST',
      url: '/mcp',
      headers: { authorization: `Bearer ${token}`, ...MCP_HEADERS },
      payload: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'whats_new', arguments: { since: start } },
      },
    });
    const result = mcp.json().result;
    expect(result.content[0].text).toContain('### Layout Engine 1.1.0');
    expect(mcp.body).not.toContain(STAFF_CANARY);
  });

  it('answers bad input with its reason', async () => {
    const tomorrow = new Date(Date.now() + 24 * HOUR).toISOString().slice(0, 10);
    for (const [query, words] of [
      [`since=${tomorrow}`, /future/],
      ['since=last%20week', /must be a date/],
      ['package=no-such-package', /No package "no-such-package"/],
      // A package the reader may not read is one that does not exist.
      ['package=guides', /No package "guides"/],
    ] as const) {
      const response = await news(partner.cookie, query);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error).toMatch(words);
    }
    expect((await after.inject({ url: '/api/whats-new' })).statusCode).toBe(401);
  });

  it('serves the reader’s feed to its feed token, which reads nothing else, until it is revoked', async () => {
    const path = local(feedUrl);
    const feed = await after.inject({ url: path });
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.headers['content-type']).toContain('application/atom+xml');
    expect(feed.body).toContain('<title type="html"><![CDATA[Layout Engine 1.1.0 (breaking)]]></title>');
    expect(feed.body).toContain('setFocus');
    expect(feed.body).not.toContain(STAFF_CANARY);
    const secret = new URL(feedUrl).searchParams.get('token') ?? '';
    // Nothing but its feed: not the API, not a page, not a package's feed.
    expect(
      (await after.inject({ url: '/api/whats-new', headers: { authorization: `Bearer ${secret}` } })).statusCode,
    ).toBe(401);
    expect(
      (await after.inject({ url: '/docs/layout-engine.md', headers: { authorization: `Bearer ${secret}` } }))
        .statusCode,
    ).toBe(401);
    expect((await after.inject({ url: `/feeds/packages/layout.atom?token=${secret}` })).statusCode).toBe(404);
    const revoked = await after.inject({
      method: 'DELETE',
      url: `/api/feed-tokens/${feedTokenId}`,
      headers: { cookie: partner.cookie, origin: ORIGIN },
    });
    expect(revoked.statusCode).toBe(204);
    expect((await after.inject({ url: path })).statusCode).toBe(404);
  });

  it('mails the digest once per release, with a one-click unsubscribe that works', async () => {
    const mine = async () =>
      (await catcher.messages()).filter((mail) => mail.to.some((to) => to.address === partner.email));
    await expect.poll(async () => (await mine()).length, { timeout: 5_000 }).toBe(1);
    await after.whatsNew.check();
    await before.whatsNew.check();
    expect(await mine()).toHaveLength(1);
    const [mail] = await mine();
    expect(mail?.subject).toBe('New release: Layout Engine 1.1.0');
    expect(mail?.text).toContain('before (1.0.0): `function setFocus(key: string): void`');
    // The message as it was sent: MailDev's JSON leaves these headers out.
    // Unfolded: a long header goes on over lines that start with a space (RFC 5322).
    const source = (await readFile(mail?.source ?? '', 'utf8')).replace(/\r?\n[ \t]+/g, ' ');
    expect(source).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const link = /^List-Unsubscribe: <([^>]+)>\s*$/m.exec(source)?.[1] ?? '';
    expect(link).toMatch(/^http:\/\/localhost:\d+\/mail\/unsubscribe\?u=/);
    // What a mail client does (RFC 8058): a POST with no cookie.
    const stop = await after.inject({
      method: 'POST',
      url: local(link),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(stop.statusCode, stop.body).toBe(200);
    const settings = await after.inject({ url: '/api/whats-new/settings', headers: { cookie: partner.cookie } });
    expect(settings.json().digest).toBe('off');
    const forged = await after.inject({ method: 'POST', url: local(link).replace(/s=[^&]+/, 's=forged') });
    expect(forged.statusCode).toBe(400);
  });

  it('keeps a digest the mail server did not take, and sends it once when it is back', async () => {
    const account = await readers.create({ groups: ['partner'] });
    const cookie = await signInCookie(after, await readers.signIn(account.email, account.password));
    const on = await after.inject({
      method: 'PUT',
      url: '/api/whats-new/settings',
      headers: { cookie, origin: ORIGIN },
      payload: { digest: 'release' },
    });
    expect(on.statusCode).toBe(200);
    // As if they had turned it on before 1.1.0 came (and read the package: it is watched).
    await after.store.db.query(`update reader_settings set digest_from = $2 where uid = $1`, [
      account.uid,
      betweenBuilds.toISOString(),
    ]);
    await after.inject({ url: '/docs/layout-engine/', headers: { cookie } });
    await after.store.flush();
    const round = (smtpUrl: string) => {
      const mailer = new Mailer({ smtpUrl, from: 'docs@norigin.example', log: quiet });
      return sendDigests({
        db: after.store.db,
        site: after.site,
        mailer,
        readerByUid: (uid) => after.identity.readerByUid(uid),
        origin: 'https://docs.example',
        unsubscribeUrl: (uid) => `https://docs.example/mail/unsubscribe?u=${uid}`,
        now: new Date(),
        log: quiet,
      }).finally(() => mailer.close());
    };
    const down = `smtp://127.0.0.1:${await freePort()}`;
    expect(await round(down)).toEqual({ sent: 0, failed: 1 });
    expect(await round(catcher.smtpUrl)).toEqual({ sent: 1, failed: 0 });
    expect(await round(catcher.smtpUrl)).toEqual({ sent: 0, failed: 0 });
    const theirs = (await catcher.messages()).filter((mail) => mail.to.some((to) => to.address === account.email));
    expect(theirs.map((mail) => mail.subject)).toEqual(['New release: Layout Engine 1.1.0']);
  });

  it('shows the reader what it keeps of their reading, and clears it', async () => {
    const kept = (await after.inject({ url: '/api/whats-new/settings', headers: { cookie: partner.cookie } })).json();
    expect(kept.kept.pages).toBeGreaterThanOrEqual(2);
    const cleared = await after.inject({
      method: 'DELETE',
      url: '/api/whats-new/reading',
      headers: { cookie: partner.cookie, origin: ORIGIN },
    });
    expect(cleared.statusCode).toBe(200);
    const after2 = (await after.inject({ url: '/api/whats-new/settings', headers: { cookie: partner.cookie } })).json();
    expect(after2.kept.pages).toBe(0);
    // With nothing read, nothing is "the symbol you use".
    const body = (await news(partner.cookie)).json();
    expect(body.packages[0].releases[0].symbols.every((s: { use: unknown }) => s.use === null)).toBe(true);
  });
});
