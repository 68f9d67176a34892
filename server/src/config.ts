import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';

import type { DatabaseConfig } from './db/database.js';
import { MANIFEST_FILE } from './manifest/manifest.js';

export interface IdentityConfig {
  projectId: string;
  /** Web API key and auth domain the login page's Firebase SDK needs (spec §5: no colon in either). */
  apiKey: string;
  authDomain: string;
  /** `host:port` of the Firebase Auth Emulator; null against a real Firebase project. */
  emulatorHost: string | null;
  /** Service-account JSON (production only; otherwise the SDK's application default credentials). */
  serviceAccountJson: string | null;
}

/**
 * Which proxies' `X-Forwarded-For` to believe for the client's address (rate limits, logs):
 * none, the nearest N hops, or the listed addresses and CIDR ranges.
 */
export type TrustProxy = false | number | string[];

export interface Config {
  host: string;
  port: number;
  trustProxy: TrustProxy;
  siteDir: string;
  production: boolean;
  /** The site's own origin when fixed (required in production); otherwise taken from the Host header. */
  publicOrigin: string | null;
  identity: IdentityConfig;
  session: {
    /** Lifetime of the session cookie in seconds (Firebase allows 5 minutes to 14 days). */
    maxAgeSeconds: number;
    /** How long a verified cookie is trusted without asking the identity service again. */
    cacheTtlSeconds: number;
    /** POST /api/session requests allowed per client address and minute. */
    rateLimitPerMinute: number;
    /**
     * Key the gate signs its cookie with (HMAC-SHA256) on top of Firebase's own signature,
     * so a changed cookie is refused before Firebase is asked, even the emulator's unsigned
     * ones. Every replica needs the same key. Random per start in development when unset.
     */
    secret: string;
    /** How long a request waits for the identity service before it is answered 503. */
    identityTimeoutMs: number;
  };
  /** PGlite in a data folder by default, or a PostgreSQL server (`DATABASE_URL`). */
  database: DatabaseConfig;
  audit: {
    /** Audit rows and reported searches older than this many days are deleted daily. */
    retentionDays: number;
    /** Whether the client address goes into the audit trail (off unless set). */
    storeClientIp: boolean;
    /** Whether each private page view goes into the audit trail (on unless set off). */
    pageViews: boolean;
    /** Most events held in memory while the database cannot be reached; beyond it they are dropped and counted. */
    queueLimit: number;
  };
  /** Seed demo readers' activity so the insights are not empty (development only; `npm start`). */
  demoData: boolean;
  /** Administrator API calls allowed per administrator and minute. */
  adminRateLimitPerMinute: number;
  /** Requests a minute one personal access token may make on each agent surface (TOKEN_RATE_LIMIT). */
  tokenRateLimitPerMinute: number;
  /** Redis, shared by replicas (logout deny-list, sign-in limit, the broadcast); null: this process alone. */
  redisUrl: string | null;
  /** Bearer token that /metrics requires; null: /metrics answers only direct loopback requests. */
  metricsToken: string | null;
}

export const DEMO_PROJECT_ID = 'demo-norigin-portal';
const DAY = 24 * 60 * 60;

/** Collects every problem with the settings, so all are reported at once. */
export class ConfigErrors {
  readonly messages: string[] = [];
  add(message: string): void {
    this.messages.push(message);
  }
}

