import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ORIGIN, signInCookie, testAppBehindProxy } from './test/harness.js';
import type { EmulatorReaders } from './test/readers.js';
import type { SwitchableProxy } from './test/switchable-proxy.js';
import { makeTestSite, PRIVATE_CANARY } from './test/test-site.js';

// Its own file, so its own process: the Admin SDK reads the emulator host from the environment.
describe('when the identity service cannot be reached', () => {
  let app: FastifyInstance;
  let readers: EmulatorReaders;
  let proxy: SwitchableProxy;

  beforeAll(async () => {
    ({ app, readers, proxy } = await testAppBehindProxy(await makeTestSite()));
  });
  afterAll(async () => {
    await app.close();
    await proxy.close();
  });

  it('fails closed for private requests, keeps public pages, and recovers by itself', async () => {
    const reader = await readers.create();
    const cookie = await signInCookie(app, await readers.signIn(reader.email, reader.password));
    // A fresh, valid sign-in to present while the service is down.
    const idToken = await readers.signIn(reader.email, reader.password);
    expect((await app.inject({ url: '/docs/layout-engine/', headers: { cookie } })).statusCode).toBe(200);

    proxy.down();
    const page = await app.inject({ url: '/docs/layout-engine/', headers: { cookie } });
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['retry-after']).toBe('5');
    expect(page.body).toContain('We cannot check your sign-in right now');
    expect(page.body).toContain('href="/docs/layout-engine/">Try again</a>');
    expect(page.body).not.toContain(PRIVATE_CANARY);
    expect(page.headers['set-cookie']).toBeUndefined(); // nobody is signed out for the service's fault

    const asset = await app.inject({ url: '/assets/js/1a2b3c4d.5e6f7a8b.js', headers: { cookie } });
    expect(asset.statusCode).toBe(503);
    expect(asset.body).toBe('');
    expect((await app.inject({ url: '/api/session', headers: { cookie } })).statusCode).toBe(503);
    expect((await app.inject({ url: '/' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/docs/Norigin-Spatial-Navigation/', headers: { cookie } })).statusCode).toBe(200);
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { origin: ORIGIN },
      payload: { idToken },
    });
    expect(signIn.statusCode).toBe(503);
    expect(signIn.json()).toEqual({
      error: 'The sign-in service is not answering; try again shortly.',
      code: 'unavailable',
    });
    expect(signIn.headers['set-cookie']).toBeUndefined();

    // Anonymous readers are still sent to sign in, not shown an error.
    expect((await app.inject({ url: '/docs/layout-engine/' })).statusCode).toBe(302);

    proxy.up = true;
    const back = await app.inject({ url: '/docs/layout-engine/', headers: { cookie } });
    expect(back.statusCode).toBe(200);
    expect(back.body).toContain(PRIVATE_CANARY);
    const signInAgain = await app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { origin: ORIGIN },
      payload: { idToken },
    });
    expect(signInAgain.statusCode).toBe(200);
  });
});
