import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

import { mayRead } from '@portal/access';
import { markdownUrl } from '@portal/built-site';
import { type ApiModels, apiChanges, apiModelsUrl, type ApiSymbolLike } from '@portal/built-site/api-reference';

import type { Reader } from '../auth/identity.js';
import type { Site, SiteFile } from '../site.js';

/** A package's models and who may read them (the file's labels: its section's). */
interface Models {
  file: SiteFile;
  models: ApiModels;
}

/** The served build's models, read once per build: its files do not change while it is served. */
let cached: { id: string; models: Models[] } | undefined;

/** Every package's models in the build: beside each newest reference index (`/docs/<section>/api/`). */
export function allModels(site: Site): Models[] {
  if (cached?.id === site.id) return cached.models;
  const found: Models[] = [];
  for (const page of site.pages) {
    if (!/\/api\/?$/i.test(page.url)) continue;
    const file = site.lookup(apiModelsUrl(page.url.replace(/api\/?$/i, '')));
    if (!file?.bodies.identity) continue;
    try {
      found.push({ file, models: JSON.parse(file.bodies.identity.toString('utf8')) as ApiModels });
    } catch {
      // a models file that is not JSON has no symbols to answer with
    }
  }
  cached = { id: site.id, models: found };
  return found;
}

/** The models of the packages a reader holding `units` may read. */
export function readableModels(site: Site, units: readonly string[]): ApiModels[] {
  return allModels(site)
    .filter(({ file }) => file.access === 'public' || mayRead(units, file.units))
    .map(({ models }) => models);
}