/** Thrown with every problem found, one per line, so a wrong setup is fixed in one go. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

function integer(
  env: NodeJS.ProcessEnv,
  errors: { add(message: string): void },
  name: string,
  fallback: number,
  min: number,
  max: number,
  what: string,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isInteger(value) || value < min || value > max) {
    errors.add(`${name} must be ${what} from ${min} to ${max}, got "${raw}"`);
    return fallback;
  }
  return value;
}

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  return raw === '' ? undefined : raw;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function trustProxySetting(env: NodeJS.ProcessEnv, errors: ConfigErrors): TrustProxy {
  const raw = text(env, 'TRUST_PROXY');
  if (raw === undefined || raw === 'false') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops >= 1 && hops <= 10) return hops;
  }
  const parts = raw.split(',').map((part) => part.trim());
  const valid = (part: string): boolean => {
    const [address, bits, ...rest] = part.split('/');
    if (rest.length > 0 || !address) return false;
    const family = isIP(address);
    if (family === 0) return false;
    if (bits === undefined) return true;
    return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
  };
  if (parts.length > 0 && parts.every(valid)) return parts;
  errors.add(
    `TRUST_PROXY must be a number of proxy hops from 1 to 10, or the proxies' addresses or CIDR ranges separated by commas (such as 10.0.0.0/8,127.0.0.1), got "${raw}"; "true" is refused because it would believe any client's X-Forwarded-For`,
  );
  return false;
}

/** The database settings, shared by the server and the readers command (which writes the audit trail). */
export function loadDatabaseConfig(
  env: NodeJS.ProcessEnv,
  errors: { add(message: string): void },
  cwd: string,
): DatabaseConfig {
  const databaseUrl = text(env, 'DATABASE_URL');
  if (databaseUrl === undefined)
    return { kind: 'pglite', dataDir: resolve(cwd, text(env, 'DATA_DIR') ?? 'data', 'pglite') };
  try {
    const url = new URL(databaseUrl);
    if (!['postgres:', 'postgresql:'].includes(url.protocol)) throw new Error();
    return { kind: 'postgres', url: databaseUrl };
  } catch {
    errors.add('DATABASE_URL must be a PostgreSQL URL such as postgres://portal@db.internal:5432/portal');
    return { kind: 'pglite', dataDir: resolve(cwd, text(env, 'DATA_DIR') ?? 'data', 'pglite') };
  }
}

/**
 * The identity-service half of the settings, shared by the server and the readers command.
 * Development (the default) talks to the Firebase Auth Emulator; production
 * (NODE_ENV=production) needs a real Firebase project and refuses the emulator.
 */
