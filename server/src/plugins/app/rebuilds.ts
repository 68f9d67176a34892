import fp from 'fastify-plugin';

import type { Config } from '../../config.js';
import type { Database } from '../../db/database.js';
import type { SiteReleases } from '../../releases/releases.js';
import type { LiveSite } from '../../site.js';
import { BuildQueue, type BuildQueueOptions } from '../../sources/build-queue.js';
import { BuildRunner } from '../../sources/rebuilds.js';
import { builtSources } from './releases.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The builds release hooks queue (sources/build-queue.ts), null without SOURCES_HOOK_SECRET.
     * Opened once the database is; a gate adds jobs to it, and works them only with
     * SOURCES_BUILDER=gate.
     */
    rebuilds: { queue(): Promise<BuildQueue> } | null;
  }
}

interface RunnerParts {
  sources: Config['sources'];
  siteDir: string;
  releases: SiteReleases | null;
  /** Without site releases: the site this process serves, reloaded after a build, and how the others are told. */
  site: LiveSite | null;
  broadcast: ((message: { site: string }) => Promise<void>) | null;
  log: ConstructorParameters<typeof BuildRunner>[0]['log'] & { warn(object: object, message: string): void };
}

/**
 * What works a build job, in the gate (SOURCES_BUILDER=gate) or in the builder process: runs
 * the rebuild command, then publishes the build as a site release, which every replica then
 * serves (releases/); without SITE_RELEASES it is served here and the other replicas read the
 * same folder again when the broadcast tells them.
 */
export function buildRunner({ sources, siteDir, releases, site, broadcast, log }: RunnerParts): BuildRunner {
  // Only root can switch users; an unprivileged process's builds run as itself, unprivileged too.
  const root = process.getuid?.() === 0;
  if (root && sources.buildUser === null)
    log.warn({}, 'rebuilds run as root: name an unprivileged user for them in SOURCES_BUILD_USER (docs/security.md)');
  return new BuildRunner({
    command: sources.rebuildCommand,
    archiveCommand: sources.archiveCommand,
    cwd: process.cwd(),
    env: sources.buildEnv,
    user: root ? sources.buildUser : null,
    timeoutMs: sources.rebuildTimeoutMs,
    log,
    serve: async (job) => {
      if (releases) {
        const { release, made } = await releases.publish(siteDir, {
          job: `rebuild ${job.id} (${job.source})`,
          sources: await builtSources(sources.cacheDir),
          by: null,
        });
        if (site) {
          // A gate that builds serves the release itself before it says so.
          await releases.follow();
          const { serving, refused } = releases.status;
          if (serving !== release.bundle) throw new Error(refused?.error ?? 'the new release is not served');
        }
        return made ? 'replaced' : 'unchanged';
      }
      if (!site || !broadcast) throw new Error('a builder without SITE_RELEASES has no way to serve what it built');
      const outcome = await site.reload();
      if (outcome === 'replaced') await broadcast({ site: site.id });
      return outcome;
    },
  });
}

/**
 * Opens the build queue once the database is ready; the same queue for every later call.
 * `close` closes it, and a queue still opening then is closed as soon as it has opened.
 */
export function lazyQueue(
  db: () => Database,
  ready: () => Promise<unknown>,
  options: Omit<BuildQueueOptions, 'db'>,
  /** Run once the queue has opened, before anyone is handed it: a gate that builds starts working it. */
  opened: (queue: BuildQueue) => Promise<void> = async () => undefined,
) {
  let opening: Promise<BuildQueue> | undefined;
  let open: BuildQueue | null = null;
  let closed = false;
  return {
    queue: () =>
      (opening ??= ready()
        .then(() => BuildQueue.open({ ...options, db: db() }))
        .then(
          async (queue) => {
            if (!closed) {
              await opened(queue);
              return (open = queue);
            }
            await queue.close();
            throw new Error('the portal is closing');
          },
          (error: unknown) => {
            // A database that failed to answer is asked again by the next call.
            opening = undefined;
            throw error;
          },
        )),
    close: async () => {
      closed = true;
      // Only a queue that has opened is closed: a database that never came up holds nothing.
      await open?.close();
    },
  };
}

/**
 * The build queue, and with SOURCES_BUILDER=gate (the embedded database: one process) a
 * worker here that runs each build as a child process; otherwise `npm run builder` works it.
 */
export default fp(
  async (app) => {
    const { sources, siteDir } = app.config;
    if (sources.hookSecret === null) {
      app.decorate('rebuilds', null);
      return;
    }
    const { store, site, shared, releases } = app;
    const runner =
      sources.builder === 'gate'
        ? buildRunner({
            sources,
            siteDir,
            releases,
            site,
            broadcast: (message) => shared.broadcast(message),
            log: app.log,
          })
        : null;
    const lazy = lazyQueue(
      () => store.db,
      () => store.whenReady(),
      { timeoutMs: sources.rebuildTimeoutMs, log: app.log },
      async (queue) => {
        if (runner) await queue.work((job) => runner.build(job));
      },
    );
    // A gate that builds opens the queue at start, to work what waits in it.
    if (runner)
      void lazy.queue().catch((error: unknown) => app.log.error({ err: error }, 'the build queue could not be opened'));
    app.addHook('onClose', async () => {
      runner?.close();
      await lazy.close();
    });
    app.decorate('rebuilds', { queue: lazy.queue });
  },
  { name: 'rebuilds', dependencies: ['config', 'store', 'site', 'shared', 'releases'] },
);
