import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

import { accessUnits, canRead, mayRead, policy } from '@portal/access';
import { markdownUrl, pageOfMarkdown } from '@portal/built-site';
import {
  AdminTokenList,
  AdminTokenQuery,
  CreatedToken,
  ErrorAnswer,
  NoContent,
  SearchAnswer,
  SearchQuery,
  TokenCreate,
  TokenIdParams,
  TokenList,
} from '@portal/contract';

import type { Reader } from '../auth/identity.js';
import { clientOf, type ReaderOutcome } from '../auth/reader.js';
import { MAX_LIVE_TOKENS, MAX_TOKEN_DAYS, TooManyTokensError } from '../auth/tokens.js';
import type { ViewClient } from '../db/page-views.js';
import { listTokens, queryTokens, tokenCursorOf } from '../db/tokens.js';
import { agentReader } from '../plugins/agent-meter.js';
import { ADMIN_PATH, BEARER_CHALLENGE } from '../plugins/guards.js';
import { mcpChallenge, originOf, resourceMetadataUrl } from './oauth.js';
import type { SiteFile } from '../site.js';
import { registerApiReferenceTools } from './api-reference-tools.js';
import type { GateContext } from './context.js';

/** The gate's context; agents need its tokens and search. */
export type AgentContext = GateContext;

const SITE_NAME = 'Norigin Developer Docs';
const SITE_SUMMARY =
  "Documentation of Norigin Media's TV front-end packages: the player manager with its player and tracking adapters, the UI toolkit, Norigin Spatial Navigation, the layout engine, the whitelabel setup, the reference and demo apps, and the front-end team's guidelines.";

/** The units a request reads with on an agent surface: null for anonymous (public only). */
const unitsOf = (outcome: ReaderOutcome): readonly string[] | null =>
  outcome.kind === 'reader' ? outcome.reader.units : null;

/** The llms.txt fragments a reader may read, in the policy's unit order. */
function fragments(ctx: AgentContext, units: readonly string[] | null, which: 'index' | 'full'): string[] {
  return accessUnits()
    .filter((unit) => mayRead(units, unit.readers))
    .map((unit) => ctx.site.lookup(`/llms/${unit.id}/${which}.md`)?.bodies.identity?.toString('utf8') ?? '')
    .filter((text) => text.trim() !== '');
}

/**
 * A fragment with the portal's own links made absolute at `origin` (llms.txt's links, and the
 * `Source:` line that names each page of llms-full.txt): an assistant reads them out of context.
 */
