import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';

import { mayRead } from '@portal/access';
import { pageOfMarkdown } from '@portal/built-site';

import type { Reader } from '../auth/identity.js';
import type { ViewClient } from '../db/page-views.js';
import { absoluteLinks, llmsFragments, SITE_SUMMARY } from '../llms.js';
import { markdownTwinOf, type Site, type SiteFile } from '../site.js';
import { newsMarkdown } from '../whats-new/render.js';
import { NewsQueryError, newsFor } from '../whats-new/service.js';
import { registerApiReferenceTools } from './api-reference-tools.js';

/** The Markdown twin of a page, for a path given in any of the usual forms (a page's, its `.md`, a full URL). */
export function markdownFileFor(site: Site, path: string): SiteFile | undefined {
  let pathname: string;
  try {
    pathname = new URL(path.trim(), 'http://portal.invalid').pathname;
  } catch {
    return undefined;
  }
  return markdownTwinOf(site, pathname, 'text/markdown');
}

const readable = (units: readonly string[] | null, file: SiteFile): boolean =>
  file.access === 'public' || mayRead(units, file.units);

/** Every tool only reads the documentation: no side effects, the same answer again, nothing outside the portal. */
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/**
 * The MCP server of one reader, for one request: every tool sees exactly what that reader may
 * read. `client`: the assistant (its token's or OAuth client's name), named with what it
 * searches and reads.
 */
export function mcpServer(request: FastifyRequest, reader: Reader, client: ViewClient | null): McpServer {
  const app = request.server;
  const { site, siteSearch, store, config } = app;
  const server = new McpServer(
    { name: 'norigin-developer-docs', version: '1.0.0' },
    {
      instructions: `${SITE_SUMMARY} Search with search_docs, read a page as Markdown with read_page, see what is there with list_sections, get a package's newest release notes with latest_changelog, a synced package's API with get_symbol and api_changes, and what changed for this reader with whats_new. You see the pages that ${reader.email} may read.`,
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
      const results = await siteSearch.search(reader.units, query, limit ?? 8, version);
      // An assistant's search, for the insights beside the readers' own (written in batches, off the request path).
      if (client !== null)
        store.searches.record({
          uid: reader.uid,
          groups: reader.groups,
          query: query.trim(),
          results: results.length,
          via: 'mcp',
          client,
        });
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
      const file = markdownFileFor(site, path);
      if (!file || !readable(reader.units, file)) return notFound(path);
      const page = pageOfMarkdown(file.url) ?? file.url;
      // Like every other page view: recorded unless AUDIT_PAGE_VIEWS=false turns them off.
      if (config.audit.pageViews) app.recordView(request, reader, site.lookup(page)?.url ?? page, 'mcp', client);
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
          text: absoluteLinks(
            llmsFragments(site, reader.units, 'index').join('\n') || 'No pages.',
            app.originOf(request),
          ),
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
      const file = site.pages
        .map((page) => markdownFileFor(site, page.url))
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
  server.registerTool(
    'whats_new',
    {
      title: "What's new for you",
      annotations: READ_ONLY,
      description:
        "What changed for the reader since their last visit or a date: the new releases of the packages they may read with each one's removed, changed and added symbols (the symbols they use first, with the old and new signatures), the pages changed since they read them, and new pages. The same answer as their /account/whats-new page.",
      inputSchema: {
        since: z
          .string()
          .max(40)
          .optional()
          .describe('A date (2026-11-01) or time (2026-11-01T09:00:00Z); the reader’s last visit when not given.'),
        package: z
          .string()
          .min(1)
          .max(214)
          .regex(/^[\w.@/-]+$/)
          .optional()
          .describe('Only this package: its npm name, without its scope, or its section.'),
      },
    },
    async ({ since, package: only }) => {
      if (!store.readyNow)
        return {
          isError: true,
          content: [{ type: 'text', text: 'The portal’s database is not ready; try again shortly.' }],
        };
      try {
        const news = await newsFor({ site, db: store.db }, reader, { since, package: only }, new Date(app.clock()));
        const origin = app.originOf(request);
        return {
          content: [{ type: 'text', text: newsMarkdown(news, (path) => new URL(path, origin).href, reader.email) }],
          structuredContent: news as unknown as Record<string, unknown>,
        };
      } catch (error) {
        if (error instanceof NewsQueryError) return { isError: true, content: [{ type: 'text', text: error.message }] };
        throw error;
      }
    },
  );
  // Tools are fixed for a server's life (one per request): no list-changed notification is ever sent, so none is advertised.
  server.server.registerCapabilities({ tools: { listChanged: undefined } });
  // get_symbol and api_changes: the synced packages' API, from the models the build leaves.
  registerApiReferenceTools(server, () => site, reader, READ_ONLY);
  return server;
}
