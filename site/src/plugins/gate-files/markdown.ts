// Build step: every content page of the site as clean Markdown, for coding assistants and
// for readers who copy a page: `/docs/layout-engine/` → `/docs/layout-engine.md`. Made
// from the page's source (front matter title and description on top; admonitions as
// quotes, tabs as headed sections, other MDX components unwrapped, imports dropped, an
// expression as the text it shows (mdx-values.ts), code blocks kept with their language, links
// to other pages as their `.md`, YAML front matter naming the page's canonical URL, last
// update and release), plus
// the `llms.txt` fragments of each access unit, which the gate puts together per reader.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { access, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { dirname, join, relative, resolve, sep } from 'node:path';

import type { Blockquote, Heading, Paragraph, Root, RootContent, Text } from 'mdast';
import remarkDirective from 'remark-directive';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';

import { accessUnits, policy, readersOf, sectionOf, unitId } from '@portal/access';
import { isOlderRelease, llmsDir, markdownUrl } from '@portal/built-site';
import { keepFile } from '@portal/built-site/write';

import { expressionText, pageValues } from './mdx-values';
import type { BuildCache } from './options';

const ADMONITIONS: Record<string, string> = {
  note: 'Note',
  tip: 'Tip',
  info: 'Info',
  warning: 'Warning',
  caution: 'Caution',
  danger: 'Danger',
  important: 'Important',
};

interface Node {
  type: string;
  name?: string | null;
  children?: Node[];
  attributes?: { type: string; name?: string; value?: unknown }[];
  url?: string;
  alt?: string | null;
  depth?: number;
  /** An expression's or ESM block's syntax tree, which remark-mdx's parser attaches. */
  data?: { directiveLabel?: boolean; estree?: Parameters<typeof expressionText>[0] };
}

const text = (value: string): Text => ({ type: 'text', value });

function attribute(node: Node, name: string): string | null {
  const found = node.attributes?.find((a) => a.type === 'mdxJsxAttribute' && a.name === name);
  return typeof found?.value === 'string' ? found.value : null;
}

/**
 * Rewrites the children of `parent` in place into plain Markdown: what an MDX component
 * means in text, what a directive means, links to other pages as their `.md`.
 */
function rewrite(
  parent: Node,
  headingDepth: number,
  resolveLink: (url: string) => string | null,
  values: Record<string, unknown> = {},
): void {
  const out: Node[] = [];
  let depth = headingDepth;
  const again = (node: Node, at = depth): void => rewrite(node, at, resolveLink, values);
  for (const node of parent.children ?? []) {
    if (node.type === 'heading') depth = node.depth ?? depth;
    switch (node.type) {
      case 'yaml':
      case 'mdxjsEsm':
        continue;
      case 'mdxFlowExpression':
      case 'mdxTextExpression': {
        // What the page shows for it ("23" for {7 * 3 + 2}); nothing for a comment or a component.
        const shown = expressionText(node.data?.estree, values);
        if (shown === null || shown === '') continue;
        out.push(
          node.type === 'mdxTextExpression'
            ? (text(shown) as unknown as Node)
            : ({ type: 'paragraph', children: [text(shown)] } as unknown as Node),
        );
        continue;
      }
      case 'containerDirective': {
        const kind = node.name ?? '';
        const children = [...(node.children ?? [])];
        const labelIndex = children.findIndex((child) => child.data?.directiveLabel);
        const label = labelIndex >= 0 ? children.splice(labelIndex, 1)[0] : null;
        const title = label
          ? (label.children ?? []).map((child) => (child as unknown as Text).value ?? '').join('')
          : (ADMONITIONS[kind] ?? kind);
        const quote: Node = { type: 'blockquote', children };
        again(quote);
        const first = quote.children?.[0];
        const strong = { type: 'strong', children: [text(`${title}:`)] } as unknown as Node;
        if (first?.type === 'paragraph')
          first.children = [strong, text(' ') as unknown as Node, ...(first.children ?? [])];
        else quote.children = [{ type: 'paragraph', children: [strong] }, ...(quote.children ?? [])];
        out.push(quote);
        continue;
      }
      case 'leafDirective':
      case 'textDirective': {
        again(node);
        out.push(...(node.children ?? []));
        continue;
      }
      case 'mdxJsxFlowElement':
      case 'mdxJsxTextElement': {
        if (node.name === 'TabItem') {
          const label = attribute(node, 'label') ?? attribute(node, 'value') ?? 'Tab';
          const heading: Heading = {
            type: 'heading',
            depth: Math.min(depth + 1, 6) as Heading['depth'],
            children: [text(label)],
          };
          out.push(heading as unknown as Node);
          again(node, depth + 1);
          out.push(...(node.children ?? []));
          continue;
        }
        again(node);
        out.push(...(node.children ?? []));
        continue;
      }
      case 'image':
      case 'imageReference': {
        // The image itself is not in the Markdown; what it shows is.
        if (node.alt) out.push({ type: 'emphasis', children: [text(`Image: ${node.alt}`) as unknown as Node] });
        continue;
      }
      case 'link': {
        const resolved = node.url ? resolveLink(node.url) : null;
        if (resolved !== null) node.url = resolved;
        again(node);
        out.push(node);
        continue;
      }
      default:
        if (node.children) again(node);
        out.push(node);
    }
  }
  // A paragraph whose JSX wrapper was unwrapped can hold block content; flatten one level.
  parent.children = out.flatMap((node) =>
    node.type === 'paragraph' &&
    node.children?.some((child) => ['paragraph', 'blockquote', 'list', 'code', 'heading'].includes(child.type))
      ? node.children
      : [node],
  );
}

