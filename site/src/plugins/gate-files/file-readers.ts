import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import {
  accessUnits,
  normalizeRoute,
  PUBLIC,
  policy,
  readersOf,
  searchBundles,
  type CompiledPolicy,
  type Readers,
} from '@portal/access';
import { llmsDir, pageOfMarkdown, pageRoute, searchDir } from '@portal/built-site';

/**
 * Who may read each file of a Docusaurus build, by the access policy.
 *
 * A page is read by the readers of its route. Every other file is read by the union of
 * the readers of the pages that load it: a chunk that only staff-only pages load is
 * staff-only, one that a public page loads is public. The built HTML names only
 * `runtime~main`, `main` and the stylesheet; the runtime loads each route's chunks by
 * itself, so those are found the way Docusaurus' own server-side render finds them:
 *   route (`.docusaurus/routes.js` for the tree, `routesChunkNames.json`) → chunk names
 *   chunk name → module id (the route registry compiled into `main.js`)
 *   module id → chunk ids (`client-manifest.json` origins) → files (its assets).
 * Dynamic imports inside a chunk (the login page's Firebase SDK) and resources that JS
 * and CSS name literally (fonts, images) are followed the same way. A layout route (the
 * docs root, the sidebar) is needed by every page below it, so its readers are theirs.
 * Files no page loads are read by the readers of the section their path is in (the blog
 * feeds), else only by the groups that read everything. Each search bundle is read by
 * the readers of the pages it covers. A page that no rule of the policy matches stops
 * the build.
 */

interface ClientManifest {
  entrypoints: string[];
  origins: Record<string, string[]>;
  assets: Record<string, Record<string, { file: string }[]>>;
}

type ChunkTree = string | { [key: string]: ChunkTree };

export interface FileReaderInputs {
  buildDir: string;
  /** The `.docusaurus` folder of the same build. */
  generatedDir: string;
  /** Every file of the build as a URL path (`/assets/js/main.1a2b.js`, `/docs/index.html`). */
  files: readonly string[];
  /** Files every visitor and crawler may fetch although no public page loads them. */
  alwaysPublic: readonly string[];
}

/** URL path of each file of the build → who may read it. */
export type FileReaders = Map<string, Readers>;

function chunkNamesOf(tree: ChunkTree, into: Set<string>): Set<string> {
  if (typeof tree === 'string') into.add(tree);
  else for (const value of Object.values(tree)) chunkNamesOf(value, into);
  return into;
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
  const entry =
    /(?:"([\w$-]+)"|([A-Za-z_$][\w$]*)|(\d[\w.]*)):\[\(\)=>((?:[^[\]]|\[[^[\]]*\])*?),"([^"]+)",(\d[\w.]*)\]/g;
  for (const match of mainJs.matchAll(entry)) {
    // A numeric key may be minified to another notation (`17896441` → `0x11113f9`).
    const name = match[1] ?? match[2] ?? (match[3] === undefined ? undefined : String(Number(match[3])));
    // So may a module id (`4000` → `4e3`): the client manifest names it in decimal.
    if (name && match[6] && match[4] !== undefined)
      ids.set(name, { moduleId: String(Number(match[6])), chunkIds: [...dynamicImportChunkIds(match[4])] });
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

/** A route of `.docusaurus/routes.js`: its key in `routesChunkNames.json` (`path-hash`) and the routes inside it. */
export interface RouteNode {
  path: string;
  /** Null for the catch-all not-found route, which has no chunk names of its own. */
  key: string | null;
  children: RouteNode[];
}

const unquote = (literal: string): string => literal.slice(1, -1).replace(/\\(.)/g, '$1');

/**
 * Reads the route tree out of the generated `routes.js`: `ComponentCreator('<path>', '<hash>')`
 * names a route, `routes: [` opens its children. Strings are skipped whole, so a bracket in
 * a path cannot confuse the nesting.
 */
export function routeTree(routesJs: string): RouteNode[] {
  const token =
    /ComponentCreator\(('(?:[^'\\]|\\.)*')(?:,\s*('(?:[^'\\]|\\.)*'))?\)|'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|(routes:\s*\[)|(\[)|(\])/g;
  const root: RouteNode = { path: '', key: null, children: [] };
  // Each open bracket: the route whose children it holds, or null for any other array.
  const stack: (RouteNode | null)[] = [];
  let parent: RouteNode = root;
  let last: RouteNode | null = null;
  for (const match of routesJs.matchAll(token)) {
    const [, pathLiteral, hashLiteral, openRoutes, open, close] = match;
    if (pathLiteral !== undefined) {
      const path = unquote(pathLiteral);
      last = { path, key: hashLiteral === undefined ? null : `${path}-${unquote(hashLiteral)}`, children: [] };
      parent.children.push(last);
    } else if (openRoutes !== undefined) {
      if (!last) throw new Error('routes.js: a routes list before any route');
      stack.push(parent);
      parent = last;
    } else if (open !== undefined) {
      stack.push(null);
    } else if (close !== undefined) {
      const popped = stack.pop();
      if (popped) parent = popped;
    }
  }
  return root.children;
}

