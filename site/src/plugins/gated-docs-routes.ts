/**
 * The pure part of the gated docs plugin (gated-docs.ts): it rewrites the route tree the
 * docs plugin adds so that no doc's description reaches a reader outside the doc's groups.
 *
 * Docusaurus puts every doc's `description` (the front matter's, or the first paragraph
 * when there is none) into the version metadata, a route prop that every docs page loads,
 * the public ones too; doc cards read it from there. Here the version metadata keeps the
 * descriptions of public docs only, and each generated-index category page gets what its
 * package cards show as a prop of its own (`cards`): the description, current version and
 * platforms of each card's page, and of the packages of a monorepo card, limited to pages
 * that every reader of that category page may read. A page's own props are gated with the page.
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

import { isAboutGroup } from '../data/repository-pages';

/** What the plugin's loaded content says about one doc. */
export interface DocFacts {
  permalink: string;
  description: string;
  /** A landing page's current version: the newest entry of the changelog beside it. */
  version?: string;
  /** A landing page's platforms (front matter `platforms`, ids of src/data/platforms.ts). */
  platforms?: readonly string[];
}

/** Version name → doc id → facts. */
export type DocsIndex = ReadonlyMap<string, ReadonlyMap<string, DocFacts>>;

/** What a package card shows beyond its title; each part only when the page may carry it. */
export interface CardFacts {
  description?: string;
  version?: string;
  platforms?: readonly string[];
}

/**
 * A generated-index category page's own prop: the facts of its cards by their link
 * (`/docs/layout-engine/`), and the cards whose package groups ("packages") the page also
 * lists, in sections of their own.
 */
export interface CategoryCards {
  cards: Readonly<Record<string, CardFacts>>;
  sections: readonly string[];
}

type ReadersOf = (path: string) => Readers | null;

/** The doc a loaded-content entry is, as the docs plugin gives it. */
interface LoadedDoc {
  id: string;
  permalink: string;
  description: string;
  frontMatter?: { [key: string]: unknown };
}

/**
 * Builds the index from the docs plugin's loaded content. `versions` gives the current
 * version of each documented folder (`player-manager-mono/packages/player-core` → 4.2.0),
 * which a landing page (`<folder>/README`) carries.
 */
export function docsIndexOf(
  content: { loadedVersions: readonly { versionName: string; docs: readonly LoadedDoc[] }[] },
  versions: ReadonlyMap<string, string> = new Map(),
): DocsIndex {
  const factsOf = (doc: LoadedDoc): DocFacts => {
    const folder = doc.id.endsWith('/README') ? doc.id.slice(0, -'/README'.length) : null;
    const version = folder === null ? undefined : versions.get(folder);
    const platforms = doc.frontMatter?.platforms;
    return {
      permalink: doc.permalink,
      description: doc.description,
      ...(version !== undefined && { version }),
      ...(Array.isArray(platforms) && { platforms: platforms.filter((id) => typeof id === 'string') }),
    };
  };
  return new Map(
    content.loadedVersions.map((version) => [
      version.versionName,
      new Map(version.docs.map((doc) => [doc.id, factsOf(doc)])),
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

/** The link a sidebar item leads to: its own, or none (a grouping such as "packages"). */
function hrefOf(item: PropSidebarItem): string | undefined {
  return item.type === 'html' ? undefined : item.href;
}

/**
 * What a card shows of its page: everything (its description too) when every reader of
 * the category page may read that page; on a private category page, a card of another unit
 * shows its catalogue facts only (version and platforms, like the name and the npm name
 * the sidebar and the package table already give), never its description, since a reader
 * of the page may not hold the card's unit; on a public page, nothing of a private page.
 */
function factsFor(
  href: string,
  docsByPermalink: ReadonlyMap<string, DocFacts>,
  pageReaders: Readers | null,
  readersOfPath: ReadersOf,
): CardFacts | null {
  const doc = docsByPermalink.get(href);
  if (!doc) return null;
  const readers = readersOfPath(doc.permalink);
  const covered = readersCover(readers, pageReaders);
  if (!covered && (readers === null || pageReaders === null || pageReaders === PUBLIC)) return null;
  const facts = {
    ...(covered && doc.description !== '' && { description: doc.description }),
    ...(doc.version !== undefined && { version: doc.version }),
    ...(doc.platforms !== undefined && doc.platforms.length > 0 && { platforms: doc.platforms }),
  };
  return covered || Object.keys(facts).length > 0 ? facts : null;
}

/**
 * What the cards of a category page show (its direct items), and the package groups of
 * those items it lists as sections: a group (a category without a page, "packages") shows
 * when the page may show facts of every package in it (`factsFor`).
 */
export function categoryCardsFor(
  permalink: string,
  sidebars: PropSidebars,
  docs: ReadonlyMap<string, DocFacts>,
  readersOfPath: ReadersOf = readersOf,
): CategoryCards {
  const pageReaders = readersOfPath(permalink);
  const category = Object.values(sidebars)
    .map((items) => findCategory(items, permalink))
    .find((item) => item !== undefined);
  const cards: Record<string, CardFacts> = {};
  const sections: string[] = [];
  if (category?.type !== 'category') return { cards, sections };
  const docsByPermalink = new Map([...docs.values()].map((doc) => [doc.permalink, doc]));
  const add = (href: string | undefined): boolean => {
    if (href === undefined) return false;
    const facts = factsFor(href, docsByPermalink, pageReaders, readersOfPath);
    if (facts !== null) cards[href] = facts;
    return facts !== null;
  };
  for (const item of category.items) {
    add(hrefOf(item));
    if (item.type !== 'category' || item.href === undefined) continue;
    // A package's "About this package" (its changelog and licence) is no group of packages.
    const groups = item.items.filter(
      (child) => child.type === 'category' && child.href === undefined && !isAboutGroup(child),
    );
    const packages = groups.flatMap((group) => (group.type === 'category' ? group.items : []));
    if (packages.length > 0 && packages.every((child) => add(hrefOf(child)))) sections.push(item.href);
  }
  return { cards, sections };
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
    const cards: CategoryCards = inner
      ? categoryCardsFor(category.permalink, inner.sidebars, inner.docs, readersOfPath)
      : { cards: {}, sections: [] };
    props = { ...props, cards };
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