export function loadIdentityConfig(
  env: NodeJS.ProcessEnv,
  errors: { add(message: string): void },
  cwd: string,
): IdentityConfig {
  const production = env.NODE_ENV === 'production';
  // The Admin SDK reads FIREBASE_AUTH_EMULATOR_HOST itself; AUTH_EMULATOR_PORT is the short form `npm start` uses.
  const emulatorPort = integer(env, errors, 'AUTH_EMULATOR_PORT', 9099, 1, 65535, 'a port number');
  let emulatorHost: string | null = text(env, 'FIREBASE_AUTH_EMULATOR_HOST') ?? null;
  if (production) {
    if (emulatorHost !== null) {
      errors.add(
        'FIREBASE_AUTH_EMULATOR_HOST is set, but NODE_ENV is production: the emulator signs no tokens, so the portal refuses to run. Unset it.',
      );
    }
    emulatorHost = null;
  } else {
    emulatorHost ??= `127.0.0.1:${emulatorPort}`;
    if (!/^[\w.-]+:\d{1,5}$/.test(emulatorHost)) {
      errors.add(`FIREBASE_AUTH_EMULATOR_HOST must be host:port such as 127.0.0.1:9099, got "${emulatorHost}"`);
    }
  }

  const projectId = text(env, 'FIREBASE_PROJECT_ID') ?? (production ? undefined : DEMO_PROJECT_ID);
  if (projectId === undefined) errors.add('FIREBASE_PROJECT_ID is required in production');
  else if (!/^[a-z0-9-]{4,40}$/.test(projectId))
    errors.add(`FIREBASE_PROJECT_ID is not a Firebase project id: "${projectId}"`);
  else if (!production && !projectId.startsWith('demo-')) {
    errors.add(
      `FIREBASE_PROJECT_ID must start with "demo-" with the emulator, so nothing reaches a real project; got "${projectId}"`,
    );
  }

  const apiKey = text(env, 'FIREBASE_API_KEY') ?? (production ? undefined : 'demo-api-key');
  const authDomain =
    text(env, 'FIREBASE_AUTH_DOMAIN') ?? (production || !projectId ? undefined : `${projectId}.firebaseapp.com`);
  if (apiKey === undefined) errors.add('FIREBASE_API_KEY (the web API key) is required in production');
  else if (apiKey.includes(':')) errors.add('FIREBASE_API_KEY must not contain a colon');
  if (authDomain === undefined)
    errors.add('FIREBASE_AUTH_DOMAIN is required in production (such as my-project.firebaseapp.com)');
  else if (authDomain.includes(':')) errors.add('FIREBASE_AUTH_DOMAIN must not contain a colon');

  const serviceAccountJson = text(env, 'FIREBASE_SERVICE_ACCOUNT') ?? null;
  if (production) {
    if (serviceAccountJson !== null) {
      try {
        const parsed = JSON.parse(serviceAccountJson) as Record<string, unknown>;
        if (typeof parsed.client_email !== 'string' || typeof parsed.private_key !== 'string') throw new Error();
      } catch {
        errors.add(
          'FIREBASE_SERVICE_ACCOUNT must be a service-account key in JSON (with client_email and private_key)',
        );
      }
    } else if (text(env, 'FIREBASE_CREDENTIALS') === 'application-default') {
      // The platform's own identity (Cloud Run, GKE workload identity): no key file at all.
    } else if (text(env, 'GOOGLE_APPLICATION_CREDENTIALS') === undefined) {
      errors.add(
        'Production needs service-account credentials: set FIREBASE_SERVICE_ACCOUNT or GOOGLE_APPLICATION_CREDENTIALS, or FIREBASE_CREDENTIALS=application-default on a platform that provides them',
      );
    } else if (!existsSync(resolve(cwd, env.GOOGLE_APPLICATION_CREDENTIALS as string))) {
      errors.add(
        `GOOGLE_APPLICATION_CREDENTIALS names a file that does not exist: ${env.GOOGLE_APPLICATION_CREDENTIALS}`,
      );
    }
  }
  return {
    projectId: projectId as string,
    apiKey: apiKey as string,
    authDomain: authDomain as string,
    emulatorHost,
    serviceAccountJson,
  };
}