/** Everyone, or the union of both lists of groups. */
export function unionReaders(a: Readers | undefined, b: Readers): Readers {
  if (a === undefined) return b;
  if (a === PUBLIC || b === PUBLIC) return PUBLIC;
  return [...new Set([...a, ...b])].sort();
}

export async function computeFileReaders(
  inputs: FileReaderInputs,
  compiled: CompiledPolicy = policy,
): Promise<FileReaders> {
  const { buildDir, generatedDir } = inputs;
  const known = new Set(inputs.files);
  const readJson = async <T>(file: string): Promise<T> =>
    JSON.parse(await readFile(join(generatedDir, file), 'utf8')) as T;
  const routesChunkNames = await readJson<Record<string, ChunkTree>>('routesChunkNames.json');
  const manifest = await readJson<ClientManifest>('client-manifest.json');
  const expectedNames = registryChunkNames(await readFile(join(generatedDir, 'registry.js'), 'utf8'));
  const mainFile = inputs.files.find((url) => /^\/assets\/js\/main(\.\w+)?\.js$/.test(url));
  if (!mainFile) throw new Error('The build has no assets/js/main.js');
  const mainJs = await readFile(join(buildDir, mainFile), 'utf8');
  const moduleIds = registryModules(mainJs);
  const missing = [...expectedNames].filter((name) => !moduleIds.has(name));
  if (missing.length > 0) {
    // Fail closed: without the registry the chunks of each route cannot be told apart.
    throw new Error(`Cannot find ${missing.length} registry entries in ${mainFile} (first: ${missing[0]})`);
  }
  const tree = routeTree(await readFile(join(generatedDir, 'routes.js'), 'utf8'));
  const treeKeys: string[] = [];
  const collectKeys = (nodes: RouteNode[]): void =>
    nodes.forEach((node) => {
      if (node.key) treeKeys.push(node.key);
      collectKeys(node.children);
    });
  collectKeys(tree);
  const chunkKeys = Object.keys(routesChunkNames);
  if (treeKeys.length !== chunkKeys.length || !chunkKeys.every((key) => treeKeys.includes(key))) {
    throw new Error(
      'The route tree of routes.js does not match routesChunkNames.json; is .docusaurus from this build?',
    );
  }

  const readers: FileReaders = new Map();
  const grant = (url: string, who: Readers): void => {
    if (known.has(url)) readers.set(url, unionReaders(readers.get(url), who));
  };
  const chunkFiles = (chunkId: string): string[] =>
    Object.values(manifest.assets[chunkId] ?? {})
      .flat()
      .map((asset) => '/' + asset.file);
  // The entry bundles are not followed: main.js holds the loaders of every route.
  const entry = new Set(inputs.files.filter((url) => /^\/assets\/js\/(runtime~)?main(\.\w+)?\.js$/.test(url)));
  const dependencies = new Map<string, string[]>();
  const dependenciesOf = async (url: string): Promise<string[]> => {
    let found = dependencies.get(url);
    if (found) return found;
    found = [];
    if (/\.(js|css)$/.test(url) && known.has(url)) {
      const text = await readFile(join(buildDir, url), 'utf8');
      if (url.endsWith('.js') && !entry.has(url))
        for (const chunk of dynamicImportChunkIds(text)) found.push(...chunkFiles(chunk));
      found.push(...literalResources(text, known));
    }
    dependencies.set(url, found);
    return found;
  };
  /** Grants `who` every file in `start` and everything they load. */
  const grantClosure = async (start: Iterable<string>, who: Readers): Promise<void> => {
    const seen = new Set<string>();
    const queue = [...start];
    while (queue.length > 0) {
      const url = queue.pop() as string;
      if (seen.has(url) || !known.has(url)) continue;
      seen.add(url);
      grant(url, who);
      queue.push(...(await dependenciesOf(url)));
    }
  };
  const routeFiles = (key: string, path: string): string[] => {
    const files: string[] = [];
    for (const name of chunkNamesOf(routesChunkNames[key] as ChunkTree, new Set())) {
      const module = moduleIds.get(name);
      if (!module) throw new Error(`Route ${path} uses chunk ${name}, which the registry does not list`);
      // The loader names the chunks it fetches; the client manifest's origins say the same
      // for modules that live in a chunk of their own. Both are taken, so neither can miss one.
      for (const chunk of [...module.chunkIds, ...(manifest.origins[module.moduleId] ?? [])])
        files.push(...chunkFiles(chunk));
    }
    return files;
  };
  const unmatched: string[] = [];

  // 1. Each route's chunks, read by the readers of the route, or of every page below it.
  const visit = async (node: RouteNode): Promise<Readers | undefined> => {
    let who: Readers | undefined;
    if (node.children.length === 0) {
      if (node.key === null) return undefined; // the not-found route: step 2
      const own = readersOf(node.path, compiled);
      if (own === null) {
        unmatched.push(node.path);
        return undefined;
      }
      who = own;
    } else {
      for (const child of node.children) {
        const below = await visit(child);
        if (below !== undefined) who = unionReaders(who, below);
      }
    }
    if (node.key !== null && who !== undefined) await grantClosure(routeFiles(node.key, node.path), who);
    return who;
  };
  for (const node of tree) await visit(node);

  // 2. The not-found page is public: main.js loads its component for the catch-all route.
  const notFoundLoader = /loader:\(\)=>((?:[^[\]]|\[[^[\]]*\])*?),modules:\["@theme\/NotFound"\]/.exec(mainJs);
  if (!notFoundLoader?.[1]) throw new Error(`Cannot find the not-found page's loader in ${mainFile}`);
  await grantClosure([...dynamicImportChunkIds(notFoundLoader[1])].flatMap(chunkFiles), PUBLIC);

  // 3. Each page's HTML, read by its route's readers, with what it loads.
  for (const page of inputs.files.filter((url) => url.endsWith('.html'))) {
    const notFound = page === '/404.html';
    const who = notFound ? PUBLIC : readersOf(pageRoute(page), compiled);
    if (who === null) {
      unmatched.push(pageRoute(page));
      continue;
    }
    grant(page, who);
    await grantClosure(htmlResources(await readFile(join(buildDir, page), 'utf8')), who);
  }
  if (unmatched.length > 0) {
    // A page is named once, as its route or its HTML file spells it.
    const byKey = new Map(unmatched.map((path) => [normalizeRoute(path) ?? path, path]));
    const list = [...byKey.values()].sort();
    throw new Error(
      `${list.length} page(s) match no rule of the access policy (packages/access/policy.js), so nobody could be given them: ${list.join(', ')}. Add each to a unit that a group reads, or to the public routes.`,
    );
  }

  // 4. Each search bundle is read by its unit's readers; a shelf's by the readers of all its units.
  const units = new Map(searchBundles(compiled).map((bundle) => [searchDir(bundle.id), bundle.readers]));
  for (const url of inputs.files) {
    const dir = /^\/(search\/[^/]+)\//.exec(url)?.[1];
    if (dir !== undefined) readers.set(url, units.get(dir) ?? compiled.fullAccess);
  }

  // 5. Each page's Markdown is read by the page's readers; each llms.txt fragment by its unit's.
  const llmsUnits = new Map(accessUnits(compiled).map((unit) => [llmsDir(unit.id), unit.readers]));
  for (const url of inputs.files) {
    const page = pageOfMarkdown(url);
    if (page !== null) {
      const who = readersOf(page, compiled);
      if (who !== null) readers.set(url, who);
    }
    const unit = /^\/(llms\/[^/]+)\//.exec(url)?.[1];
    if (unit !== undefined) readers.set(url, llmsUnits.get(unit) ?? compiled.fullAccess);
  }

  // 6. Files every visitor and crawler may fetch.
  for (const url of inputs.alwaysPublic) grant(url, PUBLIC);

  // 7. Whatever no page loads: by the section its path is in (feeds), else full access only.
  for (const url of inputs.files) {
    if (readers.has(url)) continue;
    const bySection = url.endsWith('.html') ? null : readersOf(url, compiled);
    readers.set(url, bySection ?? compiled.fullAccess);
  }
  return readers;
}
