import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { inject } from 'vitest';

import { buildApp, SESSION_COOKIE } from '../app.js';
import { Identity } from '../auth/identity.js';
import { Store } from '../db/store.js';
import { loadConfig } from '../config.js';
import { EmulatorReaders } from './readers.js';

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
  // A test that names its own database (DATABASE_URL) gets a store of its own.
  const store = env.DATABASE_URL ? undefined : await sharedStore();
  const app = await buildApp({ config, logger, identity, store });
  if (identity) app.addHook('onClose', () => identity.close());
  return { app, readers: new EmulatorReaders(inject('emulatorHost'), inject('emulatorProjectId')) };
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
