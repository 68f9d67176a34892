import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import { isPublicRoute } from '@portal/access';

/**
 * Which files of a Docusaurus build the public pages need, and nothing more.
 *
 * The built HTML names only `runtime~main`, `main` and the stylesheet; the runtime loads
 * each page's chunks by itself. So the chunks of the public routes are found the way
 * Docusaurus' own server-side render finds them:
 *   route (`.docusaurus/routesChunkNames.json`) → chunk names
 *   chunk name → module id (the route registry compiled into `main.js`)
 *   module id → chunk ids (`client-manifest.json` origins) → files (its assets).
 * Dynamic imports inside a public chunk (the login page's Firebase SDK) are followed the
 * same way. Resources the public HTML, CSS and chunks name literally (stylesheet, fonts,
 * images) are added last. Anything not reached is private.
 */

interface ClientManifest {
  entrypoints: string[];
  origins: Record<string, string[]>;
  assets: Record<string, Record<string, { file: string }[]>>;
}

type ChunkTree = string | { [key: string]: ChunkTree };

export interface PublicFileInputs {
  buildDir: string;
  /** The `.docusaurus` folder of the same build. */
  generatedDir: string;
  /** Every file of the build as a URL path (`/assets/js/main.1a2b.js`, `/docs/index.html`). */
  files: readonly string[];
}

export interface PublicFiles {
  /** URL paths of every public file. */
  urls: Set<string>;
  /** Route paths (from the route config) whose chunks were made public, for the record. */
  routes: string[];
}

function chunkNamesOf(tree: ChunkTree, into: Set<string>): Set<string> {
  if (typeof tree === 'string') into.add(tree);
  else for (const value of Object.values(tree)) chunkNamesOf(value, into);
  return into;
}

/** `/docs/Norigin-Spatial-Navigation/-45b` → `/docs/Norigin-Spatial-Navigation/`. */
function routePathOf(routeKey: string): string {
  const dash = routeKey.lastIndexOf('-');
  if (dash <= 0) throw new Error(`Unexpected route key in routesChunkNames.json: ${routeKey}`);
  return routeKey.slice(0, dash);
}

export interface RegistryModule {
  moduleId: string;
  /** Chunks its loader fetches; none when the module is part of the main bundle. */
  chunkIds: string[];
}

/**
 * Reads the registry compiled into the main bundle: `"0e384e19":[()=>n.e("5217").then(n.bind(n,424)),"@site/docs/intro.md",424]`.
 * Keys may be quoted, bare identifiers or numbers in any notation after minification.
 */
export function registryModules(mainJs: string): Map<string, RegistryModule> {
  const ids = new Map<string, RegistryModule>();
  const entry = /(?:"([\w$-]+)"|([A-Za-z_$][\w$]*)|(\d[\w.]*)):\[\(\)=>((?:[^[\]]|\[[^[\]]*\])*?),"([^"]+)",(\d+)\]/g;
  for (const match of mainJs.matchAll(entry)) {
    // A numeric key may be minified to another notation (`17896441` → `0x11113f9`).
    const name = match[1] ?? match[2] ?? (match[3] === undefined ? undefined : String(Number(match[3])));
    if (name && match[6] && match[4] !== undefined)
      ids.set(name, { moduleId: match[6], chunkIds: [...dynamicImportChunkIds(match[4])] });
  }
  return ids;
}

