import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';

import { buildApp } from './app.js';
import { makeTestSite, miniSite } from './test-site.js';

describe('the portal server', () => {
  let app: FastifyInstance;

  beforeAll(async () => {
    app = await buildApp({ siteDir: await makeTestSite(miniSite) });
  });
  afterAll(() => app.close());

  it('serves a page under another case and without its trailing slash', async () => {
    const response = await app.inject({ url: '/DOCS/Layout-Engine' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.body).toBe('<h1>Layout Engine</h1>');
  });

  it('ignores the query string', async () => {
    const response = await app.inject({ url: '/docs/?ref=newsletter' });
    expect(response.body).toBe('<h1>Getting Started</h1>');
  });

  it('answers an unknown path with the not-found page and status 404', async () => {
    const response = await app.inject({ url: '/docs/no-such-page' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toBe('<h1>Page Not Found</h1>');
  });

  it('answers a path that tries to climb out of the site with the not-found page', async () => {
    for (const url of ['/docs/%2e%2e/%2e%2e/etc/passwd', '/docs/..%2f..%2fpackage.json', '/docs/%5c..%5c404.html']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).toBe('<h1>Page Not Found</h1>');
    }
  });

  it('answers a path with broken percent-encoding with 400', async () => {
    const response = await app.inject({ url: '/docs/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/docs/layout-engine/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-length']).toBe(String('<h1>Layout Engine</h1>'.length));
    expect(response.body).toBe('');
  });

  it('lets browsers keep hashed assets forever and revalidate pages', async () => {
    const asset = await app.inject({ url: '/assets/js/main.0f3c9a.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await app.inject({ url: '/' });
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });
});
