import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';

import { clientOf } from '../auth/reader.js';
import { jsonRpcError } from '../mcp/json-rpc.js';
import { mcpServer } from '../mcp/server.js';

/**
 * MCP over Streamable HTTP at `/mcp`, stateless: each request is answered by a server made
 * for the reader of its token (mcp/server.ts). Tokens only, a personal one or an OAuth access
 * token of the portal's authorization server: an assistant has no session cookie.
 */
const mcp: FastifyPluginAsyncTypebox = async (app) => {
  const { meter, guards } = app;
  // Every JSON-RPC message of a batch (MCP 2025-03-26 allows batches) is a unit of the budget:
  // a batch of a hundred read_page calls costs what a hundred requests do.
  const messages = (body: unknown): number => (Array.isArray(body) ? Math.max(1, body.length) : 1);
  app.post(
    '/mcp',
    {
      // MCP's messages are JSON-RPC, whose contract is MCP's own: not in the portal's OpenAPI document.
      schema: { hide: true },
      config: {
        token: 'read',
        oauth: true,
        jsonRpc: true,
        // A body that is not JSON, too large or of another type: JSON-RPC's words, as MCP clients expect.
        reasons: {
          400: 'Parse error: the body is not JSON',
          413: 'Invalid request: the body is too large',
          415: 'Invalid request: send Content-Type: application/json',
        },
      },
      onRequest: guards.browsersFromThisSite,
      preHandler: (request, reply) => meter.admit(request, reply, messages(request.body)),
    },
    async (request, reply) => {
      const outcome = await request.reader;
      if (outcome.kind !== 'reader') return reply.refuse(outcome);
      const server = mcpServer(request, outcome.reader, clientOf(outcome));
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );
  for (const method of ['GET', 'DELETE'] as const)
    app.route({
      method,
      url: '/mcp',
      schema: { hide: true },
      handler: async (_request, reply) =>
        reply.code(405).header('allow', 'POST').send(jsonRpcError(-32000, 'This MCP server is stateless: POST only')),
    });
};
export default mcp;
