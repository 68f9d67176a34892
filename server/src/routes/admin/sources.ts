import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { SourcesOverview } from '@portal/contract';

import { readCacheState, sourceStates } from '../../sources/state.js';

/** The administration's view of the package sources: the content cache, the build served here, the rebuilds. */
const sources: FastifyPluginAsyncTypebox = async (app) => {
  const { config, site, rebuilds } = app;
  app.get('/sources', { schema: { response: { 200: SourcesOverview } } }, async () => {
    const state = await readCacheState(config.sources.cacheDir);
    return {
      sources: sourceStates(state),
      syncedAt: state.syncedAt,
      build: { id: site.id, files: site.files, servedSince: site.loadedAt },
      hooks: rebuilds !== null,
      jobs: rebuilds?.list() ?? [],
    };
  });
};
export default sources;
