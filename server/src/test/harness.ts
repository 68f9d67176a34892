import type { RequestListener } from 'node:http';

import type { FastifyInstance, FastifyServerOptions, InjectOptions } from 'fastify';
import lightMyRequest from 'light-my-request';
import { inject } from 'vitest';

import { SESSION_COOKIE } from '@portal/contract/names';

import { buildApp } from '../app.js';
import { Identity } from '../auth/identity.js';
import { Store } from '../db/store.js';
import { loadConfig } from '../config.js';
import { EmulatorReaders } from './readers.js';
import { SwitchableProxy } from './switchable-proxy.js';

export const ORIGIN = 'http://localhost:80';

const quiet = { warn: () => undefined, info: () => undefined, error: () => undefined };
let shared: Promise<Store> | undefined;

/**
 * One store for the gate servers of a test file: an in-memory PGlite (PostgreSQL in
 * WebAssembly), opened once because each opening costs a second or two.
 */
export function sharedStore(): Promise<Store> {
  shared ??= Store.open({ database: { kind: 'pglite', dataDir: null }, retentionDays: 180, log: quiet });
  return shared;
}

/** A gate server on a miniature site, talking to the test run's Auth Emulator (or `emulatorHost`). */
export async function testApp(
  siteDir: string,
  env: Record<string, string> = {},
  logger?: FastifyServerOptions['logger'],
  clock?: () => number,
): Promise<{ app: FastifyInstance; readers: EmulatorReaders }> {
  const emulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST ?? inject('emulatorHost');
  // What the process entry (server.ts) does: the Admin SDK reads the emulator from here.
  process.env.FIREBASE_AUTH_EMULATOR_HOST = emulatorHost;
  const config = loadConfig({
    SITE_DIR: siteDir,
    FIREBASE_AUTH_EMULATOR_HOST: emulatorHost,
    FIREBASE_PROJECT_ID: inject('emulatorProjectId'),
    SESSION_RATE_LIMIT: '1000',
    // One key for every server of a test, as replicas share one.
    SESSION_SECRET: 'test-secret-for-every-gate-server-in-this-run',
    ...env,
  });
  const identity = clock
    ? new Identity({
        config: config.identity,
        secret: config.session.secret,
        sessionMaxAgeSeconds: config.session.maxAgeSeconds,
        cacheTtlSeconds: config.session.cacheTtlSeconds,
        timeoutMs: config.session.identityTimeoutMs,
        clock,
      })
    : undefined;
  // A test that names its own database (DATABASE_URL, or a PGlite folder in DATA_DIR) gets a store of its own.
  const store = env.DATABASE_URL || env.DATA_DIR ? undefined : await sharedStore();
  const app = throughServer(await buildApp({ config, logger, identity, store, clock }));
  if (identity) app.addHook('onClose', () => identity.close());
  return { app, readers: new EmulatorReaders(inject('emulatorHost'), inject('emulatorProjectId')) };
}

const fastifyInjects = new WeakMap<FastifyInstance, FastifyInstance['inject']>();

/** Fastify's own inject for an app of `testApp`: Fastify's request cycle only, never the fast path. */
export function fastifyInject(app: FastifyInstance): FastifyInstance['inject'] {
  const original = fastifyInjects.get(app);
  if (!original) throw new Error('not an app of testApp');
  return original;
}

/**
 * Makes `app.inject` take the way a request over the network takes: the server's request
 * listener, which asks the gate's fast path (fast-path.ts) first and Fastify after it.
 * Fastify's own inject starts at Fastify's handler and would never meet the fast path.
 */
export function throughServer(app: FastifyInstance): FastifyInstance {
  const listener = app.server.listeners('request')[0] as RequestListener;
  const fastifyInject = app.inject.bind(app);
  fastifyInjects.set(app, fastifyInject);
  const viaServer = async (options: InjectOptions | string) => {
    await app.ready();
    return lightMyRequest(listener, options);
  };
  app.inject = ((options?: InjectOptions | string) =>
    options === undefined ? fastifyInject() : viaServer(options)) as FastifyInstance['inject'];
  return app;
}

/** A figure of the gate's /metrics (a test's inject comes from this machine, so it may read them). */
export async function metric(app: FastifyInstance, name: string): Promise<number> {
  const text = (await app.inject({ url: '/metrics' })).body;
  const line = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  if (!line) throw new Error(`no metric ${name}`);
  return Number(line[1]);
}

/** Waits until the gate's store has applied its schema (it does so at start, off the request path). */
export async function storeReady(app: FastifyInstance): Promise<void> {
  for (let tries = 0; tries < 300; tries++) {
    if ((await metric(app, 'portal_database_ready')) === 1) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the store never became ready');
}

/** `testApp`, once its store has applied its schema (it does so at start, off the request path). */
export async function readyTestApp(
  ...args: Parameters<typeof testApp>
): Promise<{ app: FastifyInstance; readers: EmulatorReaders }> {
  const made = await testApp(...args);
  await storeReady(made.app);
  return made;
}

/**
 * `readyTestApp` talking to the emulator through a proxy the test switches off (the identity
 * service out of reach), with no verification cache: every private request asks the service.
 */
export async function testAppBehindProxy(
  siteDir: string,
): Promise<{ app: FastifyInstance; readers: EmulatorReaders; proxy: SwitchableProxy }> {
  const { proxy, host } = await SwitchableProxy.start(inject('emulatorHost'));
  const env = { FIREBASE_AUTH_EMULATOR_HOST: host, SESSION_CACHE_TTL_SECONDS: '0', IDENTITY_TIMEOUT_MS: '1000' };
  return { ...(await readyTestApp(siteDir, env)), proxy };
}

/** Makes a personal access token with a session's cookie, as the account page does; its secret. */
export async function makeToken(
  app: FastifyInstance,
  cookie: string,
  name = 'test token',
  days = 1,
  scope: 'read' | 'admin' = 'read',
): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/tokens',
    headers: { cookie, origin: ORIGIN },
    payload: { name, days, scope },
  });
  if (created.statusCode !== 201) throw new Error(`no token made: ${created.statusCode} ${created.body}`);
  return (created.json() as { token: string }).token;
}

/** Starts a session the way the login page does and returns the cookie header value. */
export async function signInCookie(app: FastifyInstance, idToken: string): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/session',
    headers: { origin: ORIGIN, host: 'localhost:80' },
    payload: { idToken },
  });
  if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error('no session cookie');
  return `${SESSION_COOKIE}=${cookie.value}`;
}
