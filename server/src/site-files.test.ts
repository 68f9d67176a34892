import { describe, expect, it } from 'vitest';

import { indexSiteFiles } from './site-files.js';
import { makeTestSite, miniSite } from './test-site.js';

describe('indexSiteFiles', () => {
  it('answers a page under any case and with or without its trailing slash', async () => {
    const files = await indexSiteFiles(await makeTestSite(miniSite));
    for (const path of ['/docs/layout-engine/', '/docs/layout-engine', '/DOCS/Layout-Engine', '/docs/LAYOUT-ENGINE/']) {
      expect(files.lookup(path)?.url).toBe('/docs/layout-engine/');
    }
    expect(files.lookup('/docs/layout-engine/changelog')?.url).toBe('/docs/layout-engine/CHANGELOG/');
  });

  it('treats a page whose name ends in .js as a page', async () => {
    const files = await indexSiteFiles(await makeTestSite(miniSite));
    const page = files.lookup('/docs/player-manager-mono/packages/player-adapter-dash.js');
    expect(page?.contentType).toBe('text/html; charset=utf-8');
  });

  it('marks only hashed assets immutable and types files by extension', async () => {
    const files = await indexSiteFiles(await makeTestSite(miniSite));
    expect(files.lookup('/assets/js/main.0f3c9a.js')).toMatchObject({
      immutable: true,
      contentType: 'text/javascript; charset=utf-8',
    });
    expect(files.lookup('/img/logo.svg')).toMatchObject({ immutable: false, contentType: 'image/svg+xml' });
    expect(files.lookup('/')?.immutable).toBe(false);
  });

  it('finds nothing for unknown or hostile paths', async () => {
    const files = await indexSiteFiles(await makeTestSite(miniSite));
    expect(files.lookup('/docs/unknown')).toBeUndefined();
    expect(files.lookup('/docs/layout-engine/index.html/..')).toBeUndefined();
    expect(files.lookup('/docs/%2e%2e/404.html')).toBeUndefined();
  });

  it('refuses a folder that is not a site build', async () => {
    await expect(indexSiteFiles(await makeTestSite({ 'index.html': '' }))).rejects.toThrow(/no 404.html/);
  });

  it('refuses two files that would answer the same path', async () => {
    const site = await makeTestSite({ ...miniSite, 'docs/Layout-Engine/index.html': 'other' });
    await expect(indexSiteFiles(site)).rejects.toThrow(/Two build files answer the same path/);
  });
});