/**
 * Reads and checks the environment once at start. Every missing or wrong setting is
 * named, all at once. Development (the default) talks to the Firebase Auth Emulator;
 * production (NODE_ENV=production) needs a real Firebase project and refuses the
 * emulator, whose cookies are unsigned.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const errors = new ConfigErrors();
  const production = env.NODE_ENV === 'production';
  const port = integer(env, errors, 'PORT', 3000, 0, 65535, 'a port number');

  const siteDir = resolve(cwd, env.SITE_DIR ?? 'site/build');
  if (!existsSync(join(siteDir, '404.html'))) {
    errors.add(`SITE_DIR ${siteDir} holds no site build: run "npm run build" first`);
  } else if (!existsSync(join(siteDir, MANIFEST_FILE))) {
    errors.add(`SITE_DIR ${siteDir} has no ${MANIFEST_FILE}: run "npm run build" to prepare the site for the gate`);
  }

  let publicOrigin: string | null = null;
  const publicUrl = text(env, 'PUBLIC_URL');
  if (publicUrl !== undefined) {
    try {
      const url = new URL(publicUrl);
      if (!['http:', 'https:'].includes(url.protocol) || url.pathname !== '/' || url.search || url.hash)
        throw new Error();
      if (production && url.protocol !== 'https:')
        errors.add(`PUBLIC_URL must use https in production, got "${publicUrl}"`);
      publicOrigin = url.origin;
    } catch {
      errors.add(`PUBLIC_URL must be the site's origin such as https://docs.example.com, got "${publicUrl}"`);
    }
  } else if (production) {
    errors.add('PUBLIC_URL is required in production (the https origin readers use, such as https://docs.example.com)');
  }

  const identity = loadIdentityConfig(env, errors, cwd);
  const trustProxy = trustProxySetting(env, errors);

  // With the emulator anyone who reaches the port could present a hand-made, unsigned token
  // for a known account: stay on this machine unless told otherwise.
  const host = text(env, 'HOST') ?? '127.0.0.1';
  if (identity.emulatorHost !== null && !LOOPBACK.has(host) && env.EMULATOR_ALLOW_REMOTE !== '1') {
    errors.add(
      `HOST=${host} would let other machines reach a portal that trusts the Auth Emulator, whose tokens anyone can forge; listen on 127.0.0.1 (the default), or set EMULATOR_ALLOW_REMOTE=1 if this is a throw-away demo on a trusted network`,
    );
  }

  const session = {
    maxAgeSeconds: integer(env, errors, 'SESSION_MAX_AGE_SECONDS', 5 * DAY, 300, 14 * DAY, 'a number of seconds'),
    cacheTtlSeconds: integer(env, errors, 'SESSION_CACHE_TTL_SECONDS', 60, 0, 60, 'a number of seconds'),
    rateLimitPerMinute: integer(env, errors, 'SESSION_RATE_LIMIT', 10, 1, 100_000, 'a number of requests'),
    identityTimeoutMs: integer(env, errors, 'IDENTITY_TIMEOUT_MS', 5000, 100, 60_000, 'a number of milliseconds'),
  };

  const database = loadDatabaseConfig(env, errors, cwd);
  const flag = (name: string): boolean => {
    const raw = text(env, name);
    if (raw === undefined || raw === '0' || raw === 'false') return false;
    if (raw === '1' || raw === 'true') return true;
    errors.add(`${name} must be true or false, got "${raw}"`);
    return false;
  };
  const audit = {
    retentionDays: integer(env, errors, 'AUDIT_RETENTION_DAYS', 180, 1, 3650, 'a number of days'),
    storeClientIp: flag('AUDIT_STORE_IP'),
    pageViews: text(env, 'AUDIT_PAGE_VIEWS') === undefined ? true : flag('AUDIT_PAGE_VIEWS'),
    queueLimit: integer(env, errors, 'AUDIT_QUEUE_LIMIT', 10_000, 10, 1_000_000, 'a number of events'),
  };
  const demoData = flag('DEMO_DATA');
  if (demoData && production) errors.add('DEMO_DATA is for development only; unset it in production');
  const adminRateLimitPerMinute = integer(env, errors, 'ADMIN_RATE_LIMIT', 120, 1, 100_000, 'a number of requests');
  const tokenRateLimitPerMinute = integer(env, errors, 'TOKEN_RATE_LIMIT', 300, 1, 1_000_000, 'a number of requests');

  const redisUrl = text(env, 'REDIS_URL') ?? null;
  if (redisUrl !== null && !/^rediss?:\/\/[^\s]+$/.test(redisUrl))
    errors.add(`REDIS_URL must be a Redis URL such as redis://redis.internal:6379, got "${redisUrl}"`);
  const metricsToken = text(env, 'METRICS_TOKEN') ?? null;
  if (metricsToken !== null && metricsToken.length < 16) errors.add('METRICS_TOKEN must be at least 16 characters');

  let secret = text(env, 'SESSION_SECRET');
  if (secret === undefined) {
    if (production)
      errors.add('SESSION_SECRET is required in production (at least 32 random characters, the same on every replica)');
    else secret = randomBytes(32).toString('base64url');
  } else if (secret.length < 32) {
    errors.add(`SESSION_SECRET must be at least 32 characters, got ${secret.length}`);
  }

  if (errors.messages.length > 0) throw new ConfigError(errors.messages);
  return {
    host,
    port,
    trustProxy,
    siteDir,
    production,
    publicOrigin,
    identity,
    session: { ...session, secret: secret as string },
    database,
    audit,
    demoData,
    adminRateLimitPerMinute,
    tokenRateLimitPerMinute,
    redisUrl,
    metricsToken,
  };
}
