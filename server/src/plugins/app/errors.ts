import type { FastifyError } from 'fastify';
import fp from 'fastify-plugin';

import { ReaderError, type ReaderErrorCode } from '../../auth/readers.js';
import { jsonRpcError } from '../../mcp/json-rpc.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What a 5xx of the route says instead of "Internal server error" (an administrator's change: nothing was changed). */
    failure?: string;
    /** The route's own words for a client error, by status (the CSV import names its limit and its type). */
    reasons?: Partial<Record<number, string>>;
  }
}

/** A refused request an administrator can fix, by what did not fit. */
const READER_ERROR_STATUS: Readonly<Record<ReaderErrorCode, number>> = {
  'unknown-reader': 404,
  'unknown-group': 400,
  exists: 409,
  'domain-group': 400,
  'bad-email': 400,
  guarded: 409,
};

/** JSON-RPC's codes for the transport errors of MCP: a body that is not JSON, one too large or of another type. */
const JSON_RPC_CODES: Readonly<Record<number, number>> = { 400: -32700, 413: -32600, 415: -32600 };

const statusOf = (error: FastifyError | ReaderError): number => {
  if (error instanceof ReaderError) return READER_ERROR_STATUS[error.code];
  return error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 500;
};

/**
 * The one error handler: a client error keeps its short reason, a server error is logged
 * and says nothing of its cause. And the answer to an address no route has.
 */
export default fp(
  async (app) => {
    app.setErrorHandler<FastifyError | ReaderError>((error, request, reply) => {
      const status = statusOf(error);
      const { failure, reasons, jsonRpc } = request.routeOptions.config;
      if (status >= 500) request.log.error({ err: error }, 'request failed');
      const message = status >= 500 ? (failure ?? 'Internal server error') : (reasons?.[status] ?? error.message);
      void reply.code(status).header('cache-control', 'no-store');
      return reply.send(
        jsonRpc === true ? jsonRpcError(JSON_RPC_CODES[status] ?? -32000, message) : { error: message },
      );
    });
    app.setNotFoundHandler((request, reply) => {
      if (request.url.startsWith('/api/')) return reply.code(404).send({ error: 'No such API endpoint' });
      return reply
        .code(405)
        .header('allow', 'GET, HEAD')
        .send({ error: `${request.method} is not allowed here` });
    });
  },
  { name: 'errors' },
);
