import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import Type from 'typebox';

import { ErrorAnswer, SiteReleaseInfo, SiteReleasesOverview, SourcesOverview } from '@portal/contract';

import { signedIn } from '../../plugins/app/guards.js';
import { ReleaseRefused } from '../../releases/releases.js';
import { readCacheState, sourceStates } from '../../sources/state.js';

const ReleaseParams = Type.Object({ id: Type.String({ pattern: '^[1-9][0-9]{0,15}$' }) });
const NoReleases = 'Site releases are off: SITE_RELEASES names no store, so this replica serves SITE_DIR alone';

/**
 * The administration's view of the package sources: the content cache, the build served
 * here, the rebuilds; and the site releases every replica serves, with serving an earlier
 * one again (a rollback).
 */
const sources: FastifyPluginAsyncTypebox = async (app) => {
  const { config, site, rebuilds, releases } = app;
  app.get('/sources', { schema: { response: { 200: SourcesOverview } } }, async (request) => {
    const state = await readCacheState(config.sources.cacheDir);
    // The queue is in the database: without it the sources are still shown, and the log says why the builds are not.
    const jobs = rebuilds
      ? await rebuilds
          .queue()
          .then((queue) => queue.list())
          .catch((error: unknown) => {
            request.log.warn({ err: error }, 'could not read the build queue');
            return [];
          })
      : [];
    return {
      sources: sourceStates(state),
      syncedAt: state.syncedAt,
      build: { id: site.id, files: site.files, servedSince: site.loadedAt },
      hooks: rebuilds !== null,
      jobs,
    };
  });

  app.get(
    '/site-releases',
    {
      preHandler: app.guards.requireDatabase,
      schema: { response: { 200: SiteReleasesOverview, 404: ErrorAnswer, 503: ErrorAnswer } },
    },
    async (_request, reply) => {
      if (!releases) return reply.code(404).send({ error: NoReleases });
      return { store: config.releases?.store ?? '', releases: await releases.list(), ...releases.status };
    },
  );

  app.post(
    '/site-releases/:id/live',
    {
      preHandler: app.guards.requireDatabase,
      schema: {
        params: ReleaseParams,
        response: { 200: SiteReleaseInfo, 404: ErrorAnswer, 409: ErrorAnswer, 502: ErrorAnswer, 503: ErrorAnswer },
      },
    },
    async (request, reply) => {
      if (!releases) return reply.code(404).send({ error: NoReleases });
      const admin = await signedIn(request);
      let made;
      try {
        made = await releases.makeLive(Number(request.params.id), admin.email ?? admin.uid);
      } catch (error) {
        if (error instanceof ReleaseRefused) return reply.code(error.status).send({ error: error.message });
        // The store could not give the release whole: nothing was changed.
        request.log.error({ err: error }, 'could not serve the site release');
        return reply.code(502).send({ error: `The release cannot be served: ${(error as Error).message}` });
      }
      app.audit(request, {
        kind: 'admin.site-release',
        actorUid: admin.uid,
        actorEmail: admin.email,
        groups: admin.groups,
        detail: { release: made.release.id, bundle: made.release.bundle, previous: made.previous?.id ?? null },
      });
      await releases.follow();
      return made.release;
    },
  );
};
export default sources;
