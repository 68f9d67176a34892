import { type ApiModels, apiChanges, type ApiSymbolLike } from '@portal/built-site/api-reference';

/** The reference's symbol as the build's models hold it. */
export type ModelSymbol = ApiSymbolLike & { slug?: string; summary?: string };

/** How a reader came to use a symbol: they read its reference page, or a page they read names it. */
export type Use = 'read' | 'named';

/** One removed, changed or added symbol of a release, as the reader is told of it. */
export interface SymbolChange {
  name: string;
  kind: string;
  change: 'removed' | 'changed' | 'added';
  /** The symbol's reference page in the release that has it (the older one for a removed symbol). */
  url: string | null;
  /** The declaration before (removed, changed) and after (changed, added). */
  before: string | null;
  after: string | null;
  summary: string | null;
  use: Use | null;
}

export interface ReleaseNews {
  version: string;
  date: string;
  /** The release it is compared with: the previous one in version order (null for the first). */
  comparedWith: string | null;
  /** A removed or changed symbol in a release that is not a new major one. */
  breaking: boolean;
  url: string;
  apiChangesUrl: string | null;
  /** The symbols the reader uses first; removed, then changed, then added within each. */
  symbols: SymbolChange[];
}

export interface PackageNews {
  id: string;
  title: string;
  npm: string;
  url: string;
  /** Why it is in the reader's news: they watch it (read it lately or chose to), or it is only one they may read. */
  watched: boolean;
  /** How many of its changed or removed symbols the reader uses. */
  used: number;
  releases: ReleaseNews[];
}

export interface PageNews {
  url: string;
  title: string;
  /** When its current text was first served. */
  at: string;
  /** When the reader last read it (changed pages only). */
  lastRead: string | null;
  watched: boolean;
}

export interface WhatsNew {
  since: string;
  /** Where `since` came from: the reader's last visit, the date they asked for, or 30 days ago (no visit before). */
  sinceFrom: 'last-visit' | 'asked' | 'default';
  personalOrder: boolean;
  packages: PackageNews[];
  changedPages: PageNews[];
  newPages: PageNews[];
}

/** A page of the build the reader may read, with its title. */
export interface ReadablePage {
  url: string;
  title: string;
}

/** What the portal knows of a reader's reading, for ordering only. */
export interface Reading {
  /** Each page the reader read, with the last time (milliseconds). */
  lastRead: ReadonlyMap<string, number>;
  /** The identifiers a page the reader read names (the words of its Markdown), to find the symbols it names. */
  namesIn(path: string): ReadonlySet<string> | undefined;
}

export interface WatchChoice {
  kind: 'package' | 'page';
  target: string;
  watching: boolean;
}

export interface NewsInput {
  since: Date;
  sinceFrom: WhatsNew['sinceFrom'];
  now: Date;
  /** The synced packages' models the reader may read. */
  models: readonly ApiModels<ModelSymbol>[];
  /** The sections of packages the reader may read, for pages: `/docs/<section>/` with its title. */
  sections: readonly { basePath: string; title: string }[];
  pages: readonly ReadablePage[];
  /** Each readable page's first and newest text times (milliseconds). */
  texts: ReadonlyMap<string, { first: number; newest: number }>;
  reading: Reading;
  watches: readonly WatchChoice[];
  personalOrder: boolean;
  /** Only this package's news: its section's path (`/docs/<section>/`), id or npm name. */
  only?: string;
}

/** How long reading a package makes it watched by default. */
export const DEFAULT_WATCH_DAYS = 90;
const DAY_MS = 86_400_000;