const simple = (name: string) => name.toLowerCase().replace(/^@[^/]+\//, '');

/** The package a reader means (its id, npm name with or without scope, or section), among those they may read. */
function packageFor(site: Site, units: readonly string[], wanted: string): Models | undefined {
  const key = simple(wanted.trim());
  return allModels(site)
    .filter(({ file }) => file.access === 'public' || mayRead(units, file.units))
    .find(({ models }) =>
      [models.id, models.package, models.basePath.replace(/^\/docs\/|\/$/g, '')].some(
        (name) => simple(name) === key || name.toLowerCase() === wanted.trim().toLowerCase(),
      ),
    );
}

const notFound = (text: string) => ({ isError: true, content: [{ type: 'text' as const, text }] });

const VERSION = z
  .string()
  .regex(/^\d{1,6}\.\d{1,6}\.\d{1,6}$/)
  .describe('A published release, such as 3.3.0');
const PACKAGE = z
  .string()
  .min(1)
  .max(214)
  .regex(/^[\w.@/-]+$/)
  .describe('The package: its npm name (@noriginmedia/norigin-spatial-navigation), without its scope, or its section');

/** The list of a change's symbols for an assistant: one line each. */
function lines(title: string, symbols: readonly (ApiSymbolLike & { before?: string })[]): string {
  if (symbols.length === 0) return `${title}: none`;
  return `${title} (${symbols.length}):\n${symbols
    .map((symbol) =>
      symbol.before === undefined
        ? `- ${symbol.name} (${symbol.kind}): ${symbol.declaration.split('\n')[0]}`
        : `- ${symbol.name} (${symbol.kind})\n  before: ${symbol.before.replace(/\n\s*/g, ' ')}\n  after:  ${symbol.declaration.replace(/\n\s*/g, ' ')}`,
    )
    .join('\n')}`;
}

/**
 * MCP's API reference tools: `get_symbol` (a symbol's declaration and docs in a release) and
 * `api_changes` (what changed between two releases), over the models the build leaves in each
 * package's section; a package outside the reader's units is one that does not exist.
 */
export function registerApiReferenceTools(
  server: McpServer,
  site: () => Site,
  reader: Reader,
  annotations: ToolAnnotations,
): void {
  server.registerTool(
    'get_symbol',
    {
      title: "A symbol of a package's API",
      description:
        'The declaration (signature), kind and doc comment of a symbol a synced package exports, such as useFocusable of @noriginmedia/norigin-spatial-navigation, in its newest release unless `version` names another, with its reference page.',
      annotations,
      inputSchema: {
        package: PACKAGE,
        name: z.string().min(1).max(200).describe('The exported name, such as useFocusable'),
        version: VERSION.optional(),
      },
    },
    async ({ package: wanted, name, version }) => {
      const current = site();
      const found = packageFor(current, reader.units, wanted);
      if (!found) return notFound(`No API reference of ${wanted}. Use list_sections to see the packages.`);
      const { models } = found;
      const release = models.versions.find((entry) => entry.version === (version ?? models.latest));
      if (!release)
        return notFound(
          `${models.package} has no release ${version} with type declarations; these have: ${models.versions.map((entry) => entry.version).join(', ')}.`,
        );
      const symbol =
        release.symbols.find((candidate) => candidate.name === name) ??
        release.symbols.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
      if (!symbol) {
        const near = release.symbols
          .filter((candidate) => candidate.name.toLowerCase().includes(name.toLowerCase().slice(0, 6)))
          .map((candidate) => candidate.name);
        return notFound(
          `${models.package} ${release.version} exports no ${name}.${near.length ? ` Similar: ${near.join(', ')}.` : ''}`,
        );
      }
      const url = release.path ? `${release.path}${symbol.slug ?? symbol.name}` : undefined;
      const twin = url ? current.lookup(markdownUrl(url)) : undefined;
      // The page's own labels decide too (they are its section's, as the models' are).
      const page =
        twin && (twin.access === 'public' || mayRead(reader.units, twin.units))
          ? twin.bodies.identity?.toString('utf8')
          : undefined;
      const text = [
        `${symbol.name}: a ${symbol.kind} of ${models.package} ${release.version}${symbol.from && symbol.from !== models.package ? `, declared in ${symbol.from}` : ''}.`,
        `\`\`\`ts\n${symbol.declaration}\n\`\`\``,
        symbol.summary ?? '',
        url ? `Reference page: ${url} (Markdown: ${markdownUrl(url)})` : '',
        page ? `---\n\n${page}` : '',
      ]
        .filter(Boolean)
        .join('\n\n');
      return {
        content: [{ type: 'text', text }],
        structuredContent: {
          package: models.package,
          version: release.version,
          name: symbol.name,
          kind: symbol.kind,
          declaration: symbol.declaration,
          summary: symbol.summary ?? '',
          ...(symbol.from ? { from: symbol.from } : {}),
          ...(url ? { url, mdUrl: markdownUrl(url) } : {}),
        },
      };
    },
  );

  server.registerTool(
    'api_changes',
    {
      title: "What changed in a package's API",
      description:
        "What a synced package's exported API removed, changed and added from one release to another, worked out from the releases' type declarations (not the changelog).",
      annotations,
      inputSchema: {
        package: PACKAGE,
        from: VERSION.describe('The release you are on, such as 2.3.0'),
        to: VERSION.optional().describe('The release you move to; the newest when left out'),
      },
    },
    async ({ package: wanted, from, to }) => {
      const found = packageFor(site(), reader.units, wanted);
      if (!found) return notFound(`No API reference of ${wanted}. Use list_sections to see the packages.`);
      const { models } = found;
      const target = to ?? models.latest;
      const [older, newer] = [from, target].map((version) =>
        models.versions.find((entry) => entry.version === version),
      );
      if (!older || !newer)
        return notFound(
          `${models.package} has no release ${older ? target : from} with type declarations; these have: ${models.versions.map((entry) => entry.version).join(', ')}.`,
        );
      const changes = apiChanges(older, newer);
      const text = [
        `API changes of ${models.package} from ${from} to ${target}:`,
        lines('Removed', changes.removed),
        lines('Changed', changes.changed),
        lines('Added', changes.added),
        newer.path ? `Reference of ${target}: ${newer.path}` : '',
      ]
        .filter(Boolean)
        .join('\n\n');
      const brief = (symbol: ApiSymbolLike) => ({
        name: symbol.name,
        kind: symbol.kind,
        declaration: symbol.declaration,
      });
      return {
        content: [{ type: 'text', text }],
        structuredContent: {
          package: models.package,
          from,
          to: target,
          removed: changes.removed.map(brief),
          changed: changes.changed.map((symbol) => ({ ...brief(symbol), before: symbol.before })),
          added: changes.added.map(brief),
        },
      };
    },
  );
}
