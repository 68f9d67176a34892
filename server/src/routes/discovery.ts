import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { resourceMetadataUrl } from '../auth/oauth.js';
import { SITE_NAME, SITE_SUMMARY } from '../llms.js';

/** Where an assistant finds the MCP server, its authorization and the llms files: for anyone (it names addresses, never content). */
const discovery: FastifyPluginAsyncTypebox = async (app) => {
  for (const url of ['/.well-known/mcp', '/.well-known/mcp.json'])
    app.get(
      url,
      { schema: { hide: true }, config: { rateLimit: { max: 60, timeWindow: 60_000 } } },
      async (request, reply) => {
        const origin = app.originOf(request);
        return reply
          .header('cache-control', 'public, max-age=300')
          .header('access-control-allow-origin', '*')
          .send({
            name: SITE_NAME,
            description: SITE_SUMMARY,
            mcp: {
              url: `${origin}/mcp`,
              transport: 'streamable-http',
              authorization: {
                type: 'oauth2',
                protected_resource_metadata: resourceMetadataUrl(origin),
                personal_tokens: `${origin}/account`,
              },
              tools: ['search_docs', 'read_page', 'list_sections', 'latest_changelog'],
            },
            llms_txt: `${origin}/llms.txt`,
            llms_full_txt: `${origin}/llms-full.txt`,
            markdown: 'Every page as Markdown: its path with .md added, or its own address with Accept: text/markdown',
            search_api: `${origin}/api/search?q={query}&limit={count}`,
            documentation: `${origin}/docs/`,
          });
      },
    );
};
export default discovery;
