import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';

import envSchema from 'env-schema';
import Type, { type Static, type TObject, type TProperties, type TSchema } from 'typebox';

import type { DatabaseConfig } from './db/database.js';
import { MANIFEST_FILE } from './manifest/manifest.js';
import { buildEnvironment, NAMES_PATTERN } from './sources/build-env.js';
import { buildUserOf, USER_PATTERN, type BuildUser } from './sources/build-user.js';

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
  /** pino's level for the server's log. */
  logLevel: string;
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
  /** SCIM calls per organisation's token and minute (`/scim/v2/…`); more get SCIM's 429 with Retry-After. */
  scimRateLimitPerMinute: number;
  /** Days before a licence ends that its organisation's contact and the administrators are mailed, and its readers see a banner (LICENCE_NOTICE_DAYS). */
  licenceNoticeDays: number;
  /** Requests a minute one personal access token may make on each agent surface (TOKEN_RATE_LIMIT). */
  tokenRateLimitPerMinute: number;
  /** OAuth client registrations a minute across every client address (OAUTH_REGISTRATION_RATE_LIMIT). */
  oauthRegistrationsPerMinute: number;
  /** Redis, shared by replicas (logout deny-list, sign-in limit, the broadcast); null: this process alone. */
  redisUrl: string | null;
  /** Where the portal's mail goes (invitations, answers to access requests); null: no mail. */
  mail: {
    smtpUrl: string;
    from: string;
    /** A development mail catcher's web inbox, linked from the admin page; null in real use. */
    inboxUrl: string | null;
  } | null;
  /** Bearer token that /metrics requires; null: /metrics answers only direct loopback requests. */
  metricsToken: string | null;
  /** Release hooks (`POST /api/hooks/sync`); null when no secret is set, and the endpoint is off. */
  sources: {
    /** The webhook secret every hook is signed with (GitHub's X-Hub-Signature-256). */
    hookSecret: string | null;
    /** The content cache `npm run sync` writes (its state.json is what /admin shows). */
    cacheDir: string;
    /** Syncs one source and rebuilds the site folder; run with `--only=<source id>` after a hook. */
    rebuildCommand: string;
    /** Run after each rebuild that was served; null when SOURCES_ARCHIVE_COMMAND is empty. */
    archiveCommand: string | null;
    /** A delivery the signed body dates further back than this is refused (a late or replayed one). */
    hookMaxAgeSeconds: number;
    /** Rebuilds one source's hooks may start in an hour; a hook that joins a queued rebuild starts none. */
    rebuildsPerHour: number;
    /** How long deliveries are remembered, so that a replay is refused. */
    deliveryMemoryDays: number;
    /** A rebuild or archive command still running after this is stopped with its process group. */
    rebuildTimeoutMs: number;
    /** The whole environment of the rebuild and archive commands: none of the gate's secrets. */
    buildEnv: Record<string, string>;
    /** Who those commands run as when the gate runs as root; null: nobody named, and no `node` user. */
    buildUser: BuildUser | null;
    /** Who works the build queue: this gate, or a builder process (`npm run builder`). */
    builder: 'gate' | 'builder';
  };
  /**
   * Site releases (releases/): each build published as a content-addressed bundle to an object
   * store, the live one recorded in the database, every replica serving it. Null: the gate
   * serves SITE_DIR alone, as one process on one disk.
   */
  releases: {
    /** A folder, or `s3://bucket/prefix`. */
    store: string;
    s3: { endpoint?: string; region: string; forcePathStyle: boolean };
    /** Where this gate keeps the releases it fetched, checked, as folders it serves. */
    cacheDir: string;
    /** How often the gate asks the database for the live release with no message (ms). */
    checkMs: number;
    /** Releases kept in the store (and for a rollback) besides the live one; older ones are collected. */
    keep: number;
    /** Publish SITE_DIR's build at start and make it live (`npm start`, where the author's build wins). */
    publishAtStart: boolean;
  } | null;
}

export const DEMO_PROJECT_ID = 'demo-norigin-portal';
const DAY = 24 * 60 * 60;

// ---------------------------------------------------------------------------------------
// The schema: every variable with its type, default and the words a wrong value is named
// with (`requirement`, an annotation this file adds to Ajv). README, "Configuration of the
// server", is the same list for people.

/** A whole number in a range, named in its error as "a port number", "a number of days", … */
const integer = (fallback: number, minimum: number, maximum: number, what: string) =>
  Type.Integer({ default: fallback, minimum, maximum, requirement: `must be ${what} from ${minimum} to ${maximum}` });

