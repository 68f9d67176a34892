import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { searchBundlesFor } from '@portal/access';
import {
  openSearch,
  releaseBundles,
  SEARCH_FILES_PATH,
  searchPages,
  type PagefindInstance,
  type PagefindModule,
} from '@portal/search';

import { markdownUrl } from '@portal/built-site';
import type { SearchResult } from '@portal/contract';
import type { Site } from '../site.js';
import { searchFilesBody } from './search-files.js';

const ENTITIES: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };

/**
 * Pagefind's excerpt as plain text: without its `<mark>` tags and with its HTML escapes
 * undone (in one pass, so an escaped `&amp;lt;` stays the text `&lt;`), since an assistant
 * reads code in a snippet as code.
 */
export function plainText(excerpt: string): string {
  return excerpt
    .replace(/<\/?mark>/g, '')
    .replace(/&(?:lt|gt|quot|#39|amp);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Pagefind's fetches go to this origin, answered from the build in memory (the gate's own
 * files): the server searches the very bundles the browsers do, so its results agree.
 */
const ORIGIN = 'http://pagefind.internal';

let fetchInstalled = false;

/**
 * The site's search in the server, for the search API and the MCP server: the portal's one
 * search (packages/search) with Pagefind's own engine over the bundles `searchBundlesFor`
 * gives the reader, as the search box runs it in the browser.
 */
export class SiteSearch {
  private readonly instances = new Map<string, Promise<PagefindInstance | null>>();
  private module: Promise<PagefindModule> | null = null;

  constructor(private readonly site: Site) {}

  /** Forgets the opened indexes and Pagefind's script: the site was replaced by another build. */
  reset(): void {
    this.instances.clear();
    this.module = null;
  }

  private install(): void {
    if (fetchInstalled) return;
    fetchInstalled = true;
    const original = globalThis.fetch;
    const site = this.site;
    globalThis.fetch = async (input, init) => {
      const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (href.startsWith(`${ORIGIN}/`)) {
        const url = new URL(href);
        // Every file of the bundles this search opens: `searchBundlesFor` chose them for the reader.
        if (url.pathname === SEARCH_FILES_PATH)
          return new Response(searchFilesBody(site, url.searchParams.get('bundles')?.split(',') ?? [], () => true));
        const path = decodeURIComponent(url.pathname);
        const file = site.lookup(path);
        if (!file) return new Response(null, { status: 404 });
        return new Response(new Uint8Array(file.bodies.identity ?? Buffer.alloc(0)), { status: 200 });
      }
      return original(input, init);
    };
  }

  /** Pagefind's script from the build, as a module file of its own (it is written for browsers). */
  private loadModule(bundle: string): Promise<PagefindModule> {
    this.module ??= (async () => {
      const script = this.site.lookup(`${bundle}pagefind.js`);
      if (!script) throw new Error(`The build has no search script (${bundle}pagefind.js)`);
      const dir = await mkdtemp(join(tmpdir(), 'portal-pagefind-'));
      const file = join(dir, 'pagefind.mjs');
      await writeFile(file, script.bodies.identity ?? '');
      return (await import(pathToFileURL(file).href)) as PagefindModule;
    })();
    return this.module;
  }

  private instance(bundles: readonly string[]): Promise<PagefindInstance | null> {
    const key = bundles.join(' ');
    let instance = this.instances.get(key);
    if (!instance) {
      this.install();
      instance = openSearch(bundles, { load: (bundle) => this.loadModule(bundle), origin: ORIGIN });
      instance.catch(() => this.instances.delete(key));
      this.instances.set(key, instance);
    }
    return instance;
  }

  /**
   * The pages a reader holding `units` (null: signed out) may read that match `query`, best
   * first: the newest release of each synced package, or with `version` only the pages of
   * that release (`2.3.0`).
   */
  async search(units: readonly string[] | null, query: string, limit = 10, version?: string): Promise<SearchResult[]> {
    const bundles = searchBundlesFor(units);
    const instance = await this.instance(version === undefined ? bundles : releaseBundles(bundles, version));
    const found = (await searchPages(instance, query, { limit, version })) ?? [];
    return found.map((item) => {
      // Pagefind joins its base URL and the page's; keep the path on this site.
      const url = new URL(item.url.replace(/^\/+/, '/'), 'http://portal.invalid').pathname;
      return {
        title: item.meta.title ?? url,
        url,
        mdUrl: markdownUrl(url),
        snippet: plainText(item.excerpt),
      };
    });
  }
}