const majorOf = (version: string): number => Number(version.split('.')[0]);
const unescape = (text: string | undefined): string | null =>
  text === undefined || text === '' ? null : text.replace(/\\([\\`*_{}[\]()#+\-.!'"<>|~])/g, '$1');

/** A package as a reader names it: its id, its npm name with or without scope, or its section. */
export function namesPackage(models: Pick<ApiModels, 'id' | 'package' | 'basePath'>, wanted: string): boolean {
  const key = wanted.trim().toLowerCase();
  const bare = (name: string) => name.toLowerCase().replace(/^@[^/]+\//, '');
  return [models.id, models.package, models.basePath.replace(/^\/docs\/|\/$/g, '')].some(
    (name) => name.toLowerCase() === key || bare(name) === bare(key),
  );
}

/** Whether a section (`/docs/x/`) is watched: chosen, or read within DEFAULT_WATCH_DAYS unless the reader stopped. */
export function watchesSection(input: Pick<NewsInput, 'watches' | 'reading' | 'now'>, basePath: string): boolean {
  const choice = input.watches.find((watch) => watch.kind === 'package' && watch.target === basePath);
  if (choice) return choice.watching;
  const from = input.now.getTime() - DEFAULT_WATCH_DAYS * DAY_MS;
  for (const [path, at] of input.reading.lastRead) if (at >= from && path.startsWith(basePath)) return true;
  return false;
}

/** The symbols a reader uses in one package: those whose reference page they read, and those named by pages they read. */
function usesIn(models: ApiModels<ModelSymbol>, reading: Reading): Map<string, Use> {
  const uses = new Map<string, Use>();
  const names = new Set(models.versions.flatMap((version) => version.symbols.map((symbol) => symbol.name)));
  for (const path of reading.lastRead.keys()) {
    if (!path.startsWith(models.basePath)) continue;
    const symbolPage = /\/api\/([^/]+)\/?$/.exec(path)?.[1];
    if (symbolPage !== undefined) {
      for (const version of models.versions)
        for (const symbol of version.symbols) if (symbol.slug === symbolPage) uses.set(symbol.name, 'read');
      continue;
    }
    const named = reading.namesIn(path);
    if (named === undefined) continue;
    for (const name of names) if (!uses.has(name) && named.has(name)) uses.set(name, 'named');
  }
  return uses;
}

const CHANGE_ORDER = { removed: 0, changed: 1, added: 2 } as const;

/** The news of one package's releases published after `since`. */
function packageNews(models: ApiModels<ModelSymbol>, input: NewsInput): PackageNews | null {
  const uses = input.personalOrder ? usesIn(models, input.reading) : new Map<string, Use>();
  const releases: ReleaseNews[] = [];
  models.versions.forEach((version, index) => {
    if (version.date === null || Date.parse(version.date) <= input.since.getTime()) return;
    const previous = models.versions[index + 1];
    const base = version.path ?? null;
    const symbolUrl = (path: string | null | undefined, symbol: ModelSymbol) =>
      path && symbol.slug ? `${path}${symbol.slug}` : null;
    const changes = previous
      ? apiChanges(previous, version)
      : { removed: [], changed: [], added: version.symbols as (ModelSymbol & { before?: string })[] };
    const symbols: SymbolChange[] = [
      ...changes.removed.map((symbol) => ({
        ...pick(symbol),
        change: 'removed' as const,
        url: symbolUrl(previous?.path, symbol),
        before: symbol.declaration,
        after: null,
      })),
      ...changes.changed.map((symbol) => ({
        ...pick(symbol),
        change: 'changed' as const,
        url: symbolUrl(base, symbol),
        before: symbol.before,
        after: symbol.declaration,
      })),
      ...changes.added.map((symbol) => ({
        ...pick(symbol),
        change: 'added' as const,
        url: symbolUrl(base, symbol),
        before: null,
        after: symbol.declaration,
      })),
    ].map((symbol) => ({ ...symbol, use: uses.get(symbol.name) ?? null }));
    symbols.sort(
      (a, b) =>
        Number(a.use === null) - Number(b.use === null) ||
        CHANGE_ORDER[a.change] - CHANGE_ORDER[b.change] ||
        a.name.localeCompare(b.name),
    );
    releases.push({
      version: version.version,
      date: version.date,
      comparedWith: previous?.version ?? null,
      breaking:
        previous !== undefined &&
        majorOf(version.version) === majorOf(previous.version) &&
        changes.removed.length + changes.changed.length > 0,
      url: `${models.basePath}CHANGELOG`,
      apiChangesUrl: base && previous ? `${base}api-changes` : null,
      symbols,
    });
  });
  if (releases.length === 0) return null;
  releases.sort((a, b) => Date.parse(b.date) - Date.parse(a.date));
  return {
    id: models.id,
    title: models.title,
    npm: models.package,
    url: models.basePath,
    watched: watchesSection(input, models.basePath),
    used: releases.reduce(
      (sum, release) => sum + release.symbols.filter((s) => s.use !== null && s.change !== 'added').length,
      0,
    ),
    releases,
  };
}

function pick(symbol: ModelSymbol): Pick<SymbolChange, 'name' | 'kind' | 'summary'> {
  return { name: symbol.name, kind: symbol.kind, summary: unescape(symbol.summary) };
}

/** The section a page is in, of those the reader may read (the longest path that holds it). */
function sectionOf(sections: NewsInput['sections'], url: string): string | undefined {
  let best: string | undefined;
  for (const { basePath } of sections)
    if (url.startsWith(basePath) && (best === undefined || basePath.length > best.length)) best = basePath;
  return best;
}

/**
 * What is new for a reader since `input.since`: the releases of the synced packages they may
 * read (watched ones first, those that change symbols they use first of all), the pages whose
 * text changed after the reader last read them, and the pages added since. Nothing outside
 * what `input` holds, which is only what the reader may read.
 */
export function whatsNew(input: NewsInput): WhatsNew {
  const wanted = input.only;
  const models =
    wanted === undefined ? input.models : input.models.filter((m) => m.basePath === wanted || namesPackage(m, wanted));
  const only = wanted === undefined ? null : new Set([...models.map((m) => m.basePath), wanted]);
  const packages = models.flatMap((m) => packageNews(m, input) ?? []);
  packages.sort(
    (a, b) =>
      Number(b.used > 0) - Number(a.used > 0) ||
      Number(b.watched) - Number(a.watched) ||
      Date.parse(b.releases[0]?.date ?? '') - Date.parse(a.releases[0]?.date ?? '') ||
      a.title.localeCompare(b.title),
  );
  const since = input.since.getTime();
  const changedPages: PageNews[] = [];
  const newPages: PageNews[] = [];
  for (const page of input.pages) {
    const text = input.texts.get(page.url);
    if (!text) continue;
    const section = sectionOf(input.sections, page.url);
    if (only && (section === undefined || !only.has(section))) continue;
    const watchedPage = input.watches.find((watch) => watch.kind === 'page' && watch.target === page.url);
    const watched = watchedPage?.watching ?? (section !== undefined && watchesSection(input, section));
    const lastRead = input.reading.lastRead.get(page.url);
    if (text.first > since)
      newPages.push({ url: page.url, title: page.title, at: iso(text.first), lastRead: null, watched });
    else if (lastRead !== undefined && text.newest > lastRead && text.newest > since)
      changedPages.push({ url: page.url, title: page.title, at: iso(text.newest), lastRead: iso(lastRead), watched });
  }
  const byWatchThenDate = (a: PageNews, b: PageNews) =>
    Number(b.watched) - Number(a.watched) || Date.parse(b.at) - Date.parse(a.at) || a.url.localeCompare(b.url);
  changedPages.sort(byWatchThenDate);
  newPages.sort(byWatchThenDate);
  if (!input.personalOrder) {
    for (const list of [changedPages, newPages]) list.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
    packages.sort((a, b) => Date.parse(b.releases[0]?.date ?? '') - Date.parse(a.releases[0]?.date ?? ''));
  }
  return {
    since: input.since.toISOString(),
    sinceFrom: input.sinceFrom,
    personalOrder: input.personalOrder,
    packages,
    changedPages,
    newPages,
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** How many items a summary counts: packages with releases, changed and new pages. */
export function newsCount(news: WhatsNew): number {
  return news.packages.length + news.changedPages.length + news.newPages.length;
}

/** The identifiers a text names: its words as code names them (letters, digits, `_` and `$`). */
export function identifiersIn(text: string): Set<string> {
  return new Set(text.match(/[\w$]+/g) ?? []);
}