export interface MarkdownPage {
  /** The page's route as the site serves it (`/docs/layout-engine/`). */
  permalink: string;
  title: string;
  description: string;
  /** The source, or null for a page made from data (a generated category index). */
  markdown: string;
}

/** A source file's Markdown, clean: title and description first, then the body. */
export function toCleanMarkdown(
  source: string,
  page: { title: string; description?: string | null; mdx: boolean; frontMatter?: Record<string, unknown> },
  resolveLink: (url: string) => string | null = () => null,
): string {
  const processor = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm).use(remarkDirective);
  if (page.mdx) processor.use(remarkMdx);
  const tree = processor.parse(source) as Root;
  // The names an expression may use: the page's own `export const` values and its front matter.
  const esm = (tree.children as unknown as Node[])
    .filter((node) => node.type === 'mdxjsEsm')
    .map((node) => node.data?.estree);
  rewrite(tree as unknown as Node, 1, resolveLink, pageValues(esm, page.frontMatter ?? {}));
  const children = tree.children as RootContent[];
  // A page that writes its own title as its first heading keeps it; otherwise the title leads.
  const ownTitle = children[0]?.type === 'heading' && (children[0] as Heading).depth === 1;
  const head: RootContent[] = [];
  if (!ownTitle) head.push({ type: 'heading', depth: 1, children: [text(page.title)] });
  if (page.description) {
    const quote: Blockquote = {
      type: 'blockquote',
      children: [{ type: 'paragraph', children: [text(page.description)] } as Paragraph],
    };
    head.push(quote);
  }
  const document: Root = {
    type: 'root',
    children: ownTitle ? [children[0] as RootContent, ...head, ...children.slice(1)] : [...head, ...children],
  };
  return unified()
    .use(remarkStringify, { bullet: '-', fences: true, rule: '-', emphasis: '_' })
    .use(remarkGfm)
    .stringify(document);
}

interface DocsMetadata {
  permalink: string;
  source: string;
  title: string;
  description: string;
  frontMatter?: Record<string, unknown>;
}

async function jsonFiles<T>(
  dir: string,
  pattern: RegExp,
  current: (name: string) => boolean = () => true,
): Promise<T[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  return Promise.all(
    names
      .filter((name) => pattern.test(name) && current(name))
      .map(async (name) => JSON.parse(await readFile(join(dir, name), 'utf8')) as T),
  );
}

type SidebarItem =
  | { type: 'link'; href: string; label: string; docId?: string }
  | { type: 'category'; label: string; href?: string; items: SidebarItem[] }
  | { type: 'html' };