/** On or off: 1/true or 0/false, as the shell scripts and the README write them. */
const flag = (fallback: boolean) =>
  Type.Enum(['1', 'true', '0', 'false'], { default: String(fallback), requirement: 'must be true or false' });

const isOn = (value: string | undefined): boolean => value === '1' || value === 'true';

/** Settings that the server and the readers command share: where the identity service is. */
const IdentityEnv = {
  NODE_ENV: Type.Optional(Type.String()),
  FIREBASE_PROJECT_ID: Type.Optional(
    Type.String({
      pattern: '^[a-z0-9-]{4,40}$',
      requirement: 'must be a Firebase project id (4 to 40 lowercase letters, digits and hyphens)',
    }),
  ),
  FIREBASE_API_KEY: Type.Optional(Type.String({ pattern: '^[^:]+$', requirement: 'must not contain a colon' })),
  FIREBASE_AUTH_DOMAIN: Type.Optional(Type.String({ pattern: '^[^:]+$', requirement: 'must not contain a colon' })),
  FIREBASE_SERVICE_ACCOUNT: Type.Optional(Type.String({ writeOnly: true })),
  GOOGLE_APPLICATION_CREDENTIALS: Type.Optional(Type.String()),
  // The platform's own identity (Cloud Run, GKE workload identity): no key file at all.
  FIREBASE_CREDENTIALS: Type.Optional(
    Type.Enum(['application-default'], { requirement: 'must be application-default, or unset' }),
  ),
  // The Admin SDK reads FIREBASE_AUTH_EMULATOR_HOST itself; AUTH_EMULATOR_PORT is the short form `npm start` uses.
  FIREBASE_AUTH_EMULATOR_HOST: Type.Optional(
    Type.String({ pattern: '^[\\w.-]+:\\d{1,5}$', requirement: 'must be host:port such as 127.0.0.1:9099' }),
  ),
  AUTH_EMULATOR_PORT: integer(9099, 1, 65535, 'a port number'),
} satisfies TProperties;

