import { mayRead } from '@portal/access';
import { markdownUrl } from '@portal/built-site';
import type { ApiModels } from '@portal/built-site/api-reference';

import { allModels, readableModels } from '../mcp/api-reference-tools.js';
import type { Database } from '../db/database.js';
import {
  lastReadPages,
  lastVisit,
  pageTextTimes,
  readerSettings,
  recordPageTexts,
  watchesOf,
} from '../db/whats-new.js';
import type { Site } from '../site.js';
import { identifiersIn, type ModelSymbol, namesPackage, type ReadablePage, type WhatsNew, whatsNew } from './model.js';

/** How far back "what's new" looks for a reader who has no visit before this one. */
export const FIRST_VISIT_DAYS = 30;
/** The earliest date a reader may ask for. */
export const OLDEST_SINCE_DAYS = 3 * 366;
const DAY_MS = 86_400_000;

/** A page of the build as "what's new" needs it: its title, the hash and text of its Markdown. */
interface PageFacts extends ReadablePage {
  access: 'public' | 'private';
  units: readonly string[];
  hash: string;
  markdown: string | undefined;
  /** The identifiers its Markdown names, worked out when first asked. */
  names?: Set<string>;
}

/** The facts of the served build's pages, worked out once per build. */
let cachedFacts: { id: string; facts: PageFacts[] } | undefined;

function pageFacts(site: Site): PageFacts[] {
  if (cachedFacts?.id === site.id) return cachedFacts.facts;
  const facts = site.pages.map((page) => {
    const twin = site.lookup(markdownUrl(page.url));
    const file = site.lookup(page.url);
    const markdown = twin?.bodies.identity?.toString('utf8');
    const title = /^#\s+(.+)$/m.exec(markdown ?? '')?.[1]?.trim() ?? titleOfHtml(file?.bodies.identity) ?? page.url;
    return {
      url: page.url,
      title,
      access: page.access,
      units: page.units,
      hash: twin?.etag ?? file?.etag ?? '',
      markdown,
    };
  });
  cachedFacts = { id: site.id, facts };
  return facts;
}

function titleOfHtml(html: Buffer | undefined): string | undefined {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html?.toString('utf8') ?? '')?.[1];
  return title?.replace(/\s*\|.*$/, '').trim() || undefined;
}

/** The row a synced package's release is kept as beside the pages' texts: when a gate first served it. */
const RELEASE_ROW = 'release:';

/**
 * Records the text of every page of `site` and each release of its synced packages
 * (db/whats-new.ts `recordPageTexts`): the first build a database sees is its baseline.
 */
export function recordSiteTexts(db: Database, site: Site, now: Date): Promise<number> {
  const releases = allModels(site).flatMap(({ models }) =>
    models.versions.map((version) => ({ path: `${RELEASE_ROW}${models.id}@${version.version}`, hash: 'served' })),
  );
  return recordPageTexts(
    db,
    [
      ...pageFacts(site)
        .filter((page) => page.hash !== '')
        .map((page) => ({ path: page.url, hash: page.hash })),
      ...releases,
    ],
    now,
  );
}

/** When each release (`<package id>@<version>`) was first served, in milliseconds (-Infinity: before the baseline). */
export async function releaseSeenTimes(db: Database): Promise<Map<string, number>> {
  const times = await pageTextTimes(db, RELEASE_ROW);
  return new Map([...times].map(([path, { first }]) => [path.slice(RELEASE_ROW.length), first]));
}

/** A bad `since` or `package`, in words for the reader (a 400). */
export class NewsQueryError extends Error {}

export interface NewsQuery {
  since?: string;
  package?: string;
}

