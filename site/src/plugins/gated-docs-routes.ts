/**
 * The pure part of the gated docs plugin (gated-docs.ts): it rewrites the route tree the
 * docs plugin adds so that no doc's description reaches a reader outside the doc's groups.
 *
 * Docusaurus puts every doc's `description` (the front matter's, or the first paragraph
 * when there is none) into the version metadata, a route prop that every docs page loads,
 * the public ones too; doc cards read it from there. Here the version metadata keeps the
 * descriptions of public docs only, and each generated-index category page gets its cards'
 * descriptions as a prop of its own (`cardDescriptions`), limited to docs that every reader
 * of that page may read. A page's own props are gated with the page.
 */
import type { RouteConfig } from '@docusaurus/types';
import type {
  PropCategoryGeneratedIndex,
  PropSidebarItem,
  PropSidebars,
  PropTagDocList,
  PropVersionDoc,
  PropVersionMetadata,
} from '@docusaurus/plugin-content-docs';
import { PUBLIC, readersOf, type Readers } from '@portal/access';

/** What the plugin's loaded content says about one doc. */
export interface DocFacts {
  permalink: string;
  description: string;
}

/** Version name → doc id → facts. */
export type DocsIndex = ReadonlyMap<string, ReadonlyMap<string, DocFacts>>;

/** A category page's card descriptions, by doc id. */
export type CardDescriptions = Readonly<Record<string, string>>;

type ReadersOf = (path: string) => Readers | null;

/** Builds the index from the docs plugin's loaded content. */
export function docsIndexOf(content: {
  loadedVersions: readonly { versionName: string; docs: readonly ({ id: string } & DocFacts)[] }[];
}): DocsIndex {
  return new Map(
    content.loadedVersions.map((version) => [
      version.versionName,
      new Map(version.docs.map((doc) => [doc.id, { permalink: doc.permalink, description: doc.description }])),
    ]),
  );
}

/**
 * Whether everyone who reads a page with `pageReaders` may also read something with
 * `readers`: what the page carries about it is then no news to any of its readers.
 */
export function readersCover(readers: Readers | null, pageReaders: Readers | null): boolean {
  if (readers === PUBLIC) return true;
  if (readers === null || pageReaders === null || pageReaders === PUBLIC) return false;
  return pageReaders.every((group) => readers.includes(group));
}

/** The description dropped, when the doc is not public (or not known). */
function publicOnly<T extends { description?: string }>(
  doc: T,
  permalink: string | undefined,
  readersOfPath: ReadersOf,
): T {
  if (permalink !== undefined && readersOfPath(permalink) === PUBLIC) return doc;
  return Object.fromEntries(Object.entries(doc).filter(([key]) => key !== 'description')) as T;
}

function findCategory(items: readonly PropSidebarItem[], permalink: string): PropSidebarItem | undefined {
  for (const item of items) {
    if (item.type !== 'category') continue;
    if (item.href === permalink) return item;
    const found = findCategory(item.items, permalink);
    if (found) return found;
  }
  return undefined;
}

/**
 * The descriptions of the docs a category page shows as cards (its direct doc links),
 * for the docs that every reader of the page may read.
 */
export function cardDescriptionsFor(
  permalink: string,
  sidebars: PropSidebars,
  docs: ReadonlyMap<string, DocFacts>,
  readersOfPath: ReadersOf = readersOf,
): CardDescriptions {
  const pageReaders = readersOfPath(permalink);
  const category = Object.values(sidebars)
    .map((items) => findCategory(items, permalink))
    .find((item) => item !== undefined);
  const descriptions: Record<string, string> = {};
  if (category?.type !== 'category') return descriptions;
  for (const item of category.items) {
    if (item.type !== 'link' || !item.docId) continue;
    const doc = docs.get(item.docId);
    if (doc && doc.description !== '' && readersCover(readersOfPath(doc.permalink), pageReaders))
      descriptions[item.docId] = doc.description;
  }
  return descriptions;
}

interface VersionScope {
  docs: ReadonlyMap<string, DocFacts>;
  sidebars: PropSidebars;
}

function gateRoute(
  route: RouteConfig,
  index: DocsIndex,
  scope: VersionScope | null,
  readersOfPath: ReadersOf,
): RouteConfig {
  let props = route.props;
  let inner = scope;
  const version = props?.version as PropVersionMetadata | undefined;
  if (version?.docs && version.docsSidebars) {
    const docs = index.get(version.version) ?? new Map<string, DocFacts>();
    inner = { docs, sidebars: version.docsSidebars };
    const gatedDocs: Record<string, PropVersionDoc> = {};
    for (const [id, doc] of Object.entries(version.docs))
      gatedDocs[id] = publicOnly(doc, docs.get(id)?.permalink, readersOfPath);
    props = { ...props, version: { ...version, docs: gatedDocs } };
  }
  const tag = props?.tag as PropTagDocList | undefined;
  if (tag && Array.isArray(tag.items)) {
    const items = tag.items.map((doc) => publicOnly(doc, doc.permalink, readersOfPath));
    props = { ...props, tag: { ...tag, items } };
  }
  const category = props?.categoryGeneratedIndex as PropCategoryGeneratedIndex | undefined;
  if (category?.permalink) {
    const cardDescriptions = inner
      ? cardDescriptionsFor(category.permalink, inner.sidebars, inner.docs, readersOfPath)
      : {};
    props = { ...props, cardDescriptions };
  }
  const routes = route.routes?.map((child) => gateRoute(child, index, inner, readersOfPath));
  return { ...route, ...(props && { props }), ...(routes && { routes }) };
}

/**
 * The route tree as the docs plugin built it, with doc descriptions kept only where every
 * reader of the route may read the doc. Does not change its input.
 */
export function gateDocsRoute(route: RouteConfig, index: DocsIndex, readersOfPath: ReadersOf = readersOf): RouteConfig {
  return gateRoute(route, index, null, readersOfPath);
}
