/** A JSON-RPC error answer with no request id (MCP's transport errors): `code` -32700 parse error, -32600 invalid request, -32000 the server's own. */
export const jsonRpcError = (code: number, message: string, data?: Record<string, unknown>) => ({
  jsonrpc: '2.0' as const,
  error: { code, message, ...(data === undefined ? {} : { data }) },
  id: null,
});
