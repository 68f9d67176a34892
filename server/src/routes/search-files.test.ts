import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SEARCH_FILES_PATH, unpackSearchFiles } from '@portal/search';

import { signInCookie, testApp } from '../test/harness.js';
import type { EmulatorReaders } from '../test/readers.js';
import { makeTestSite, miniSite, miniSiteFileReaders, PRIVATE_CANARY, STAFF_CANARY } from '../test/test-site.js';

/** Three bundles of the miniature site: public, the layout engine's (partners read it), the internal one (staff only). */
const bundles = {
  'search/public/pagefind-entry.json': '{"version":"1.5.2","languages":{}}',
  'search/public/portal-words.json': '{"open":1}',
  'search/layout/pagefind-entry.json': '{"version":"1.5.2","languages":{"en":{}}}',
  'search/layout/portal-words.json': JSON.stringify({ [PRIVATE_CANARY]: 1 }),
  'search/layout/pagefind.en_1a.pf_meta': `meta ${PRIVATE_CANARY}`,
  'search/layout/index/en_2b.pf_index': `index ${PRIVATE_CANARY}`,
  'search/layout/fragment/en_3c.pf_fragment': `fragment ${PRIVATE_CANARY}`,
  'search/layout/older/1.2.0/portal-words.json': JSON.stringify({ [PRIVATE_CANARY]: 2 }),
  'search/internal/portal-words.json': JSON.stringify({ [STAFF_CANARY]: 1 }),
  'search/internal/index/en_4d.pf_index': `index ${STAFF_CANARY}`,
};
const readers = {
  ...Object.fromEntries(Object.keys(bundles).map((path) => [`/${path}`, ['layout'] as string[]])),
  '/search/public/pagefind-entry.json': 'public' as const,
  '/search/public/portal-words.json': 'public' as const,
  '/search/internal/portal-words.json': ['internal'],
  '/search/internal/index/en_4d.pf_index': ['internal'],
};

describe(`GET ${SEARCH_FILES_PATH}`, () => {
  let app: FastifyInstance;
  let emulator: EmulatorReaders;
  let partner: string;
  let staff: string;

  beforeAll(async () => {
    ({ app, readers: emulator } = await testApp(
      await makeTestSite({ ...miniSite, ...bundles }, { ...miniSiteFileReaders, ...readers }),
    ));
    const signIn = async (groups: string[]) => {
      const account = await emulator.create({ groups });
      return signInCookie(app, await emulator.signIn(account.email, account.password));
    };
    [partner, staff] = await Promise.all([signIn(['partner']), signIn(['staff'])]);
  });
  afterAll(() => app.close());

  const ask = async (cookie: string | null, list = '/search/public/,/search/layout/,/search/internal/') => {
    const response = await app.inject({
      url: `${SEARCH_FILES_PATH}?bundles=${encodeURIComponent(list)}`,
      headers: cookie ? { cookie } : {},
    });
    return {
      response,
      files: response.statusCode === 200 ? await unpackSearchFiles(new Uint8Array(response.rawPayload).buffer) : {},
    };
  };
  const text = (body: ArrayBuffer | undefined) => Buffer.from(body ?? new ArrayBuffer(0)).toString('utf8');

  it('gives each reader the first files of the bundles they may read, and only those', async () => {
    const anonymous = await ask(null);
    expect(anonymous.response.statusCode).toBe(200);
    expect(anonymous.response.headers['cache-control']).toBe('private, no-store');
    expect(Object.keys(anonymous.files).sort()).toEqual([
      '/search/public/pagefind-entry.json',
      '/search/public/portal-words.json',
    ]);
    expect(Object.values(anonymous.files).map(text).join(' ')).not.toContain(PRIVATE_CANARY);

    const { files } = await ask(partner);
    expect(Object.keys(files).sort()).toEqual([
      '/search/layout/index/en_2b.pf_index',
      '/search/layout/pagefind-entry.json',
      '/search/layout/pagefind.en_1a.pf_meta',
      '/search/layout/portal-words.json',
      '/search/public/pagefind-entry.json',
      '/search/public/portal-words.json',
    ]);
    expect(text(files['/search/layout/index/en_2b.pf_index'])).toBe(`index ${PRIVATE_CANARY}`);
    expect(JSON.parse(text(files['/search/layout/portal-words.json']))).toEqual({ [PRIVATE_CANARY]: 1 });
    // Result fragments are fetched one by one, as a result is read; the staff bundle not at all.
    expect(Object.values(files).map(text).join(' ')).not.toMatch(new RegExp(`fragment|${STAFF_CANARY}`));

    const both = await ask(staff);
    expect(text(both.files['/search/internal/index/en_4d.pf_index'])).toBe(`index ${STAFF_CANARY}`);
  });

  it("answers an older release's bundle, and a bundle the build does not have with nothing", async () => {
    const { files } = await ask(partner, '/search/layout/older/1.2.0/,/search/player/');
    expect(Object.keys(files)).toEqual(['/search/layout/older/1.2.0/portal-words.json']);
    expect((await ask(null, '/search/layout/older/1.2.0/')).files).toEqual({});
  });

  it('refuses what is not a list of bundles with a reason', async () => {
    for (const list of [
      '/docs/',
      '/search/layout',
      '/search/../docs/',
      '/search/layout/index/',
      '/search/layout/older/x/',
    ]) {
      const { response } = await ask(partner, list);
      expect(response.statusCode, list).toBe(400);
      expect(response.json().error, list).toMatch(/Not a search bundle/);
    }
    const many = Array.from({ length: 257 }, (_, i) => `/search/unit-${i}/`).join(',');
    expect((await ask(partner, many)).response.json().error).toMatch(/At most 256 bundles/);
    const none = await app.inject({ url: SEARCH_FILES_PATH, headers: { cookie: partner } });
    expect(none.statusCode).toBe(400);
  });
});
