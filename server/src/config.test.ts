import { describe, expect, it } from 'vitest';

import { loadConfig } from './config.js';
import { makeTestSite, miniSite } from './test-site.js';

describe('loadConfig', () => {
  it('defaults to port 3000 on loopback', async () => {
    const siteDir = await makeTestSite(miniSite);
    expect(loadConfig({ SITE_DIR: siteDir })).toEqual({ host: '127.0.0.1', port: 3000, siteDir });
  });

  it('takes PORT and HOST from the environment', async () => {
    const siteDir = await makeTestSite(miniSite);
    expect(loadConfig({ SITE_DIR: siteDir, PORT: '4100', HOST: '0.0.0.0' })).toMatchObject({
      host: '0.0.0.0',
      port: 4100,
    });
  });

  it.each(['abc', '70000', '-1', '3000.5'])('names PORT when it is "%s"', async (value) => {
    const siteDir = await makeTestSite(miniSite);
    expect(() => loadConfig({ SITE_DIR: siteDir, PORT: value })).toThrow(
      `PORT must be a port number from 0 to 65535, got "${value}"`,
    );
  });

  it('names SITE_DIR and the fix when there is no build', () => {
    expect(() => loadConfig({ SITE_DIR: '/nonexistent/build' })).toThrow(
      'SITE_DIR /nonexistent/build holds no site build: run "npm run build" first',
    );
  });
});