const ServerEnv = {
  ...IdentityEnv,
  PORT: integer(3000, 0, 65535, 'a port number'),
  HOST: Type.String({ default: '127.0.0.1' }),
  EMULATOR_ALLOW_REMOTE: flag(false),
  TRUST_PROXY: Type.Optional(
    Type.String({
      format: 'trusted-proxies',
      requirement:
        'must be a number of proxy hops from 1 to 10, or the proxies\' addresses or CIDR ranges separated by commas (such as 10.0.0.0/8,127.0.0.1); "true" is refused because it would believe any client\'s X-Forwarded-For',
    }),
  ),
  SITE_DIR: Type.String({ default: 'site/build' }),
  PUBLIC_URL: Type.Optional(
    Type.String({ format: 'origin', requirement: "must be the site's origin such as https://docs.example.com" }),
  ),
  LOG_LEVEL: Type.Enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
    default: 'info',
    requirement: 'must be one of fatal, error, warn, info, debug, trace, silent',
  }),
  SESSION_SECRET: Type.Optional(
    Type.String({ minLength: 32, writeOnly: true, requirement: 'must be at least 32 characters' }),
  ),
  SESSION_MAX_AGE_SECONDS: integer(5 * DAY, 300, 14 * DAY, 'a number of seconds'),
  SESSION_CACHE_TTL_SECONDS: integer(60, 0, 60, 'a number of seconds'),
  SESSION_RATE_LIMIT: integer(10, 1, 100_000, 'a number of requests'),
  IDENTITY_TIMEOUT_MS: integer(5000, 100, 60_000, 'a number of milliseconds'),
  DATA_DIR: Type.String({ default: 'data' }),
  DATABASE_URL: Type.Optional(
    Type.String({
      pattern: '^postgres(ql)?://\\S+$',
      writeOnly: true,
      requirement: 'must be a PostgreSQL URL such as postgres://portal@db.internal:5432/portal',
    }),
  ),
  AUDIT_RETENTION_DAYS: integer(180, 1, 3650, 'a number of days'),
  AUDIT_STORE_IP: flag(false),
  AUDIT_PAGE_VIEWS: flag(true),
  AUDIT_QUEUE_LIMIT: integer(10_000, 10, 1_000_000, 'a number of events'),
  DEMO_DATA: flag(false),
  ADMIN_RATE_LIMIT: integer(120, 1, 100_000, 'a number of requests'),
  SCIM_RATE_LIMIT: integer(300, 1, 100_000, 'a number of requests'),
  LICENCE_NOTICE_DAYS: integer(14, 1, 365, 'a number of days'),
  TOKEN_RATE_LIMIT: integer(300, 1, 1_000_000, 'a number of requests'),
  OAUTH_REGISTRATION_RATE_LIMIT: integer(30, 1, 100_000, 'a number of registrations'),
  REDIS_URL: Type.Optional(
    Type.String({
      pattern: '^rediss?://\\S+$',
      writeOnly: true,
      requirement: 'must be a Redis URL such as redis://redis.internal:6379',
    }),
  ),
  SMTP_URL: Type.Optional(
    Type.String({
      pattern: '^smtps?://\\S+$',
      writeOnly: true,
      requirement: 'must be an SMTP URL such as smtp://user:password@mail.internal:587 or smtps://mail.internal:465',
    }),
  ),
  MAIL_FROM: Type.String({
    default: 'Norigin Developer Docs <docs@norigin.example>',
    pattern: '^(.+ <)?[^@\\s<>]+@[^@\\s<>]+(>)?$',
    requirement: 'must be an address such as "Norigin Developer Docs <docs@example.com>"',
  }),
  MAIL_INBOX_URL: Type.Optional(
    Type.String({
      format: 'origin',
      requirement: "must be the mail catcher's web address such as http://127.0.0.1:1080",
    }),
  ),
  METRICS_TOKEN: Type.Optional(
    Type.String({ minLength: 16, writeOnly: true, requirement: 'must be at least 16 characters' }),
  ),
  SOURCES_HOOK_SECRET: Type.Optional(
    Type.String({ minLength: 16, writeOnly: true, requirement: 'must be at least 16 characters' }),
  ),
  PORTAL_SOURCES_CACHE: Type.String({ default: '.cache/sources' }),
  SOURCES_REBUILD_COMMAND: Type.String({ minLength: 1, default: 'node scripts/rebuild.mjs' }),
  // After a rebuild is served: the newest releases' archives, ahead of the releases that will
  // replace them (site/src/archives). Empty: none; a release's rebuild then builds the archive.
  SOURCES_ARCHIVE_COMMAND: Type.String({ default: 'node scripts/rebuild.mjs --archive' }),
  SOURCES_HOOK_MAX_AGE_SECONDS: integer(300, 30, 3600, 'a number of seconds'),
  SOURCES_REBUILDS_PER_HOUR: integer(4, 1, 100, 'a number of rebuilds'),
  SOURCES_HOOK_MEMORY_DAYS: integer(7, 1, 365, 'a number of days'),
  SOURCES_REBUILD_TIMEOUT_MINUTES: integer(15, 1, 240, 'a number of minutes'),
  // A private registry's token that .npmrc names, passed to the build on purpose.
  SOURCES_BUILD_ENV: Type.Optional(
    Type.String({
      pattern: NAMES_PATTERN,
      requirement: 'must be names of environment variables separated by commas, such as NPM_TOKEN,GITHUB_TOKEN',
    }),
  ),
  SITE_RELEASES: Type.Optional(
    Type.String({
      pattern: '^(s3://[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](/\\S*)?|[^:]+)$',
      requirement: 'must be a folder, or an S3 address such as s3://portal-releases/site',
    }),
  ),
  SITE_RELEASES_S3_ENDPOINT: Type.Optional(
    Type.String({ format: 'origin', requirement: "must be the S3 service's address such as http://127.0.0.1:4569" }),
  ),
  SITE_RELEASES_S3_REGION: Type.String({ default: 'us-east-1' }),
  SITE_RELEASES_S3_PATH_STYLE: flag(false),
  SITE_RELEASES_CACHE: Type.String({ default: '.cache/site-releases' }),
  SITE_RELEASES_CHECK_SECONDS: integer(5, 1, 300, 'a number of seconds'),
  SITE_RELEASES_KEEP: integer(5, 1, 100, 'a number of releases'),
  SITE_RELEASES_PUBLISH_AT_START: flag(false),
  // Who works the build queue: this gate (the embedded database, one process) or `npm run builder`.
  SOURCES_BUILDER: Type.Optional(
    Type.Enum(['gate', 'builder'], { requirement: 'must be gate or builder, or unset (gate without DATABASE_URL)' }),
  ),
  SOURCES_BUILD_USER: Type.Optional(
    Type.String({
      pattern: USER_PATTERN,
      requirement: 'must be a user name such as node, or uid:gid such as 1000:1000',
    }),
  ),
} satisfies TProperties;