/** Reads `since`: an ISO date or date-time, not in the future, not before OLDEST_SINCE_DAYS. */
export function parseSince(value: string | undefined, now: Date): Date | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(text))
    throw new NewsQueryError(`"since" must be a date such as 2026-11-01 or a time such as 2026-11-01T09:00:00Z`);
  const at = new Date(text.length === 10 ? `${text}T00:00:00Z` : text);
  // A day past its month's end is rolled over by Date ("2026-02-30" is 2 March): refused instead.
  const [year, month, date] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const day = new Date(Date.UTC(year, month - 1, date));
  if (Number.isNaN(at.getTime()) || day.getUTCMonth() !== month - 1 || day.getUTCDate() !== date)
    throw new NewsQueryError(`"since" is not a date that exists: ${text}`);
  if (at.getTime() > now.getTime()) throw new NewsQueryError('"since" is in the future; nothing is new after it yet');
  if (at.getTime() < now.getTime() - OLDEST_SINCE_DAYS * DAY_MS)
    throw new NewsQueryError(`"since" may go back ${OLDEST_SINCE_DAYS} days at most`);
  return at;
}

/**
 * "What's new for you" for one reader, from the build served now and the database: only the
 * packages and pages the reader's units may read go in, before anything is worked out.
 */
export async function newsFor(
  deps: { site: Site; db: Database },
  reader: { uid: string; units: readonly string[] },
  query: NewsQuery,
  now: Date,
  /** A start no reader may ask for (a package's feed: every release). */
  from?: Date,
): Promise<WhatsNew> {
  const { site, db } = deps;
  const asked = from ?? parseSince(query.since, now);
  const readable = pageFacts(site).filter((page) => page.access === 'public' || mayRead(reader.units, page.units));
  const models = readableModels(site, reader.units) as ApiModels<ModelSymbol>[];
  if (query.package !== undefined) {
    const wanted = query.package.trim();
    const known = models.some((m) => namesPackage(m, wanted)) || sectionsOf(readable).some((s) => s.name === wanted);
    if (!known) throw new NewsQueryError(`No package "${wanted}" among those you may read`);
  }
  const [lastRead, texts, watches, settings, visit] = await Promise.all([
    lastReadPages(db, reader.uid),
    pageTextTimes(db, '/'),
    watchesOf(db, reader.uid),
    readerSettings(db, reader.uid),
    asked ? Promise.resolve(null) : lastVisit(db, reader.uid, now),
  ]);
  const readableUrls = new Set(readable.map((page) => page.url));
  for (const path of [...lastRead.keys()]) if (!readableUrls.has(path)) lastRead.delete(path);
  const byUrl = new Map(readable.map((page) => [page.url, page]));
  const since = asked ?? visit ?? new Date(now.getTime() - FIRST_VISIT_DAYS * DAY_MS);
  const sections = sectionsOf(readable);
  const onlySection = query.package === undefined ? undefined : sections.find((s) => s.name === query.package?.trim());
  const news = whatsNew({
    since,
    sinceFrom: asked ? 'asked' : visit ? 'last-visit' : 'default',
    now,
    models,
    sections,
    pages: readable,
    texts: new Map([...texts].filter(([path]) => readableUrls.has(path))),
    reading: {
      lastRead,
      namesIn: (path) => {
        const page = byUrl.get(path);
        if (page?.markdown === undefined) return undefined;
        page.names ??= identifiersIn(page.markdown);
        return page.names;
      },
    },
    watches,
    personalOrder: settings.personalOrder,
    ...(query.package === undefined ? {} : { only: onlySection ? onlySection.basePath : query.package }),
  });
  return news;
}

/** The sections of the pages a reader may read (`/docs/<section>/`), titled by their first page. */
function sectionsOf(pages: readonly PageFacts[]): { name: string; basePath: string; title: string }[] {
  const sections = new Map<string, { name: string; basePath: string; title: string }>();
  for (const page of pages) {
    const name = /^\/docs\/([^/]+)\//.exec(page.url)?.[1];
    if (!name || name === 'category') continue;
    const basePath = `/docs/${name}/`;
    const known = sections.get(basePath);
    if (!known || page.url === basePath) sections.set(basePath, { name, basePath, title: page.title });
  }
  return [...sections.values()];
}
