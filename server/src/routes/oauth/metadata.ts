import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { OAUTH_REQUESTS_PER_MINUTE } from '../../plugins/app/oauth.js';

/** The MCP server's protected-resource metadata (RFC 9728): where an OAuth client of /mcp starts. */
const metadata: FastifyPluginAsyncTypebox = async (app) => {
  // At the resource's own path, and at the root for clients that look there first.
  for (const url of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'])
    app.get(
      url,
      { schema: { hide: true }, config: { rateLimit: { max: OAUTH_REQUESTS_PER_MINUTE, timeWindow: 60_000 } } },
      async (request, reply) =>
        reply
          .header('cache-control', 'public, max-age=300')
          .header('access-control-allow-origin', '*')
          .send(app.oauth.resourceMetadata(app.originOf(request))),
    );
};
export default metadata;