/** The gate's secrets, which no build may see: SOURCES_BUILD_ENV may not name them. */
const GATE_SECRETS = new Set([
  ...Object.entries(ServerEnv)
    .filter(([, schema]) => (schema as { writeOnly?: boolean }).writeOnly === true)
    .map(([name]) => name),
  'GOOGLE_APPLICATION_CREDENTIALS',
]);

const IdentitySchema = Type.Object(IdentityEnv);
const ServerSchema = Type.Object(ServerEnv);
const DatabaseSchema = Type.Object({ DATA_DIR: ServerEnv.DATA_DIR, DATABASE_URL: ServerEnv.DATABASE_URL });

/** PGlite in the data folder, unless `DATABASE_URL` names a PostgreSQL server. */
const databaseOf = (settings: { DATA_DIR: string; DATABASE_URL?: string }, cwd: string): DatabaseConfig =>
  settings.DATABASE_URL === undefined
    ? { kind: 'pglite', dataDir: resolve(cwd, settings.DATA_DIR, 'pglite') }
    : { kind: 'postgres', url: settings.DATABASE_URL };
type IdentitySettings = Static<typeof IdentitySchema>;
export type ServerSettings = Static<typeof ServerSchema>;

/** `TRUST_PROXY`: "false", a hop count from 1 to 10, or addresses and CIDR ranges separated by commas. */
function trustProxyOf(raw: string | undefined): TrustProxy | null {
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
  return parts.every(valid) ? parts : null;
}

/** `PUBLIC_URL`: an http(s) origin, nothing after the host but an optional slash. */
function originOf(raw: string): string | null {
  try {
    const url = new URL(raw);
    return ['http:', 'https:'].includes(url.protocol) && url.pathname === '/' && !url.search && !url.hash
      ? url.origin
      : null;
  } catch {
    return null;
  }
}

// One Ajv for every read, made by env-schema with its options (coercion, defaults, all errors)
// and taught the `requirement` annotation and the two formats code must check.
type Ajv = Parameters<
  Extract<NonNullable<envSchema.EnvSchemaOpt['ajv']>, { customOptions: unknown }>['customOptions']
>[0];
let ajv: Ajv | undefined;
const customOptions = (fresh: Ajv): Ajv =>
  (ajv ??= fresh
    .addKeyword('requirement')
    .addFormat('trusted-proxies', (value) => trustProxyOf(value) !== null)
    .addFormat('origin', (value) => originOf(value) !== null));

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A problem with one setting: the setting's name, and the sentence that says what to do. */
type Problem = [setting: string, message: string];

/**
 * Reads `env` against `properties` with env-schema: types, ranges, patterns and defaults. A
 * wrong value is named with its setting's `requirement` and what was given (never a secret's
 * value); the other settings are still read, so the rules that join settings can run on them.
 */
function readSettings<P extends TProperties>(
  schema: TObject<P>,
  env: NodeJS.ProcessEnv,
): { settings: Static<TObject<P>>; problems: Problem[] } {
  const properties: TProperties = schema.properties;
  // An empty or blank variable counts as unset, as a shell's `VAR=` means.
  const given = Object.fromEntries(
    Object.entries(env)
      .map(([name, value]) => [name, value?.trim()] as const)
      .filter(([name, value]) => name in properties && value !== undefined && value !== ''),
  ) as Record<string, string>;
  // The same schema object each time: Ajv compiles it once.
  const read = (data: Record<string, string>) =>
    envSchema<Static<TObject<P>>>({ schema, data, env: false, ajv: { customOptions } });
  try {
    return { settings: read(given), problems: [] };
  } catch (error) {
    const errors = (error as { errors?: AjvError[] }).errors;
    if (!errors) throw error;
    const problems = new Map<string, string>();
    for (const found of errors) {
      const name = found.instancePath.slice(1);
      const property = properties[name] as (TSchema & { requirement?: string; writeOnly?: boolean }) | undefined;
      if (!property || problems.has(name)) continue;
      const raw = given[name] ?? '';
      const got = property.writeOnly ? (found.keyword === 'minLength' ? `, got ${raw.length}` : '') : `, got "${raw}"`;
      problems.set(name, `${name} ${property.requirement ?? found.message ?? 'is wrong'}${got}`);
    }
    // Read again without the wrong values, so their defaults stand in while the rest is checked.
    const rest = Object.fromEntries(Object.entries(given).filter(([name]) => !problems.has(name)));
    return { settings: read(rest), problems: [...problems] };
  }
}

// ---------------------------------------------------------------------------------------
// What the settings mean together: the one place for rules that join settings (production,
// the emulator) or look at the disk.

