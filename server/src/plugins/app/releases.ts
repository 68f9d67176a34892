import fp from 'fastify-plugin';

import { openObjectStore, S3Store } from '../../releases/object-store.js';
import { SiteReleases } from '../../releases/releases.js';
import { readCacheState, sourceStates } from '../../sources/state.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The site releases this gate publishes and follows (releases/); null without SITE_RELEASES. */
    releases: SiteReleases | null;
  }
}

/** The longest a gate waits for the live release at start before it serves SITE_DIR's build. */
const BOOT_WAIT_MS = 30_000;

/** Each synced source's published versions: what a release is built from. */
export async function builtSources(cacheDir: string): Promise<Record<string, string[]>> {
  try {
    return Object.fromEntries(
      sourceStates(await readCacheState(cacheDir)).map((source) => [source.id, source.versions]),
    );
  } catch {
    return {};
  }
}

/**
 * Follows the live site release: at start (before the gate listens, for at most
 * BOOT_WAIT_MS; SITE_DIR's build is the fallback meanwhile), when the change feed or Redis
 * says another was made live, and every SITE_RELEASES_CHECK_SECONDS with no message at all.
 */
export default fp(
  async (app) => {
    const { releases: settings, siteDir, sources } = app.config;
    if (settings === null) {
      app.decorate('releases', null);
      return;
    }
    const store = openObjectStore(settings.store, settings.s3, process.cwd());
    if (!store) throw new Error('SITE_RELEASES names no store');
    const releases = new SiteReleases({
      db: app.store.db,
      store,
      cacheDir: settings.cacheDir,
      site: app.site,
      keep: settings.keep,
      log: app.log,
    });
    const follow = () =>
      releases.follow().catch((error: unknown) => app.log.warn({ err: error }, 'could not read the live site release'));
    app.shared.onBroadcast(({ release }) => {
      if (release) void follow();
    });
    const started = app.store.whenReady().then(async () => {
      if (settings.publishAtStart)
        await releases
          .publish(siteDir, {
            job: 'the build the gate started with',
            sources: await builtSources(sources.cacheDir),
            by: null,
          })
          .catch((error: unknown) => app.log.error({ err: error }, 'could not publish the site build as a release'));
      await follow();
    });
    const timer = setInterval(() => {
      if (app.store.readyNow) void follow();
    }, settings.checkMs);
    timer.unref();
    app.addHook('onReady', async () => {
      let waited: NodeJS.Timeout | undefined;
      await Promise.race([started, new Promise((resolve) => (waited = setTimeout(resolve, BOOT_WAIT_MS)))]);
      clearTimeout(waited);
    });
    app.addHook('onClose', () => {
      clearInterval(timer);
      if (store instanceof S3Store) store.close();
    });
    app.decorate('releases', releases);
  },
  { name: 'releases', dependencies: ['config', 'store', 'site', 'shared'] },
);
