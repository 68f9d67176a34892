import fp from 'fastify-plugin';

import { Rebuilds } from '../../sources/rebuilds.js';
import { builtSources } from './releases.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The rebuilds release hooks queue, one at a time (sources/rebuilds.ts); null without SOURCES_HOOK_SECRET. */
    rebuilds: Rebuilds | null;
  }
}

/**
 * The rebuild queue. Each finished build is published as a site release, which every replica
 * then serves (releases/); without SITE_RELEASES it is served here, and the other replicas
 * read the same folder again when the broadcast tells them.
 */
export default fp(
  async (app) => {
    const { sources, siteDir } = app.config;
    const { site, shared, releases } = app;
    // Only root can switch users; an unprivileged gate's builds run as the gate, unprivileged too.
    const root = process.getuid?.() === 0;
    const rebuilds =
      sources.hookSecret === null
        ? null
        : new Rebuilds({
            command: sources.rebuildCommand,
            archiveCommand: sources.archiveCommand,
            cwd: process.cwd(),
            env: sources.buildEnv,
            user: root ? sources.buildUser : null,
            timeoutMs: sources.rebuildTimeoutMs,
            log: app.log,
            serve: async (job) => {
              if (releases) {
                const before = releases.status.serving;
                const { release } = await releases.publish(siteDir, {
                  job: `rebuild ${job.id} (${job.source})`,
                  sources: await builtSources(sources.cacheDir),
                  by: null,
                });
                await releases.follow();
                const { serving, refused } = releases.status;
                if (serving !== release.bundle) throw new Error(refused?.error ?? 'the new release is not served');
                return serving === before ? 'unchanged' : 'replaced';
              }
              const outcome = await site.reload();
              if (outcome === 'replaced') await shared.broadcast({ site: site.id });
              return outcome;
            },
          });
    if (rebuilds) app.addHook('onClose', () => rebuilds.close());
    if (rebuilds && root && sources.buildUser === null)
      app.log.warn('rebuilds run as root: name an unprivileged user for them in SOURCES_BUILD_USER (docs/security.md)');
    app.decorate('rebuilds', rebuilds);
  },
  { name: 'rebuilds', dependencies: ['config', 'site', 'shared', 'releases'] },
);