function identityOf(settings: IdentitySettings): IdentityConfig {
  const production = settings.NODE_ENV === 'production';
  const projectId = settings.FIREBASE_PROJECT_ID ?? (production ? '' : DEMO_PROJECT_ID);
  return {
    projectId,
    apiKey: settings.FIREBASE_API_KEY ?? (production ? '' : 'demo-api-key'),
    authDomain: settings.FIREBASE_AUTH_DOMAIN ?? (production ? '' : `${projectId}.firebaseapp.com`),
    emulatorHost: production
      ? null
      : (settings.FIREBASE_AUTH_EMULATOR_HOST ?? `127.0.0.1:${settings.AUTH_EMULATOR_PORT}`),
    serviceAccountJson: settings.FIREBASE_SERVICE_ACCOUNT ?? null,
  };
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The rules that join settings, each naming the setting and its fix. Development (the
 * default) talks to the Firebase Auth Emulator; production (NODE_ENV=production) needs a real
 * Firebase project, its credentials, an https origin and a shared session secret, and refuses
 * the emulator, whose cookies are unsigned, and demo data. The server's rules (`server`) add
 * the site build and where it may listen.
 */
function crossFieldRules(
  settings: IdentitySettings & Partial<ServerSettings>,
  cwd: string,
  server: { siteDir: string; host: string } | null,
): Problem[] {
  const problems: Problem[] = [];
  const production = settings.NODE_ENV === 'production';
  const emulatorHost = identityOf(settings).emulatorHost;
  if (production) {
    if (settings.FIREBASE_AUTH_EMULATOR_HOST !== undefined)
      problems.push([
        'FIREBASE_AUTH_EMULATOR_HOST',
        'FIREBASE_AUTH_EMULATOR_HOST is set, but NODE_ENV is production: the emulator signs no tokens, so the portal refuses to run. Unset it.',
      ]);
    if (server && settings.PUBLIC_URL === undefined)
      problems.push([
        'PUBLIC_URL',
        'PUBLIC_URL is required in production (the https origin readers use, such as https://docs.example.com)',
      ]);
    else if (server && !settings.PUBLIC_URL?.startsWith('https:'))
      problems.push(['PUBLIC_URL', `PUBLIC_URL must use https in production, got "${settings.PUBLIC_URL}"`]);
    if (settings.FIREBASE_PROJECT_ID === undefined)
      problems.push(['FIREBASE_PROJECT_ID', 'FIREBASE_PROJECT_ID is required in production']);
    if (settings.FIREBASE_API_KEY === undefined)
      problems.push(['FIREBASE_API_KEY', 'FIREBASE_API_KEY (the web API key) is required in production']);
    if (settings.FIREBASE_AUTH_DOMAIN === undefined)
      problems.push([
        'FIREBASE_AUTH_DOMAIN',
        'FIREBASE_AUTH_DOMAIN is required in production (such as my-project.firebaseapp.com)',
      ]);
    problems.push(...credentialProblems(settings, cwd));
    if (server && settings.SESSION_SECRET === undefined)
      problems.push([
        'SESSION_SECRET',
        'SESSION_SECRET is required in production (at least 32 random characters, the same on every replica)',
      ]);
    if (server && isOn(settings.DEMO_DATA))
      problems.push(['DEMO_DATA', 'DEMO_DATA is for development only; unset it in production']);
  } else if (settings.FIREBASE_PROJECT_ID !== undefined && !settings.FIREBASE_PROJECT_ID.startsWith('demo-')) {
    problems.push([
      'FIREBASE_PROJECT_ID',
      `FIREBASE_PROJECT_ID must start with "demo-" with the emulator, so nothing reaches a real project; got "${settings.FIREBASE_PROJECT_ID}"`,
    ]);
  }
  if (!server) return problems;
  problems.push(...buildProblems(settings), ...builderProblems(settings));
  if (!existsSync(join(server.siteDir, '404.html')))
    problems.push(['SITE_DIR', `SITE_DIR ${server.siteDir} holds no site build: run "npm run build" first`]);
  else if (!existsSync(join(server.siteDir, MANIFEST_FILE)))
    problems.push([
      'SITE_DIR',
      `SITE_DIR ${server.siteDir} has no ${MANIFEST_FILE}: run "npm run build" to prepare the site for the gate`,
    ]);
  // With the emulator anyone who reaches the port could present a hand-made, unsigned token
  // for a known account: stay on this machine unless told otherwise.
  if (emulatorHost !== null && !LOOPBACK.has(server.host) && !isOn(settings.EMULATOR_ALLOW_REMOTE))
    problems.push([
      'HOST',
      `HOST=${server.host} would let other machines reach a portal that trusts the Auth Emulator, whose tokens anyone can forge; listen on 127.0.0.1 (the default), or set EMULATOR_ALLOW_REMOTE=1 if this is a throw-away demo on a trusted network`,
    ]);
  return problems;
}

/** The names SOURCES_BUILD_ENV passes to a build. */
const passedNames = (settings: Partial<ServerSettings>): string[] => settings.SOURCES_BUILD_ENV?.split(',') ?? [];

/** The users of this system, for SOURCES_BUILD_USER (none where there is no /etc/passwd). */
function systemUsers(): string {
  try {
    return readFileSync('/etc/passwd', 'utf8');
  } catch {
    return '';
  }
}

/** A build sees none of the gate's secrets, and runs as a user who exists and is not root. */
function buildProblems(settings: Partial<ServerSettings>): Problem[] {
  const problems: Problem[] = [];
  const secrets = passedNames(settings).filter((name) => GATE_SECRETS.has(name));
  if (secrets.length > 0)
    problems.push([
      'SOURCES_BUILD_ENV',
      `SOURCES_BUILD_ENV names ${secrets.join(', ')}, ${secrets.length === 1 ? 'a secret' : 'secrets'} of the gate: a build runs package content and must never see ${secrets.length === 1 ? 'it' : 'them'}`,
    ]);
  const user = buildUserOf(settings.SOURCES_BUILD_USER, systemUsers());
  if (user !== null && 'error' in user) problems.push(['SOURCES_BUILD_USER', user.error]);
  return problems;
}

/** Who works the build queue, when SOURCES_BUILDER does not say: the gate with PGlite, a builder with a server. */
const builderOf = (settings: Partial<ServerSettings>): 'gate' | 'builder' =>
  settings.SOURCES_BUILDER ?? (settings.DATABASE_URL === undefined ? 'gate' : 'builder');

/** A separate builder reaches the queue and the gates only through PostgreSQL and the site releases. */
function builderProblems(settings: Partial<ServerSettings>): Problem[] {
  if (settings.SOURCES_HOOK_SECRET === undefined || builderOf(settings) === 'gate') return [];
  const problems: Problem[] = [];
  if (settings.DATABASE_URL === undefined)
    problems.push([
      'SOURCES_BUILDER',
      'SOURCES_BUILDER=builder needs DATABASE_URL: the builder takes its jobs from PostgreSQL (with the embedded database, leave it unset and the gate builds)',
    ]);
  if (settings.SITE_RELEASES === undefined)
    problems.push([
      'SITE_RELEASES',
      'SITE_RELEASES is required when a builder makes the builds (SOURCES_BUILDER=builder, the default with DATABASE_URL): it is how they reach the gates; or set SOURCES_BUILDER=gate',
    ]);
  return problems;
}

/** Production's credentials: a service-account key, a key file that exists, or the platform's own identity. */
function credentialProblems(settings: IdentitySettings, cwd: string): Problem[] {
  if (settings.FIREBASE_SERVICE_ACCOUNT !== undefined) {
    try {
      const parsed = JSON.parse(settings.FIREBASE_SERVICE_ACCOUNT) as Record<string, unknown>;
      if (typeof parsed.client_email === 'string' && typeof parsed.private_key === 'string') return [];
    } catch {
      // Named below.
    }
    return [
      [
        'FIREBASE_SERVICE_ACCOUNT',
        'FIREBASE_SERVICE_ACCOUNT must be a service-account key in JSON (with client_email and private_key)',
      ],
    ];
  }
  if (settings.FIREBASE_CREDENTIALS === 'application-default') return [];
  const keyFile = settings.GOOGLE_APPLICATION_CREDENTIALS;
  if (keyFile === undefined)
    return [
      [
        'GOOGLE_APPLICATION_CREDENTIALS',
        'Production needs service-account credentials: set FIREBASE_SERVICE_ACCOUNT or GOOGLE_APPLICATION_CREDENTIALS, or FIREBASE_CREDENTIALS=application-default on a platform that provides them',
      ],
    ];
  if (!existsSync(resolve(cwd, keyFile)))
    return [
      ['GOOGLE_APPLICATION_CREDENTIALS', `GOOGLE_APPLICATION_CREDENTIALS names a file that does not exist: ${keyFile}`],
    ];
  return [];
}

/** Every problem, wrong values first; a rule about a setting already named wrong is left out. */
function allProblems(wrong: Problem[], rules: Problem[]): string[] {
  const named = new Set(wrong.map(([setting]) => setting));
  return [...wrong, ...rules.filter(([setting]) => !named.has(setting))].map(([, message]) => message);
}

// ---------------------------------------------------------------------------------------

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

/**
 * The identity-service half of the settings, shared by the server and the readers command:
 * its problems go to `errors`.
 */
export function loadIdentityConfig(
  env: NodeJS.ProcessEnv,
  errors: { add(message: string): void },
  cwd: string,
): IdentityConfig {
  const { settings, problems } = readSettings(IdentitySchema, env);
  for (const message of allProblems(problems, crossFieldRules(settings, cwd, null))) errors.add(message);
  return identityOf(settings);
}

/** The database half of the settings, shared by the server and the readers command (which writes the audit trail). */
export function loadDatabaseConfig(
  env: NodeJS.ProcessEnv,
  errors: { add(message: string): void },
  cwd: string,
): DatabaseConfig {
  const { settings, problems } = readSettings(DatabaseSchema, env);
  for (const message of allProblems(problems, [])) errors.add(message);
  return databaseOf(settings, cwd);
}

/** The settings the builder process reads (`npm run builder`): its database, its sources, the releases. */
const BuilderSchema = Type.Pick(ServerSchema, [
  'NODE_ENV',
  'LOG_LEVEL',
  'SITE_DIR',
  'DATA_DIR',
  'DATABASE_URL',
  'PORTAL_SOURCES_CACHE',
  'SOURCES_HOOK_SECRET',
  'SOURCES_REBUILD_COMMAND',
  'SOURCES_ARCHIVE_COMMAND',
  'SOURCES_HOOK_MAX_AGE_SECONDS',
  'SOURCES_REBUILDS_PER_HOUR',
  'SOURCES_HOOK_MEMORY_DAYS',
  'SOURCES_REBUILD_TIMEOUT_MINUTES',
  'SOURCES_BUILD_ENV',
  'SOURCES_BUILDER',
  'SOURCES_BUILD_USER',
  'SITE_RELEASES',
  'SITE_RELEASES_S3_ENDPOINT',
  'SITE_RELEASES_S3_REGION',
  'SITE_RELEASES_S3_PATH_STYLE',
  'SITE_RELEASES_CACHE',
  'SITE_RELEASES_CHECK_SECONDS',
  'SITE_RELEASES_KEEP',
  'SITE_RELEASES_PUBLISH_AT_START',
]);
type BuilderSettings = Static<typeof BuilderSchema>;

function sourcesOf(settings: BuilderSettings, env: NodeJS.ProcessEnv, cwd: string): Config['sources'] {
  const cacheDir = resolve(cwd, settings.PORTAL_SOURCES_CACHE);
  return {
    hookSecret: settings.SOURCES_HOOK_SECRET ?? null,
    cacheDir,
    rebuildCommand: settings.SOURCES_REBUILD_COMMAND,
    // Set and empty turns the step off (readSettings gives an empty value its default).
    archiveCommand: env.SOURCES_ARCHIVE_COMMAND?.trim() === '' ? null : settings.SOURCES_ARCHIVE_COMMAND,
    hookMaxAgeSeconds: settings.SOURCES_HOOK_MAX_AGE_SECONDS,
    rebuildsPerHour: settings.SOURCES_REBUILDS_PER_HOUR,
    deliveryMemoryDays: settings.SOURCES_HOOK_MEMORY_DAYS,
    rebuildTimeoutMs: settings.SOURCES_REBUILD_TIMEOUT_MINUTES * 60_000,
    buildEnv: buildEnvironment(env, passedNames(settings), cacheDir),
    buildUser: buildUserOf(settings.SOURCES_BUILD_USER, systemUsers()) as BuildUser | null,
    builder: builderOf(settings),
  };
}

function releasesOf(settings: BuilderSettings, cwd: string): Config['releases'] {
  return settings.SITE_RELEASES === undefined
    ? null
    : {
        store: settings.SITE_RELEASES.startsWith('s3://')
          ? settings.SITE_RELEASES
          : resolve(cwd, settings.SITE_RELEASES),
        s3: {
          ...(settings.SITE_RELEASES_S3_ENDPOINT === undefined
            ? {}
            : { endpoint: originOf(settings.SITE_RELEASES_S3_ENDPOINT) as string }),
          region: settings.SITE_RELEASES_S3_REGION,
          forcePathStyle: isOn(settings.SITE_RELEASES_S3_PATH_STYLE),
        },
        cacheDir: resolve(cwd, settings.SITE_RELEASES_CACHE),
        checkMs: settings.SITE_RELEASES_CHECK_SECONDS * 1000,
        keep: settings.SITE_RELEASES_KEEP,
        publishAtStart: isOn(settings.SITE_RELEASES_PUBLISH_AT_START),
      };
}

/** What the builder process runs with: the queue's PostgreSQL server and the store it publishes to. */
export interface BuilderConfig {
  logLevel: Config['logLevel'];
  siteDir: string;
  database: { kind: 'postgres'; url: string };
  sources: Config['sources'];
  releases: NonNullable<Config['releases']>;
}

/** Reads and checks the builder's settings, every problem named at once as for the gate. */
export function loadBuilderConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): BuilderConfig {
  const { settings, problems } = readSettings(BuilderSchema, env);
  const rules: Problem[] = [...buildProblems(settings)];
  if (settings.DATABASE_URL === undefined)
    rules.push(['DATABASE_URL', 'DATABASE_URL is required: the builder takes its jobs from PostgreSQL']);
  if (settings.SITE_RELEASES === undefined)
    rules.push([
      'SITE_RELEASES',
      'SITE_RELEASES is required: the builder publishes each build there as a site release for the gates',
    ]);
  const messages = allProblems(problems, rules);
  if (messages.length > 0) throw new ConfigError(messages);
  return {
    logLevel: settings.LOG_LEVEL,
    siteDir: resolve(cwd, settings.SITE_DIR),
    database: { kind: 'postgres', url: settings.DATABASE_URL as string },
    sources: sourcesOf(settings, env, cwd),
    releases: releasesOf(settings, cwd) as NonNullable<Config['releases']>,
  };
}

