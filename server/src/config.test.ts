import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

import { beforeAll, describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from './config.js';
import { makeTestSite } from './test/test-site.js';

let siteDir: string;
beforeAll(async () => {
  siteDir = await makeTestSite();
});

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

const production = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  SITE_DIR: siteDir,
  NODE_ENV: 'production',
  PUBLIC_URL: 'https://docs.norigin.example',
  FIREBASE_PROJECT_ID: 'norigin-docs',
  FIREBASE_API_KEY: 'AIzaSyExampleKey',
  FIREBASE_AUTH_DOMAIN: 'norigin-docs.firebaseapp.com',
  FIREBASE_SERVICE_ACCOUNT: JSON.stringify({ client_email: 'gate@norigin-docs.iam', private_key: 'k' }),
  SESSION_SECRET: 'a-long-random-secret-shared-by-replicas',
  ...extra,
});

describe('loadConfig in development (the default)', () => {
  it('runs on port 3000 against the Auth Emulator on 9099 with a demo project', () => {
    const config = loadConfig({ SITE_DIR: siteDir });
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      siteDir,
      production: false,
      publicOrigin: null,
      identity: {
        projectId: 'demo-norigin-portal',
        apiKey: 'demo-api-key',
        authDomain: 'demo-norigin-portal.firebaseapp.com',
        emulatorHost: '127.0.0.1:9099',
      },
      session: { maxAgeSeconds: 432000, cacheTtlSeconds: 60, rateLimitPerMinute: 10, identityTimeoutMs: 5000 },
    });
  });

  it('listens on this machine only with the emulator, unless told otherwise', () => {
    expect(problems({ SITE_DIR: siteDir, HOST: '0.0.0.0' })).toEqual([
      expect.stringMatching(
        /^HOST=0\.0\.0\.0 would let other machines reach a portal that trusts the Auth Emulator.*EMULATOR_ALLOW_REMOTE=1/,
      ),
    ]);
    expect(loadConfig({ SITE_DIR: siteDir, HOST: '::1' }).host).toBe('::1');
    expect(loadConfig({ SITE_DIR: siteDir, HOST: '0.0.0.0', EMULATOR_ALLOW_REMOTE: '1' }).host).toBe('0.0.0.0');
    expect(loadConfig(production({ HOST: '0.0.0.0' })).host).toBe('0.0.0.0');
  });

  it.each([
    [undefined, false],
    ['false', false],
    ['1', 1],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, 192.168.1.7', ['10.0.0.0/8', '192.168.1.7']],
    ['fd00::/8', ['fd00::/8']],
  ])('reads TRUST_PROXY=%s as %j', (value, expected) => {
    expect(loadConfig({ SITE_DIR: siteDir, TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(['true', '0', '11', 'proxy.internal', '10.0.0.0/33', '10.0.0.1,'])('refuses TRUST_PROXY=%s', (value) => {
    expect(problems({ SITE_DIR: siteDir, TRUST_PROXY: value })).toEqual([
      expect.stringMatching(/^TRUST_PROXY must be a number of proxy hops from 1 to 10, or the proxies' addresses/),
    ]);
  });

  it('keeps its data in PGlite under data/ unless DATA_DIR or DATABASE_URL says otherwise', () => {
    expect(loadConfig({ SITE_DIR: siteDir }, '/srv/portal').database).toEqual({
      kind: 'pglite',
      dataDir: '/srv/portal/data/pglite',
    });
    expect(loadConfig({ SITE_DIR: siteDir, DATA_DIR: '/var/lib/portal' }).database).toEqual({
      kind: 'pglite',
      dataDir: '/var/lib/portal/pglite',
    });
    expect(loadConfig({ SITE_DIR: siteDir, DATABASE_URL: 'postgres://portal@db:5432/portal' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://portal@db:5432/portal',
    });
    expect(problems({ SITE_DIR: siteDir, DATABASE_URL: 'mysql://db/portal' })).toEqual([
      'DATABASE_URL must be a PostgreSQL URL such as postgres://portal@db.internal:5432/portal',
    ]);
  });

  it('keeps 180 days of activity, without client addresses, with page views, unless told otherwise', () => {
    expect(loadConfig({ SITE_DIR: siteDir }).audit).toEqual({
      retentionDays: 180,
      storeClientIp: false,
      pageViews: true,
      queueLimit: 10_000,
    });
    expect(
      loadConfig({ SITE_DIR: siteDir, AUDIT_RETENTION_DAYS: '30', AUDIT_STORE_IP: 'true', AUDIT_PAGE_VIEWS: 'false' })
        .audit,
    ).toMatchObject({ retentionDays: 30, storeClientIp: true, pageViews: false });
    expect(problems({ SITE_DIR: siteDir, AUDIT_RETENTION_DAYS: '0', AUDIT_STORE_IP: 'maybe' })).toEqual([
      'AUDIT_RETENTION_DAYS must be a number of days from 1 to 3650, got "0"',
      'AUDIT_STORE_IP must be true or false, got "maybe"',
    ]);
  });

  it('moves the emulator with AUTH_EMULATOR_PORT, or takes FIREBASE_AUTH_EMULATOR_HOST as is', () => {
    expect(loadConfig({ SITE_DIR: siteDir, AUTH_EMULATOR_PORT: '9199' }).identity.emulatorHost).toBe('127.0.0.1:9199');
    expect(loadConfig({ SITE_DIR: siteDir, FIREBASE_AUTH_EMULATOR_HOST: 'localhost:9300' }).identity.emulatorHost).toBe(
      'localhost:9300',
    );
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a port number from 0 to 65535, got "abc"'],
    [{ PORT: '70000' }, 'PORT must be a port number from 0 to 65535, got "70000"'],
    [{ PORT: '3000.5' }, 'PORT must be a port number from 0 to 65535, got "3000.5"'],
    [{ AUTH_EMULATOR_PORT: '0' }, 'AUTH_EMULATOR_PORT must be a port number from 1 to 65535, got "0"'],
    [{ FIREBASE_AUTH_EMULATOR_HOST: 'http://x' }, 'FIREBASE_AUTH_EMULATOR_HOST must be host:port'],
    [{ FIREBASE_PROJECT_ID: 'norigin-docs' }, 'FIREBASE_PROJECT_ID must start with "demo-" with the emulator'],
    [{ FIREBASE_PROJECT_ID: 'Bad Id!' }, 'FIREBASE_PROJECT_ID must be a Firebase project id'],
    [{ FIREBASE_API_KEY: 'a:b' }, 'FIREBASE_API_KEY must not contain a colon'],
    [{ FIREBASE_AUTH_DOMAIN: 'x.firebaseapp.com:443' }, 'FIREBASE_AUTH_DOMAIN must not contain a colon'],
    [{ SESSION_MAX_AGE_SECONDS: '60' }, 'SESSION_MAX_AGE_SECONDS must be a number of seconds from 300 to 1209600'],
    [{ SESSION_CACHE_TTL_SECONDS: '120' }, 'SESSION_CACHE_TTL_SECONDS must be a number of seconds from 0 to 60'],
    [{ SESSION_RATE_LIMIT: '0' }, 'SESSION_RATE_LIMIT must be a number of requests from 1 to 100000'],
    [{ SESSION_SECRET: 'short' }, 'SESSION_SECRET must be at least 32 characters, got 5'],
    [{ PUBLIC_URL: 'docs.example.com' }, "PUBLIC_URL must be the site's origin"],
    [{ PUBLIC_URL: 'https://docs.example.com/docs/' }, "PUBLIC_URL must be the site's origin"],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [{ DEMO_DATA: 'yes' }, 'DEMO_DATA must be true or false, got "yes"'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL must be a Redis URL such as redis://redis.internal:6379'],
    [{ METRICS_TOKEN: 'short' }, 'METRICS_TOKEN must be at least 16 characters'],
  ])('names the wrong setting in %j', (env, message) => {
    const found = problems({ SITE_DIR: siteDir, ...env });
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(message);
  });

  it('names SITE_DIR and the fix when there is no build', () => {
    expect(problems({ SITE_DIR: '/nonexistent/build' })).toEqual([
      'SITE_DIR /nonexistent/build holds no site build: run "npm run build" first',
    ]);
  });

  it('names a build that was not prepared for the gate', async () => {
    const dir = await makeTestSite();
    const { rm } = await import('node:fs/promises');
    await rm(join(dir, 'portal-manifest.json'));
    expect(problems({ SITE_DIR: dir })[0]).toContain('has no portal-manifest.json');
  });

  it('reports every problem at once', () => {
    expect(problems({ SITE_DIR: siteDir, PORT: 'x', SESSION_RATE_LIMIT: 'y', FIREBASE_API_KEY: 'a:b' })).toHaveLength(
      3,
    );
  });

  it('reports wrong values and the rules that join settings together, once per setting', () => {
    expect(problems({ SITE_DIR: siteDir, PORT: 'x', HOST: '0.0.0.0', FIREBASE_PROJECT_ID: 'real-project' })).toEqual([
      'PORT must be a port number from 0 to 65535, got "x"',
      expect.stringContaining('FIREBASE_PROJECT_ID must start with "demo-" with the emulator'),
      expect.stringMatching(/^HOST=0\.0\.0\.0 would let other machines reach/),
    ]);
    expect(problems({ SITE_DIR: siteDir, FIREBASE_PROJECT_ID: 'Bad Id!' })).toHaveLength(1);
  });

  it('names a secret that is wrong without printing it', () => {
    const found = problems({
      SITE_DIR: siteDir,
      SESSION_SECRET: 'hunter2',
      DATABASE_URL: 'mysql://portal:hunter2@db/portal',
      REDIS_URL: 'http://:hunter2@redis',
    });
    expect(found).toHaveLength(3);
    expect(found.join('\n')).not.toContain('hunter2');
  });

  it('takes an empty or blank variable as unset', () => {
    expect(loadConfig({ SITE_DIR: siteDir, PORT: '', HOST: ' ', AUDIT_PAGE_VIEWS: '' })).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      audit: { pageViews: true },
    });
  });

  it('reads the log level, info unless told otherwise', () => {
    expect(loadConfig({ SITE_DIR: siteDir }).logLevel).toBe('info');
    expect(loadConfig({ SITE_DIR: siteDir, LOG_LEVEL: 'warn' }).logLevel).toBe('warn');
  });
});

describe('the settings of release hooks and their builds', () => {
  it('leave the builds to the gate with the embedded database, and to a builder with a PostgreSQL server', () => {
    const hooks = { SITE_DIR: siteDir, SOURCES_HOOK_SECRET: 'a-hook-secret-of-16+' };
    const url = 'postgres://portal@db:5432/portal';
    expect(loadConfig(hooks).sources.builder).toBe('gate');
    expect(loadConfig({ ...hooks, DATABASE_URL: url, SITE_RELEASES: 's3://releases/site' }).sources.builder).toBe(
      'builder',
    );
    expect(loadConfig({ ...hooks, DATABASE_URL: url, SOURCES_BUILDER: 'gate' }).sources.builder).toBe('gate');
    // A builder reaches the gates only through the database and the releases.
    expect(problems({ ...hooks, DATABASE_URL: url })).toEqual([
      expect.stringMatching(/^SITE_RELEASES is required when a builder makes the builds/),
    ]);
    expect(problems({ ...hooks, SOURCES_BUILDER: 'builder', SITE_RELEASES: 'data/releases' })).toEqual([
      expect.stringMatching(/^SOURCES_BUILDER=builder needs DATABASE_URL/),
    ]);
    expect(problems({ ...hooks, SOURCES_BUILDER: 'elsewhere' })).toEqual([
      'SOURCES_BUILDER must be gate or builder, or unset (gate without DATABASE_URL), got "elsewhere"',
    ]);
    // Without hooks nothing is built, and nothing more is asked for.
    expect(problems({ SITE_DIR: siteDir, DATABASE_URL: url })).toEqual([]);
  });

  it('take five minutes for a delivery, four rebuilds a source an hour, a week of memory and a quarter of an hour a build', () => {
    expect(loadConfig({ SITE_DIR: siteDir, PORTAL_SOURCES_CACHE: '/portal/cache' }).sources).toMatchObject({
      hookMaxAgeSeconds: 300,
      rebuildsPerHour: 4,
      deliveryMemoryDays: 7,
      rebuildTimeoutMs: 15 * 60_000,
    });
    expect(loadConfig({ SITE_DIR: siteDir, SOURCES_REBUILD_TIMEOUT_MINUTES: '30' }).sources.rebuildTimeoutMs).toBe(
      30 * 60_000,
    );
  });

  it('archive the newest releases after a served rebuild, unless SOURCES_ARCHIVE_COMMAND is set and empty', () => {
    expect(loadConfig({ SITE_DIR: siteDir }).sources.archiveCommand).toBe('node scripts/rebuild.mjs --archive');
    expect(loadConfig({ SITE_DIR: siteDir, SOURCES_ARCHIVE_COMMAND: 'make archive' }).sources.archiveCommand).toBe(
      'make archive',
    );
    expect(loadConfig({ SITE_DIR: siteDir, SOURCES_ARCHIVE_COMMAND: ' ' }).sources.archiveCommand).toBeNull();
  });

  it('give a build what it reads and the variables SOURCES_BUILD_ENV names, never a secret of the gate', () => {
    const env = {
      SITE_DIR: siteDir,
      PATH: '/usr/bin',
      HOME: '/home/portal',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
      PUBLIC_URL: 'http://localhost:3000',
      PORTAL_SOURCES_CACHE: '/portal/cache',
      SOURCES_BUILD_ENV: 'NPM_TOKEN',
      NPM_TOKEN: 'registry-token',
      OTHER_TOKEN: 'not-named',
      SESSION_SECRET: 'a-long-random-secret-shared-by-replicas',
      SOURCES_HOOK_SECRET: 'a-hook-secret-of-16',
      REDIS_URL: 'redis://127.0.0.1:6379',
    };
    expect(loadConfig(env).sources.buildEnv).toEqual({
      PATH: '/usr/bin',
      HOME: '/home/portal',
      NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt',
      PUBLIC_URL: 'http://localhost:3000',
      NPM_TOKEN: 'registry-token',
      PORTAL_SOURCES_CACHE: '/portal/cache',
    });
    expect(problems({ ...env, SOURCES_BUILD_ENV: 'NPM_TOKEN,SESSION_SECRET,DATABASE_URL' })).toEqual([
      'SOURCES_BUILD_ENV names SESSION_SECRET, DATABASE_URL, secrets of the gate: a build runs package content and must never see them',
    ]);
    expect(problems({ SITE_DIR: siteDir, SOURCES_BUILD_ENV: 'NPM TOKEN' })[0]).toMatch(
      /^SOURCES_BUILD_ENV must be names of environment variables separated by commas/,
    );
  });

  it('name a wrong limit, and a build user who does not exist or is root', () => {
    expect(
      problems({
        SITE_DIR: siteDir,
        SOURCES_REBUILD_TIMEOUT_MINUTES: '0',
        SOURCES_HOOK_MAX_AGE_SECONDS: 'soon',
        SOURCES_REBUILDS_PER_HOUR: '1000',
        SOURCES_BUILD_USER: 'no-such-portal-user',
      }),
    ).toEqual([
      'SOURCES_HOOK_MAX_AGE_SECONDS must be a number of seconds from 30 to 3600, got "soon"',
      'SOURCES_REBUILDS_PER_HOUR must be a number of rebuilds from 1 to 100, got "1000"',
      'SOURCES_REBUILD_TIMEOUT_MINUTES must be a number of minutes from 1 to 240, got "0"',
      'SOURCES_BUILD_USER names a user this system does not have, got "no-such-portal-user"',
    ]);
    for (const root of ['root', '0:0', '1000:0'])
      expect(problems({ SITE_DIR: siteDir, SOURCES_BUILD_USER: root })).toEqual([
        `SOURCES_BUILD_USER must name a user without privilege, not root, got "${root}"`,
      ]);
    expect(loadConfig({ SITE_DIR: siteDir, SOURCES_BUILD_USER: '1000:1000' }).sources.buildUser).toMatchObject({
      uid: 1000,
      gid: 1000,
    });
  });
});

describe('site release settings', () => {
  it('are off unless SITE_RELEASES names a store, a folder or an S3 bucket', () => {
    expect(loadConfig({ SITE_DIR: siteDir }).releases).toBeNull();
    expect(loadConfig({ SITE_DIR: siteDir, SITE_RELEASES: 'data/releases' }, '/srv/portal').releases).toEqual({
      store: '/srv/portal/data/releases',
      s3: { region: 'us-east-1', forcePathStyle: false },
      cacheDir: '/srv/portal/.cache/site-releases',
      checkMs: 5000,
      keep: 5,
      publishAtStart: false,
    });
    const s3 = loadConfig({
      SITE_DIR: siteDir,
      SITE_RELEASES: 's3://portal-releases/site',
      SITE_RELEASES_S3_ENDPOINT: 'http://127.0.0.1:4569',
      SITE_RELEASES_S3_PATH_STYLE: 'true',
    }).releases;
    expect(s3).toMatchObject({
      store: 's3://portal-releases/site',
      s3: { endpoint: 'http://127.0.0.1:4569', forcePathStyle: true },
    });
  });

  it('name a store, an endpoint or a count that cannot be', () => {
    expect(
      problems({
        SITE_DIR: siteDir,
        SITE_RELEASES: 's3://Not_A_Bucket',
        SITE_RELEASES_S3_ENDPOINT: 'ftp://storage.example',
        SITE_RELEASES_KEEP: '0',
      }),
    ).toEqual([
      'SITE_RELEASES must be a folder, or an S3 address such as s3://portal-releases/site, got "s3://Not_A_Bucket"',
      'SITE_RELEASES_S3_ENDPOINT must be the S3 service\'s address such as http://127.0.0.1:4569, got "ftp://storage.example"',
      'SITE_RELEASES_KEEP must be a number of releases from 1 to 100, got "0"',
    ]);
  });
});

describe('loadConfig in production', () => {
  it('accepts a complete production setup', () => {
    const config = loadConfig(production());
    expect(config.production).toBe(true);
    expect(config.identity.emulatorHost).toBeNull();
    expect(config.publicOrigin).toBe('https://docs.norigin.example');
  });

  it('refuses to start when the emulator host is set: emulator cookies are unsigned', () => {
    expect(problems(production({ FIREBASE_AUTH_EMULATOR_HOST: '127.0.0.1:9099' }))).toEqual([
      expect.stringContaining('FIREBASE_AUTH_EMULATOR_HOST is set, but NODE_ENV is production'),
    ]);
  });

  it('refuses demo data', () => {
    expect(problems(production({ DEMO_DATA: '1' }))).toEqual([
      'DEMO_DATA is for development only; unset it in production',
    ]);
  });

  it('names each missing setting', () => {
    const found = problems({ SITE_DIR: siteDir, NODE_ENV: 'production' });
    expect(found).toEqual([
      expect.stringContaining('PUBLIC_URL is required in production'),
      'FIREBASE_PROJECT_ID is required in production',
      'FIREBASE_API_KEY (the web API key) is required in production',
      expect.stringContaining('FIREBASE_AUTH_DOMAIN is required in production'),
      expect.stringContaining('Production needs service-account credentials'),
      expect.stringContaining('SESSION_SECRET is required in production'),
    ]);
  });

  it('wants https and a usable service account', async () => {
    expect(problems(production({ PUBLIC_URL: 'http://docs.norigin.example' }))).toEqual([
      'PUBLIC_URL must use https in production, got "http://docs.norigin.example"',
    ]);
    expect(problems(production({ FIREBASE_SERVICE_ACCOUNT: '{"nope":1}' }))[0]).toContain(
      'FIREBASE_SERVICE_ACCOUNT must be a service-account key in JSON',
    );
    const keyFile = join(siteDir, 'missing-key.json');
    expect(
      problems(production({ FIREBASE_SERVICE_ACCOUNT: '', GOOGLE_APPLICATION_CREDENTIALS: keyFile }))[0],
    ).toContain('GOOGLE_APPLICATION_CREDENTIALS names a file that does not exist');
    await writeFile(keyFile, '{}');
    expect(problems(production({ FIREBASE_SERVICE_ACCOUNT: '', GOOGLE_APPLICATION_CREDENTIALS: keyFile }))).toEqual([]);
  });
});
