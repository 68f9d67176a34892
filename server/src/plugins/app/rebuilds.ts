import fp from 'fastify-plugin';

import { Rebuilds } from '../../sources/rebuilds.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The rebuilds release hooks queue, one at a time (sources/rebuilds.ts); null without SOURCES_HOOK_SECRET. */
    rebuilds: Rebuilds | null;
  }
}

/** The rebuild queue: each finished build is served here, then broadcast to the other replicas. */
export default fp(
  async (app) => {
    const { sources } = app.config;
    const { site, shared } = app;
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
            serve: async () => {
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
  { name: 'rebuilds', dependencies: ['config', 'site', 'shared'] },
);