/**
 * Reads and checks the environment once at start. Every missing or wrong setting is named,
 * all at once, with its fix.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const { settings, problems } = readSettings(ServerSchema, env);
  const siteDir = resolve(cwd, settings.SITE_DIR);
  const messages = allProblems(problems, crossFieldRules(settings, cwd, { siteDir, host: settings.HOST }));
  if (messages.length > 0) throw new ConfigError(messages);
  const production = settings.NODE_ENV === 'production';
  return {
    host: settings.HOST,
    port: settings.PORT,
    trustProxy: trustProxyOf(settings.TRUST_PROXY) ?? false,
    siteDir,
    production,
    publicOrigin: settings.PUBLIC_URL === undefined ? null : originOf(settings.PUBLIC_URL),
    logLevel: settings.LOG_LEVEL,
    identity: identityOf(settings),
    session: {
      maxAgeSeconds: settings.SESSION_MAX_AGE_SECONDS,
      cacheTtlSeconds: settings.SESSION_CACHE_TTL_SECONDS,
      rateLimitPerMinute: settings.SESSION_RATE_LIMIT,
      identityTimeoutMs: settings.IDENTITY_TIMEOUT_MS,
      // Development without one: a new key per start, so sessions end with the process.
      secret: settings.SESSION_SECRET ?? randomBytes(32).toString('base64url'),
    },
    database: databaseOf(settings, cwd),
    audit: {
      retentionDays: settings.AUDIT_RETENTION_DAYS,
      storeClientIp: isOn(settings.AUDIT_STORE_IP),
      pageViews: isOn(settings.AUDIT_PAGE_VIEWS),
      queueLimit: settings.AUDIT_QUEUE_LIMIT,
    },
    demoData: isOn(settings.DEMO_DATA),
    adminRateLimitPerMinute: settings.ADMIN_RATE_LIMIT,
    scimRateLimitPerMinute: settings.SCIM_RATE_LIMIT,
    licenceNoticeDays: settings.LICENCE_NOTICE_DAYS,
    tokenRateLimitPerMinute: settings.TOKEN_RATE_LIMIT,
    oauthRegistrationsPerMinute: settings.OAUTH_REGISTRATION_RATE_LIMIT,
    redisUrl: settings.REDIS_URL ?? null,
    mail:
      settings.SMTP_URL === undefined
        ? null
        : {
            smtpUrl: settings.SMTP_URL,
            from: settings.MAIL_FROM,
            inboxUrl: settings.MAIL_INBOX_URL === undefined ? null : originOf(settings.MAIL_INBOX_URL),
          },
    metricsToken: settings.METRICS_TOKEN ?? null,
    sources: sourcesOf(settings, env, cwd),
    releases: releasesOf(settings, cwd),
  };
}
