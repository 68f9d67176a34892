// The builder process (`npm run builder`; the container image's builder target): takes the
// build jobs release hooks queue in PostgreSQL, syncs and builds the site for each, and
// publishes it as a site release, which every gate then fetches, checks and serves. No gate
// builds anything when a builder runs (SOURCES_BUILDER=builder, the default with DATABASE_URL).
//
//   node server/dist/builder.js            works the queue until stopped
//   node server/dist/builder.js --drain    works what is queued, then exits (a scheduled Job)
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import closeWithGrace from 'close-with-grace';
import { pino, type Logger } from 'pino';

import { ConfigError, loadBuilderConfig, type BuilderConfig } from './config.js';
import { openDatabase, type Database } from './db/database.js';
import { loggerOptions } from './logging.js';
import { buildRunner } from './plugins/app/rebuilds.js';
import { openObjectStore, S3Store } from './releases/object-store.js';
import { SiteReleases } from './releases/releases.js';
import { BuildQueue } from './sources/build-queue.js';

/** How often a builder that waits for the gates' migrations looks again. */
const SCHEMA_WAIT_MS = 2000;
/** How long a stopped builder lets a running build finish before it is stopped with it. */
const STOP_GRACE_MS = 30_000;

export interface RunningBuilder {
  queue: BuildQueue;
  /** Resolves when a draining builder has emptied the queue (never for one that works until stopped). */
  drained: Promise<void>;
  close(): Promise<void>;
}

/** Waits until the gates have made the portal's tables: the builder never migrates the database itself. */
async function schemaReady(db: Database, log: Logger): Promise<void> {
  for (let said = false; ; said = true) {
    try {
      await db.query('select 1 from site_releases limit 0');
      return;
    } catch (error) {
      if (!said) log.warn({ err: error }, 'waiting for a gate to prepare the database (site_releases)');
      await new Promise((resolve) => setTimeout(resolve, SCHEMA_WAIT_MS));
    }
  }
}

/** Starts a builder with `config`: what `npm run builder` runs, and what the tests start beside their gates. */
export async function startBuilder(
  config: BuilderConfig,
  options: { log: Logger; drain?: boolean },
): Promise<RunningBuilder> {
  const { log } = options;
  const db = await openDatabase(config.database);
  const store = openObjectStore(config.releases.store, config.releases.s3, process.cwd());
  if (!store) throw new Error('SITE_RELEASES names no store');
  try {
    await schemaReady(db, log);
    const releases = new SiteReleases({
      db,
      store,
      cacheDir: config.releases.cacheDir,
      site: null,
      keep: config.releases.keep,
      log,
    });
    const queue = await BuildQueue.open({ db, timeoutMs: config.sources.rebuildTimeoutMs, log });
    const runner = buildRunner({
      sources: config.sources,
      siteDir: config.siteDir,
      releases,
      site: null,
      broadcast: null,
      log: {
        info: (object, message) => log.info(object, message),
        warn: (object, message) => log.warn(object, message),
        error: (object, message) => log.error(object, message),
      },
    });
    await queue.work((job) => runner.build(job));
    log.info({ store: config.releases.store, drain: options.drain === true }, 'builder working the build queue');
    let check: NodeJS.Timeout | undefined;
    const drained = new Promise<void>((resolve) => {
      if (!options.drain) return;
      check = setInterval(() => {
        void queue.busy().then(
          (busy) => !busy && resolve(),
          (error: unknown) => log.warn({ err: error }, 'could not read the build queue'),
        );
      }, SCHEMA_WAIT_MS);
    }).finally(() => clearInterval(check));
    return {
      queue,
      drained,
      close: async () => {
        clearInterval(check);
        await queue.close(STOP_GRACE_MS);
        runner.close();
        if (store instanceof S3Store) store.close();
        await db.close();
      },
    };
  } catch (error) {
    if (store instanceof S3Store) store.close();
    await db.close();
    throw error;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  let config: BuilderConfig;
  let drain: boolean;
  try {
    ({
      values: { drain = false },
    } = parseArgs({ options: { drain: { type: 'boolean' } } }));
    config = loadBuilderConfig();
  } catch (error) {
    const problems = error instanceof ConfigError ? error.problems : [(error as Error).message];
    console.error(`Cannot start the builder:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    process.exit(1);
  }
  const log = pino(loggerOptions(config.logLevel) as object);
  let builder: RunningBuilder;
  try {
    builder = await startBuilder(config, { log, drain });
  } catch (error) {
    console.error(`Cannot start the builder: ${(error as Error).message}`);
    process.exit(1);
  }
  closeWithGrace({ delay: STOP_GRACE_MS + 5000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'stopping after an unexpected error');
    else log.info({ signal }, 'builder shutting down');
    await builder.close();
  });
  if (drain) {
    await builder.drained;
    log.info('the build queue is empty: the builder stops');
    await builder.close();
    process.exit(0);
  }
}