function findCategory(items: SidebarItem[], href: string): Extract<SidebarItem, { type: 'category' }> | null {
  for (const item of items) {
    if (item.type !== 'category') continue;
    if (item.href === href) return item;
    const found = findCategory(item.items, href);
    if (found) return found;
  }
  return null;
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/**
 * The entries of a content plugin's data files (`docusaurus-plugin-content-docs`, …) for the
 * pages this build wrote. Docusaurus leaves the data files of earlier builds in its generated
 * folder: a page that was removed or moved since (an older release when a new one comes)
 * still has one. Only the pages this build wrote, from sources that are still there, count.
 */
async function builtEntries<T extends DocsMetadata>(
  buildDir: string,
  generatedDir: string,
  plugin: string,
): Promise<T[]> {
  const siteDir = dirname(generatedDir);
  const entries = await jsonFiles<T>(join(generatedDir, plugin, 'default'), /^site-.*\.json$/);
  const html = (permalink: string) =>
    permalink.endsWith('/') ? [`${permalink}index.html`] : [`${permalink}/index.html`, `${permalink}.html`];
  const keep = await Promise.all(
    entries.map(
      async (entry) =>
        (await exists(resolve(siteDir, entry.source.replace(/^@site\//, '')))) &&
        (await Promise.all(html(entry.permalink).map((file) => exists(join(buildDir, file))))).some(Boolean),
    ),
  );
  return entries.filter((_, index) => keep[index]);
}

/**
 * The version of each page of a synced package's release (its `package_version`, which the
 * package-sources plugin writes), by the page's permalink.
 */
export async function releaseVersions(buildDir: string, generatedDir: string): Promise<Map<string, string>> {
  const docs = await builtEntries<DocsMetadata>(buildDir, generatedDir, 'docusaurus-plugin-content-docs');
  return new Map(
    docs.flatMap((doc) => {
      const version = doc.frontMatter?.package_version;
      return typeof version === 'string' ? [[doc.permalink, version] as const] : [];
    }),
  );
}

/** What a kept twin was made from, besides its source and metadata: each link it resolved, and to what. */
interface KeptTwin {
  markdown: string;
  links: [string, string | null][];
}

/**
 * The twins of the sources a build converted, kept between builds under the hash of the
 * converter (this file and the cache's salt), the source and its metadata. A kept twin is
 * used when every link it resolved resolves as it did then, so a page whose links point
 * elsewhere now is converted again. What a build did not use is removed.
 */
class KeptTwins {
  private readonly used = new Set<string>();
  private readonly dir: string;
  private readonly salt: string;

  constructor(cache: BuildCache) {
    this.dir = cache.dir;
    this.salt = createHash('sha256').update(readFileSync(__filename)).update(cache.salt).digest('hex');
  }

  async twin(
    source: string,
    page: Parameters<typeof toCleanMarkdown>[1],
    resolveLink: (url: string) => string | null,
  ): Promise<string> {
    const key = createHash('sha256')
      .update(JSON.stringify([this.salt, page, source]))
      .digest('hex');
    this.used.add(key);
    const file = join(this.dir, `${key}.json`);
    const kept = await readFile(file, 'utf8').then(
      (text) => JSON.parse(text) as KeptTwin,
      () => null,
    );
    if (kept && kept.links.every(([url, to]) => resolveLink(url) === to)) return kept.markdown;
    const links: KeptTwin['links'] = [];
    const markdown = toCleanMarkdown(source, page, (url) => {
      const to = resolveLink(url);
      links.push([url, to]);
      return to;
    });
    await mkdir(this.dir, { recursive: true });
    await keepFile(file, JSON.stringify({ markdown, links } satisfies KeptTwin));
    return markdown;
  }

  async prune(): Promise<void> {
    for (const name of await readdir(this.dir).catch(() => []))
      if (!this.used.has(name.replace(/\.json$/, ''))) await rm(join(this.dir, name), { force: true });
  }
}

/** What a twin's YAML front matter says of its page, beside its title. */
export interface TwinFacts {
  /** The page's address on the portal: the site's URL and the page's route. */
  canonicalUrl: string;
  /** The day of the last commit of the page's source (YYYY-MM-DD), when the history is there. */
  lastUpdate?: string | null;
  /** The release of a synced package the page documents. */
  version?: string | null;
}

/** A YAML string: JSON's quoting is YAML's double-quoted style. */
const yamlString = (value: string): string => JSON.stringify(value);

/**
 * A twin as written: YAML front matter naming the page (title, canonical URL, last update,
 * version) and the Markdown below it, which still starts with the page's title.
 */
export function withFrontMatter(markdown: string, page: { title: string }, facts: TwinFacts): string {
  const lines = [
    `title: ${yamlString(page.title)}`,
    `canonical_url: ${yamlString(facts.canonicalUrl)}`,
    ...(facts.lastUpdate ? [`last_update: ${facts.lastUpdate}`] : []),
    ...(facts.version ? [`version: ${yamlString(facts.version)}`] : []),
  ];
  return `---\n${lines.join('\n')}\n---\n\n${markdown}`;
}

/**
 * The day each file under `siteDir` was last committed (path relative to `siteDir`), in one
 * pass over the repository's history; empty where there is none (a copy without .git).
 */
export async function lastCommitDays(siteDir: string): Promise<Map<string, string>> {
  const days = new Map<string, string>();
  const output = await new Promise<string>((done) =>
    execFile(
      'git',
      ['log', '--format=%x00%cI', '--name-only', '--relative', '--', '.'],
      { cwd: siteDir, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => done(error ? '' : stdout),
    ),
  );
  for (const commit of output.split('\0')) {
    const [date, ...files] = commit.split('\n').filter((line) => line.trim() !== '');
    if (!date) continue;
    // Newest first: a file's first date is its last change.
    for (const file of files) if (!days.has(file)) days.set(file, date.slice(0, 10));
  }
  return days;
}

/**
 * Writes the `.md` of every doc, blog post, Markdown page and generated category page into
 * `buildDir` (beside the HTML: `/docs/layout-engine.md`), and returns them. With `cache`,
 * the twins of sources are kept between builds (`KeptTwins`).
 */
export async function writeMarkdownPages(
  buildDir: string,
  generatedDir: string,
  cache?: BuildCache,
  siteUrl = '',
): Promise<MarkdownPage[]> {
  const siteDir = dirname(generatedDir);
  const history = lastCommitDays(siteDir);
  const absolute = (source: string): string => resolve(siteDir, source.replace(/^@site\//, ''));
  const docs = await builtEntries<DocsMetadata>(buildDir, generatedDir, 'docusaurus-plugin-content-docs');
  const posts = await builtEntries<DocsMetadata>(buildDir, generatedDir, 'docusaurus-plugin-content-blog');
  const pages = await builtEntries<DocsMetadata>(buildDir, generatedDir, 'docusaurus-plugin-content-pages');
  const sources = [
    ...docs,
    ...posts,
    ...pages.filter((page) => page.source.endsWith('.md') || page.source.endsWith('.mdx')),
  ];
  const bySource = new Map(sources.map((entry) => [absolute(entry.source), entry]));
  const written: MarkdownPage[] = [];
  const kept = cache === undefined ? null : new KeptTwins(cache);

  const origin = siteUrl.replace(/\/+$/, '');
  const store = async (page: MarkdownPage, facts: Omit<TwinFacts, 'canonicalUrl'> = {}): Promise<void> => {
    const file = join(buildDir, markdownUrl(page.permalink));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(
      file,
      withFrontMatter(page.markdown, page, { canonicalUrl: `${origin}${page.permalink}`, ...facts }),
    );
    written.push(page);
  };
  const days = await history;

  for (const entry of sources) {
    const file = absolute(entry.source);
    const resolveLink = (url: string): string | null => {
      if (/^[a-z][a-z+.-]*:|^\/\/|^#/i.test(url)) return null;
      const [path, hash] = url.split('#', 2);
      if (!path || !/\.mdx?$/.test(path)) return null;
      const target = bySource.get(resolve(dirname(file), decodeURIComponent(path)));
      return target ? `${markdownUrl(target.permalink)}${hash ? `#${hash}` : ''}` : null;
    };
    const source = await readFile(file, 'utf8');
    const page = {
      title: entry.title,
      description: entry.description,
      mdx: file.endsWith('.mdx'),
      frontMatter: entry.frontMatter ?? {},
    };
    const markdown = kept ? await kept.twin(source, page, resolveLink) : toCleanMarkdown(source, page, resolveLink);
    const version = entry.frontMatter?.package_version;
    await store(
      { permalink: entry.permalink, title: entry.title, description: entry.description, markdown },
      {
        lastUpdate: days.get(relative(siteDir, file).split(sep).join('/')) ?? null,
        version: typeof version === 'string' ? version : null,
      },
    );
  }

  // Generated category pages: their title, description and the pages they list; from the
  // props files this build's routes name (registry.js), not those earlier builds left.
  const props = join(generatedDir, 'docusaurus-plugin-content-docs', 'default', 'p');
  const registry = await readFile(join(generatedDir, 'registry.js'), 'utf8');
  const all = await jsonFiles<{
    categoryGeneratedIndex?: { title: string; description?: string; permalink: string };
    version?: { docsSidebars: Record<string, SidebarItem[]> };
  }>(props, /\.json$/, (name) => registry.includes(`/default/p/${name}"`));
  const sidebars = all.find((prop) => prop.version)?.version?.docsSidebars ?? {};
  const docByPermalink = new Map(docs.map((doc) => [doc.permalink, doc]));
  for (const prop of all) {
    const category = prop.categoryGeneratedIndex;
    if (!category) continue;
    const items =
      Object.values(sidebars)
        .map((sidebar) => findCategory(sidebar, category.permalink))
        .find(Boolean)?.items ?? [];
    const lines = items.flatMap((item) => {
      if (item.type === 'html') return [];
      const href = item.type === 'link' ? item.href : item.href;
      if (!href) return [];
      const doc = docByPermalink.get(href);
      // Only the descriptions of pages every reader of this page may read (the same rule as the cards).
      const described =
        doc && JSON.stringify(readersOf(doc.permalink)) === JSON.stringify(readersOf(category.permalink));
      return [`- [${item.label}](${markdownUrl(href)})${described && doc.description ? `: ${doc.description}` : ''}`];
    });
    const markdown = `# ${category.title}\n\n${category.description ? `> ${category.description}\n\n` : ''}${lines.join('\n')}\n`;
    await store({
      permalink: category.permalink,
      title: category.title,
      description: category.description ?? '',
      markdown,
    });
  }
  await kept?.prune();
  return written;
}

/** The heading a page is listed under in `llms.txt`: its unit's label. */
function sectionLabel(permalink: string): { order: number; label: string } {
  const section = sectionOf(permalink);
  if (section === 'public') return { order: -1, label: 'Open to everyone' };
  const index = policy.units.findIndex((unit) => unit.name === section);
  return { order: index, label: policy.units[index]?.label ?? 'Other' };
}

/**
 * Writes, per access unit, the `llms.txt` entries (title, `.md` link, description, by
 * section) and the full text of the pages whose readers are exactly that unit's. The gate
 * serves `/llms.txt` and `/llms-full.txt` as the fragments of the units a reader may read.
 */
export async function writeLlmsFragments(buildDir: string, pages: readonly MarkdownPage[]): Promise<void> {
  for (const unit of accessUnits()) {
    const mine = pages
      .filter((page) => {
        const readers = readersOf(page.permalink);
        return readers !== null && unitId(readers) === unit.id;
      })
      .map((page) => ({ page, section: sectionLabel(page.permalink) }))
      .sort((a, b) => a.section.order - b.section.order || a.page.permalink.localeCompare(b.page.permalink));
    const sections = new Map<string, string[]>();
    for (const { page, section } of mine) {
      const line = `- [${page.title}](${markdownUrl(page.permalink)})${page.description ? `: ${page.description}` : ''}`;
      sections.set(section.label, [...(sections.get(section.label) ?? []), line]);
    }
    const index = [...sections].map(([label, lines]) => `## ${label}\n\n${lines.join('\n')}\n`).join('\n');
    // An older release of a synced package is listed, not repeated in full.
    const full = mine
      .filter(({ page }) => !isOlderRelease(page.permalink))
      .map(({ page }) => `${page.markdown.trim()}\n\nSource: ${markdownUrl(page.permalink)}\n`)
      .join('\n---\n\n');
    const dir = join(buildDir, llmsDir(unit.id));
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'index.md'), index);
    await writeFile(join(dir, 'full.md'), full);
  }
}