/** Chunk names listed in `.docusaurus/registry.js`, to check the parse of the main bundle. */
export function registryChunkNames(registryJs: string): Set<string> {
  return new Set([...registryJs.matchAll(/webpackChunkName: "([^"]+)"/g)].map((match) => match[1] as string));
}

/** Chunk ids of dynamic imports inside a chunk's code: `n.e("5217")`, `r.e(7720)`. */
export function dynamicImportChunkIds(js: string): Set<string> {
  return new Set([...js.matchAll(/\b[A-Za-z_$][\w$]*\.e\("?(\d+)"?\)/g)].map((match) => match[1] as string));
}

const resourceTag = /<(script|link|img|source)\b([^>]*)>/gi;

/** Local resources an HTML page loads (scripts, stylesheets, icons, preloads, images), not links or feeds. */
export function htmlResources(html: string): string[] {
  const found: string[] = [];
  for (const [, tag, attributes = ''] of html.matchAll(resourceTag)) {
    const attr = (name: string): string | undefined =>
      new RegExp(`\\s${name}=(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(attributes)?.slice(1).find(Boolean);
    if (tag?.toLowerCase() === 'link') {
      const rel = (attr('rel') ?? '').toLowerCase().split(/\s+/);
      if (
        !rel.some((r) => ['stylesheet', 'icon', 'preload', 'modulepreload', 'manifest', 'apple-touch-icon'].includes(r))
      )
        continue;
      const href = attr('href');
      if (href) found.push(href);
    } else {
      const src = attr('src');
      if (src) found.push(src);
      const srcset = attr('srcset');
      if (srcset) found.push(...srcset.split(',').map((part) => part.trim().split(/\s+/)[0] ?? ''));
    }
  }
  return found.filter((url) => url.startsWith('/') && !url.startsWith('//')).map((url) => url.split(/[?#]/)[0] ?? url);
}

/** Build files that JS or CSS names literally: hashed assets and static images. */
export function literalResources(text: string, known: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(/(?:^|[^\w/.-])\/?((?:assets|img)\/[\w@./-]+\.[A-Za-z0-9]+)/g)) {
    const url = '/' + match[1];
    if (known.has(url)) found.push(url);
  }
  return found;
}

export async function computePublicFiles(inputs: PublicFileInputs): Promise<PublicFiles> {
  const { buildDir, generatedDir } = inputs;
  const known = new Set(inputs.files);
  const readJson = async <T>(file: string): Promise<T> =>
    JSON.parse(await readFile(join(generatedDir, file), 'utf8')) as T;
  const routesChunkNames = await readJson<Record<string, ChunkTree>>('routesChunkNames.json');
  const manifest = await readJson<ClientManifest>('client-manifest.json');
  const expectedNames = registryChunkNames(await readFile(join(generatedDir, 'registry.js'), 'utf8'));

  const mainFile = inputs.files.find((url) => /^\/assets\/js\/main\.[\w]+\.js$/.test(url));
  if (!mainFile) throw new Error('The build has no assets/js/main.<hash>.js');
  const mainJs = await readFile(join(buildDir, mainFile), 'utf8');
  const moduleIds = registryModules(mainJs);
  const missing = [...expectedNames].filter((name) => !moduleIds.has(name));
  if (missing.length > 0) {
    // Fail closed: without the registry the public chunks cannot be told apart.
    throw new Error(`Cannot find ${missing.length} registry entries in ${mainFile} (first: ${missing[0]})`);
  }

  const urls = new Set<string>();
  const add = (url: string): boolean => {
    if (!known.has(url) || urls.has(url)) return false;
    urls.add(url);
    return true;
  };
  const chunkFiles = (chunkId: string): string[] =>
    Object.values(manifest.assets[chunkId] ?? {})
      .flat()
      .map((asset) => '/' + asset.file);
  // The loader names the chunks it fetches; the client manifest's origins say the same for
  // modules that live in a chunk of their own. Both are taken, so neither can miss one.
  const addModule = ({ moduleId, chunkIds }: RegistryModule): void => {
    for (const chunk of [...chunkIds, ...(manifest.origins[moduleId] ?? [])]) chunkFiles(chunk).forEach(add);
  };

  // 1. The chunks of every public route (and of the layout routes that contain them).
  const routes: string[] = [];
  for (const [key, tree] of Object.entries(routesChunkNames)) {
    const path = routePathOf(key);
    if (!isPublicRoute(path)) continue;
    routes.push(path);
    for (const name of chunkNamesOf(tree, new Set())) {
      const module = moduleIds.get(name);
      if (!module) throw new Error(`Route ${path} uses chunk ${name}, which the registry does not list`);
      addModule(module);
    }
  }

  // The not-found page is public: main.js loads its component for the catch-all route.
  const notFoundLoader = /loader:\(\)=>((?:[^[\]]|\[[^[\]]*\])*?),modules:\["@theme\/NotFound"\]/.exec(mainJs);
  if (!notFoundLoader?.[1]) throw new Error(`Cannot find the not-found page's loader in ${mainFile}`);
  for (const chunk of dynamicImportChunkIds(notFoundLoader[1])) chunkFiles(chunk).forEach(add);

  // 2. The HTML of public pages (and the not-found page) with what it loads.
  const pages = inputs.files.filter((url) => url.endsWith('.html'));
  for (const page of pages) {
    const route = page === '/404.html' ? '/404.html' : page.replace(/index\.html$/, '').replace(/\.html$/, '');
    if (page !== '/404.html' && !isPublicRoute(route)) continue;
    add(page);
    for (const resource of htmlResources(await readFile(join(buildDir, page), 'utf8'))) add(resource);
  }

  // 3. Follow dynamic imports and literal resources until nothing new turns up. The entry
  // bundles are not scanned for imports: main.js holds the loaders of every route.
  const entry = new Set(inputs.files.filter((url) => /^\/assets\/js\/(runtime~)?main\.[\w]+\.js$/.test(url)));
  const scanned = new Set<string>();
  for (let grew = true; grew;) {
    grew = false;
    for (const url of [...urls]) {
      if (scanned.has(url) || !/\.(js|css)$/.test(url)) continue;
      scanned.add(url);
      const text = await readFile(join(buildDir, url), 'utf8');
      if (url.endsWith('.js') && !entry.has(url)) {
        for (const chunk of dynamicImportChunkIds(text)) for (const file of chunkFiles(chunk)) grew = add(file) || grew;
      }
      for (const resource of literalResources(text, known)) grew = add(resource) || grew;
    }
  }

  // 4. The search bundle over public pages only (the one over every page stays private).
  for (const url of inputs.files) if (url.startsWith('/search/public/')) add(url);

  // 5. Files every visitor and crawler may fetch.
  for (const url of ['/robots.txt', '/sitemap.xml', '/img/favicon.svg', '/favicon.ico']) add(url);
  return { urls, routes: routes.sort() };
}
