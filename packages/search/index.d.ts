/** What a Pagefind result's `data()` gives (the fields the portal reads). */
export interface PagefindResultData {
  /** The page's URL, with the highlight parameter. */
  url: string;
  /** HTML: text around the matched words, in `<mark>`, escaped by Pagefind. */
  excerpt: string;
  /** `title`, and `trail` (the breadcrumb) where the build wrote one (breadcrumb.js). */
  meta: { title?: string; [field: string]: string | undefined };
  /** The page's text, and the word positions the query matched in it. */
  content: string;
  raw_content?: string;
  locations: number[];
  /** The page's headings. */
  anchors?: { element?: string; id?: string; text?: string; location?: number }[];
  /** The headings under which the query matched. */
  sub_results?: { title: string; url: string; excerpt: string }[];
}

/** One Pagefind search instance (`createInstance` of a bundle's pagefind.js). */
export interface PagefindInstance {
  init(): Promise<void>;
  mergeIndex(indexPath: string, options?: Record<string, unknown>): Promise<void>;
  search(
    query: string,
    options?: Record<string, unknown>,
  ): Promise<{ results: { data(): Promise<PagefindResultData> }[] }>;
  debouncedSearch(
    query: string,
    options?: Record<string, unknown>,
    timeout?: number,
  ): Promise<{ results: { data(): Promise<PagefindResultData> }[] } | null>;
}

/** A bundle's `pagefind.js`. */
export interface PagefindModule {
  createInstance(options: Record<string, unknown>): PagefindInstance;
}

export declare const HIGHLIGHT_PARAM: 'highlight';
export declare const RESULT_OPTIONS: { readonly highlightParam: 'highlight'; readonly excerptLength: number };
/** How many of Pagefind's results are ranked, whatever the limit. */
export declare const CANDIDATES: number;

/** Where the gate answers the search's files of the bundles asked for (`?bundles=/search/a/,/search/b/`). */
export declare const SEARCH_FILES_PATH: string;
/** Most bundles one request for the search's files may name. */
export declare const MOST_SEARCH_BUNDLES: number;
/** A bundle's path as `searchBundlesFor` and `releaseBundles` make them. */
export declare const BUNDLE_PATH: RegExp;
/** Whether a file of a bundle (its path inside it) is one a search fetches before its first answer. */
export declare function isSearchStartFile(relative: string): boolean;
/** The bundle whose search starts with the file at `url` (`/search/layout/` for its index chunks), or null. */
export declare function searchStartBundleOf(url: string): string | null;
/** One body of the files, each [path, bytes, 'gzip' when the bytes are the file's gzip form] (packages/search/files.js). */
export declare function packSearchFiles(
  files: readonly (readonly [path: string, body: Uint8Array, encoding?: 'gzip'])[],
): Uint8Array<ArrayBuffer>;
/** The files of a body `packSearchFiles` made, by path, gzip undone. */
export declare function unpackSearchFiles(body: ArrayBuffer): Promise<Record<string, ArrayBuffer>>;

/** One search over the bundles that have pages (their word lists say), public first; null when none has any. */
export declare function openSearch(
  bundles: readonly string[],
  how: { load(bundle: string): Promise<PagefindModule>; origin?: string },
): Promise<PagefindInstance | null>;
/** 3 the title starts with the query's words, 2 a heading does, 1 the title has them all, else 0. */
export declare function aboutness(
  query: string,
  page: { meta: { title?: string }; anchors?: readonly { element?: string; text?: string }[] },
): number;
/** Pagefind's results without prefix-only matches, pages about the query first. */
export declare function rank<T extends PagefindResultData>(query: string, found: readonly T[]): T[];
/** A release version as a search asks for it (`2.3.0`). */
export declare const VERSION_PATTERN: RegExp;
/** The bundles a search of one release version opens: the reader's, and that older release's in each. */
export declare function releaseBundles(bundles: readonly string[], version: string): string[];
/**
 * The ranked pages for a query, at most `limit`; null when a newer debounced query superseded it.
 * With `version`, only the pages of that release of a synced package.
 */
export declare function searchPages(
  instance: PagefindInstance | null,
  query: string,
  options?: { limit?: number; debounceMs?: number; version?: string },
): Promise<PagefindResultData[] | null>;

export declare function wordParts(text: string): string[];
export declare function requiredPrefix(part: string): number;
export declare function answersQuery(query: string, matched: readonly string[]): boolean;
export declare function matchedWords(text: string, locations: readonly number[]): string[];

/** A bundle's word list file, and the words of open searches, for typo tolerance (spelling.js). */
export declare const WORDS_FILE: string;
export declare function countWords(texts: Iterable<string>): Record<string, number>;
export declare function oneEditFrom(word: string): Set<string>;
export declare class Vocabulary {
  constructor(lists: readonly Record<string, number>[]);
  readonly sorted: readonly string[];
  commonest(): string;
  hasPrefix(prefix: string): boolean;
  correct(part: string): string;
  correctQuery(query: string): string;
}
/** The query with its misspelt words of five letters or more corrected to the reader's words. */
export declare function correctQuery(instance: PagefindInstance | null, query: string): string;

export declare const BREADCRUMB_META: 'trail';
export declare const BREADCRUMB_SEPARATOR: string;
/** The sections and package above a result's page, outermost first. */
export declare function breadcrumbOf(url: string, meta: Record<string, string | undefined>): string[];

/** Pagefind's excerpt as text without markup, the matched words in `<mark>` (HTML). */
export declare function readableExcerpt(excerpt: string): string;

/** The sections of pages near a query that found nothing, with a page found in each. */
export declare function nearbySections(
  instance: PagefindInstance | null,
  query: string,
  limit?: number,
): Promise<{ section: string; title: string; url: string }[]>;
