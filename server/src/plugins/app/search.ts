import fp from 'fastify-plugin';

import { SiteSearch } from '../../search/site-search.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The site's search in the server, for the search API and MCP (search/site-search.ts). */
    siteSearch: SiteSearch;
  }
}

/** The search over the served build; a new build's search starts afresh. */
export default fp(
  async (app) => {
    const search = new SiteSearch(app.site);
    app.site.onReplace(() => search.reset());
    app.decorate('siteSearch', search);
  },
  { name: 'search', dependencies: ['site'] },
);