export const absoluteLinks = (text: string, origin: string): string =>
  text.replace(/(\]\(|^Source: )\//gm, `$1${origin}/`);

/** The Markdown twin of a page, for a path given in any of the usual forms. */
export function markdownFileFor(ctx: GateContext, path: string): SiteFile | undefined {
  let pathname = path.trim();
  try {
    pathname = new URL(pathname, 'http://portal.invalid').pathname;
  } catch {
    return undefined;
  }
  if (pageOfMarkdown(pathname) === null) {
    const page = ctx.site.lookup(pathname);
    if (!page || page.kind !== 'page') return undefined;
    pathname = markdownUrl(page.url);
  }
  const file = ctx.site.lookup(pathname);
  return file && pageOfMarkdown(file.url) !== null ? file : undefined;
}

const readable = (units: readonly string[] | null, file: SiteFile): boolean =>
  file.access === 'public' || mayRead(units, file.units);

/** Every tool only reads the documentation: no side effects, the same answer again, nothing outside the portal. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** A JSON-RPC error answer with no request id (MCP's transport errors): `code` -32700 parse error, -32000 the server's own. */
export const jsonRpcError = (code: number, message: string, data?: Record<string, unknown>) => ({
  jsonrpc: '2.0' as const,
  error: { code, message, ...(data === undefined ? {} : { data }) },
  id: null,
});

/**
 * A search an assistant made for a reader, for the insights beside the readers' own: queued
 * (the store writes searches in batches, off the request path), never awaited.
 */
function recordSearch(
  ctx: AgentContext,
  reader: Reader,
  via: 'api' | 'mcp',
  client: ViewClient,
  query: string,
  results: number,
): void {
  ctx.store.searches.record({ uid: reader.uid, groups: reader.groups, query: query.trim(), results, via, client });
}

/**
 * The MCP server of one reader: every tool sees exactly what that reader may read. `client`:
 * the assistant (its token's or OAuth client's name), named with what it searches and reads.
 */
function mcpServer(ctx: AgentContext, reader: Reader, request: FastifyRequest, client: ViewClient | null): McpServer {
  const server = new McpServer(
    { name: 'norigin-developer-docs', version: '1.0.0' },
    {
      instructions: `${SITE_SUMMARY} Search with search_docs, read a page as Markdown with read_page, see what is there with list_sections, get a package's newest release notes with latest_changelog, and a synced package's API with get_symbol and api_changes. You see the pages that ${reader.email} may read.`,
    },
  );
  const notFound = (path: string) => ({
    isError: true,
    // The same words for a page that does not exist and one outside the reader's groups.
    content: [{ type: 'text' as const, text: `No page at ${path}. Use search_docs or list_sections to find one.` }],
  });

  server.registerTool(
    'search_docs',
    {
      title: 'Search the documentation',
      annotations: READ_ONLY,
      description:
        'Full-text search over the pages you may read. Returns titles, paths, .md paths and snippets, best first. A package synced from its releases is searched at its newest release unless `version` names another.',
      inputSchema: {
        query: z.string().min(1).max(200),
        limit: z.number().int().min(1).max(20).optional().describe('How many results, 1 to 20 (8 when not given).'),
        version: z
          .string()
          .regex(/^\d{1,6}\.\d{1,6}\.\d{1,6}$/)
          .optional()
          .describe('A release of a synced package, such as 2.3.0: search only its pages.'),
      },
    },
    async ({ query, limit, version }) => {
      const results = await ctx.search.search(reader.units, query, limit ?? 8, version);
      if (client !== null) recordSearch(ctx, reader, 'mcp', client, query, results.length);
      const text =
        results.length === 0
          ? `No pages${version ? ` of version ${version}` : ''} match "${query}".`
          : results.map((r, i) => `${i + 1}. ${r.title} — ${r.url} (Markdown: ${r.mdUrl})\n   ${r.snippet}`).join('\n');
      return { content: [{ type: 'text', text }], structuredContent: { results } };
    },
  );

  server.registerTool(
    'read_page',
    {
      title: 'Read a page',
      annotations: READ_ONLY,
      description:
        'A page of the documentation as Markdown, by its path (/docs/layout-engine/, /docs/layout-engine.md or a full URL).',
      inputSchema: { path: z.string().min(1).max(2048) },
    },
    async ({ path }) => {
      const file = markdownFileFor(ctx, path);
      if (!file || !readable(reader.units, file)) return notFound(path);
      const page = pageOfMarkdown(file.url) ?? file.url;
      // Like every other page view: recorded unless AUDIT_PAGE_VIEWS=false turns them off.
      if (ctx.config.audit.pageViews)
        ctx.recordView(request, reader, ctx.site.lookup(page)?.url ?? page, 'mcp', client);
      return { content: [{ type: 'text', text: file.bodies.identity?.toString('utf8') ?? '' }] };
    },
  );

  server.registerTool(
    'list_sections',
    {
      title: 'List the sections and pages',
      annotations: READ_ONLY,
      description: 'Every section you may read, with its pages: title, .md path and one-line description.',
      inputSchema: {},
    },
    async () => ({
      content: [
        {
          type: 'text',
          text: absoluteLinks(fragments(ctx, reader.units, 'index').join('\n') || 'No pages.', originOf(ctx, request)),
        },
      ],
    }),
  );

  server.registerTool(
    'latest_changelog',
    {
      title: "A package's latest release notes",
      annotations: READ_ONLY,
      description:
        'The newest entry of a package\'s or repository\'s changelog, such as "player-adapter-shaka" or "layout-engine".',
      inputSchema: {
        package: z
          .string()
          .min(1)
          .max(100)
          .regex(/^[\w.@/-]+$/),
      },
    },
    async ({ package: name }) => {
      const wanted = `/${name.replace(/^@noriginmedia\//, '').toLowerCase()}/changelog.md`;
      const file = ctx.site.pages
        .map((page) => markdownFileFor(ctx, page.url))
        .find(
          (candidate) =>
            candidate !== undefined &&
            candidate.url.toLowerCase().endsWith(wanted) &&
            readable(reader.units, candidate),
        );
      if (!file) return notFound(`the changelog of ${name}`);
      const markdown = file.bodies.identity?.toString('utf8') ?? '';
      const [, ...releases] = markdown.split(/^(?=## )/m);
      const latest = releases[0]?.trim() ?? markdown;
      return { content: [{ type: 'text', text: `${latest}\n\nFull changelog: ${file.url}` }] };
    },
  );
  // Tools are fixed for a server's life (one per request): no list-changed notification is ever sent, so none is advertised.
  server.server.registerCapabilities({ tools: { listChanged: undefined } });
  // get_symbol and api_changes: the synced packages' API, from the models the build leaves.
  registerApiReferenceTools(server, () => ctx.site, reader, READ_ONLY);
  return server;
}

/**
 * What coding assistants use, each limited to the reader behind the request: `llms.txt`
 * and `llms-full.txt`, the search API, personal access tokens (made and revoked by the
 * reader, or by an administrator), and the MCP server at `/mcp` (tokens only).
 */
export async function agentRoutes(app: FastifyInstance, ctx: AgentContext): Promise<void> {
  const refuse = (reply: FastifyReply, error: string, challenge = BEARER_CHALLENGE) =>
    reply.code(401).header('www-authenticate', challenge).send({ error });
  /** Charges the request's budget before its credential is even looked up: `cost` units (an MCP batch: its messages). */
  const metered =
    (cost: (request: FastifyRequest) => number = () => 1) =>
    async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      const wait = await ctx.meter.charge(request, cost(request));
      if (wait === null) return;
      const error = `Too many requests with this token; try again in ${wait} s`;
      // MCP clients read JSON-RPC: /mcp says it as a JSON-RPC error too.
      await reply
        .code(429)
        .header('retry-after', String(wait))
        .send(request.routeOptions.url === '/mcp' ? jsonRpcError(-32000, error, { retryAfter: wait }) : { error });
    };
  // Agent surfaces take a personal access token as well as the session.
  const agentSurface = { tokens: true };

  const llmsText = {
    response: {
      200: {
        description: 'The pages the reader may read, as llms.txt',
        content: { 'text/plain': { schema: { type: 'string' } } },
      },
    },
  };
  for (const [path, which] of [
    ['/llms.txt', 'index'],
    ['/llms-full.txt', 'full'],
  ] as const) {
    app.get(path, { config: agentSurface, preHandler: metered(), schema: llmsText }, async (request, reply) => {
      void reply.header('cache-control', 'private, no-store').header('vary', 'Cookie, Authorization');
      const outcome = await agentReader(request, reply, ctx);
      if (outcome === null) return reply;
      const units = unitsOf(outcome);
      // An assistant reading the llms file (with a token): counted as a view of the file itself.
      const client = clientOf(outcome);
      if (client !== null && outcome.kind === 'reader' && ctx.config.audit.pageViews)
        ctx.recordView(request, outcome.reader, path, 'llms', client);
      const header =
        which === 'index'
          ? `# ${SITE_NAME}\n\n> ${SITE_SUMMARY}\n\n${units === null ? 'These are the open pages; sign in, or send a personal access token, for the rest.\n\n' : ''}`
          : `# ${SITE_NAME}: the full text\n\n> ${SITE_SUMMARY}\n\n`;
      const body = header + fragments(ctx, units, which).join(which === 'index' ? '\n' : '\n---\n\n');
      return reply.type('text/plain; charset=utf-8').send(absoluteLinks(body, originOf(ctx, request)));
    });
  }

  // Where an assistant finds everything above, for anyone (it names addresses, never content).
  for (const url of ['/.well-known/mcp', '/.well-known/mcp.json'])
    app.get(
      url,
      { schema: { hide: true }, config: { rateLimit: { max: 60, timeWindow: 60_000 } } },
      async (request, reply) => {
        const origin = originOf(ctx, request);
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

  app.get(
    '/api/search',
    {
      config: agentSurface,
      preHandler: metered(),
      schema: { querystring: SearchQuery, response: { 200: SearchAnswer } },
    },
    async (request, reply) => {
      void reply.header('cache-control', 'private, no-store').header('vary', 'Cookie, Authorization');
      const outcome = await agentReader(request, reply, ctx);
      if (outcome === null) return reply;
      const { q, limit, version } = request.query as { q: string; limit?: string; version?: string };
      const results = await ctx.search.search(unitsOf(outcome) ?? [], q, limit ? Number(limit) : 10, version);
      // An assistant's search (a token or OAuth); a session's is the reader's own browser, counted by the site.
      const client = clientOf(outcome);
      if (client !== null && outcome.kind === 'reader')
        recordSearch(ctx, outcome.reader, 'api', client, q, results.length);
      return { query: q, ...(version === undefined ? {} : { version }), results };
    },
  );

  // Tokens are managed with the session (the /account page), never with a token.
  const sessionOnly = [
    ctx.guards.noStore('private, no-store'),
    ctx.guards.writesFromThisSite,
    ctx.guards.requireReader('Sign in to manage your tokens'),
    async (_request: FastifyRequest, reply: FastifyReply) => {
      if (!reply.sent && !ctx.store.readyNow)
        return reply.code(503).send({ error: 'Tokens are not available right now' });
    },
  ];

  app.get('/api/tokens', { onRequest: sessionOnly, schema: { response: { 200: TokenList } } }, async (request) => {
    const reader = request.signedIn as Reader;
    return {
      email: reader.email,
      groups: reader.groups,
      groupLabels: policy.groups,
      tokens: await listTokens(ctx.store.db, reader.uid),
      maxDays: MAX_TOKEN_DAYS,
      maxLive: MAX_LIVE_TOKENS,
    };
  });

  app.post(
    '/api/tokens',
    {
      onRequest: sessionOnly,
      config: { rateLimit: { max: 20, timeWindow: 60_000, hook: 'preHandler' as const } },
      schema: { body: TokenCreate, response: { 201: CreatedToken, 403: ErrorAnswer, 409: ErrorAnswer } },
    },
    async (request, reply) => {
      const reader = request.signedIn as Reader;
      const { name, days, scope = 'read' } = request.body as TokenCreate;
      // Whoever may read the administration page may automate it: the policy decides, as for the API.
      if (scope === 'admin' && !canRead(reader.units, ADMIN_PATH))
        return reply.code(403).send({ error: 'Only administrators may make a token for the administration API' });
      let created;
      try {
        created = await ctx.tokens.create(reader, name.trim(), days, scope);
      } catch (error) {
        if (error instanceof TooManyTokensError) return reply.code(409).send({ error: error.message });
        throw error;
      }
      const { token, record } = created;
      ctx.audit(request, {
        kind: 'token.created',
        actorUid: reader.uid,
        actorEmail: reader.email,
        groups: reader.groups,
        detail: { token: record.id, name: record.name, expiresAt: record.expiresAt, scope: record.scope },
      });
      return reply.code(201).send({ token, record });
    },
  );

  app.delete(
    '/api/tokens/:id',
    {
      onRequest: sessionOnly,
      schema: { params: TokenIdParams, response: { 204: NoContent, 404: ErrorAnswer } },
    },
    async (request, reply) => {
      const reader = request.signedIn as Reader;
      const { id } = request.params as { id: string };
      const revoked = await ctx.tokens.revoke(id, reader.uid);
      if (!revoked) return reply.code(404).send({ error: 'No such token of yours, or it was already revoked' });
      ctx.audit(request, {
        kind: 'token.revoked',
        actorUid: reader.uid,
        actorEmail: reader.email,
        detail: { token: id, name: revoked.name },
      });
      return reply.code(204).send();
    },
  );

  // MCP over Streamable HTTP, stateless: each request is answered by a server made for the
  // reader of its token. Tokens only: an assistant has no session cookie.
  // Every JSON-RPC message of a batch (MCP 2025-03-26 allows batches) is a unit of the budget:
  // a batch of a hundred read_page calls costs what a hundred requests do.
  const messages = (request: FastifyRequest): number =>
    Array.isArray(request.body) ? Math.max(1, request.body.length) : 1;
  // MCP's messages are JSON-RPC, whose contract is MCP's own: not in the portal's OpenAPI document.
  const mcp = { hide: true };
  // An OAuth access token of the portal's authorization server (routes/oauth.ts) counts here too.
  const mcpSurface = { tokens: true, oauth: true };
  const withOAuth = { ...ctx, oauthKnown: (secret: string) => ctx.oauth.isKnown(secret) };
  // A body that is not JSON (or too large) gets a JSON-RPC error, as MCP clients expect; other errors as everywhere.
  const mcpErrors = (
    error: Error & { code?: string; statusCode?: number },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => {
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
      return reply.code(400).send(jsonRpcError(-32700, 'Parse error: the body is not JSON'));
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return reply.code(413).send(jsonRpcError(-32600, 'Invalid request: the body is too large'));
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      return reply.code(415).send(jsonRpcError(-32600, 'Invalid request: send Content-Type: application/json'));
    throw error;
  };
  app.post(
    '/mcp',
    { config: mcpSurface, preHandler: metered(messages), schema: mcp, errorHandler: mcpErrors },
    async (request, reply) => {
      const origin = request.headers.origin;
      if (
        origin !== undefined &&
        origin !== `${request.protocol}://${request.host}` &&
        origin !== ctx.config.publicOrigin
      )
        return reply.code(403).send({ error: 'Cross-origin requests are not allowed' });
      // The challenge names the protected-resource metadata (RFC 9728), where an OAuth client starts.
      const challenge = mcpChallenge(originOf(ctx, request));
      // Checked before the reader is resolved, so a session cookie alone costs no look-up here.
      if (request.headers.authorization === undefined)
        return refuse(
          reply,
          'The MCP server needs a token (Authorization: Bearer …): sign in through OAuth, or make a personal token on /account',
          challenge,
        );
      const outcome = await agentReader(request, reply, withOAuth, challenge);
      if (outcome === null) return reply;
      if (outcome.kind !== 'reader')
        return refuse(reply, 'The token is not valid (unknown, expired or revoked)', challenge);
      const server = mcpServer(ctx, outcome.reader, request, clientOf(outcome));
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
      schema: mcp,
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header('allow', 'POST')
          .send({
            jsonrpc: '2.0',
            error: { code: -32000, message: 'This MCP server is stateless: POST only' },
            id: null,
          }),
    });
}

/** Most tokens on a page of the administrators' list. */
const ADMIN_TOKEN_PAGE = 200;

/** For administrators: every reader's tokens, a page at a time, and revoking any of them. */
export async function adminTokenRoutes(app: FastifyInstance, ctx: AgentContext): Promise<void> {
  app.get(
    '/tokens',
    {
      schema: { querystring: AdminTokenQuery, response: { 200: AdminTokenList, 503: ErrorAnswer } },
    },
    async (request, reply) => {
      if (!ctx.store.readyNow)
        return reply.code(503).send({ error: 'The database is not reachable; try again shortly' });
      const query = request.query as AdminTokenQuery;
      const limit = Math.min(Number(query.limit ?? ADMIN_TOKEN_PAGE), ADMIN_TOKEN_PAGE);
      const tokens = await queryTokens(ctx.store.db, { reader: query.reader, before: query.before, limit });
      const last = tokens.at(-1);
      return { tokens, next: tokens.length === limit && last ? tokenCursorOf(last) : null };
    },
  );
  app.delete(
    '/tokens/:id',
    { schema: { params: TokenIdParams, response: { 204: NoContent, 404: ErrorAnswer } } },
    async (request, reply) => {
      const { id } = request.params as { id: string };
      const revoked = await ctx.tokens.revoke(id, null);
      if (!revoked) return reply.code(404).send({ error: 'No such token, or it was already revoked' });
      ctx.audit(request, {
        kind: 'token.revoked',
        actorUid: request.signedIn?.uid,
        actorEmail: request.signedIn?.email,
        subjectUid: revoked.uid,
        subjectEmail: revoked.email,
        detail: { token: id, name: revoked.name, byAdministrator: true },
      });
      return reply.code(204).send();
    },
  );
}
