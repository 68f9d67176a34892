/**
 * A package's own Markdown (its README, its docs/ pages) made fit for a portal page: its
 * first `#` heading becomes the page title (the front matter's), the other headings move
 * down a level when the file has more than one `#`, raw HTML is dropped (a package's text
 * never puts markup or scripts into the portal), images become links (readers' browsers
 * fetch nothing from third parties), and links to files the portal does not carry go to the
 * repository.
 */
import type { Heading, Link, Nodes, Parent, PhrasingContent, Root, RootContent } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';

export interface LinkContext {
  /** Maps a path of the release (`CHANGELOG.md`, `docs/setup.md`) to the relative link of the portal page made from it, or undefined. */
  pageFor(path: string): string | undefined;
  /** The repository's web address at this release (`https://github.com/o/r/blob/v2.3.0`), or undefined. */
  repositoryBlob?: string;
  /** Where root-relative links (`/assets/demo.gif`) point: the package's homepage origin, or undefined. */
  homepageOrigin?: string;
}

export interface PackageMarkdown {
  /** The text of the first `#` heading, when the file has one. */
  title?: string;
  markdown: string;
  /** How many raw HTML blocks were dropped. */
  droppedHtml: number;
}

function absolute(url: string, context: LinkContext): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#')) return url;
  if (url.startsWith('//')) return `https:${url}`;
  if (url.startsWith('/')) return context.homepageOrigin ? context.homepageOrigin + url : undefined;
  const [path = '', hash] = url.split('#', 2);
  const clean = path.replace(/^\.\//, '');
  const page = context.pageFor(clean);
  if (page) return hash ? `${page}#${hash}` : page;
  return context.repositoryBlob ? `${context.repositoryBlob}/${clean}${hash ? `#${hash}` : ''}` : undefined;
}

function textOf(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(textOf).join('');
  return '';
}

/** Replaces each child that `change` maps, recursively; `null` drops it. */
function rewrite(parent: Parent, change: (node: RootContent) => RootContent | RootContent[] | null | undefined): void {
  const out: RootContent[] = [];
  for (const child of parent.children as RootContent[]) {
    const changed = change(child);
    const next = changed === undefined ? [child] : changed === null ? [] : Array.isArray(changed) ? changed : [changed];
    for (const node of next) {
      if ('children' in node) rewrite(node as Parent, change);
      out.push(node);
    }
  }
  parent.children = out as Parent['children'];
}

export function packageMarkdown(source: string, context: LinkContext): PackageMarkdown {
  const tree = unified().use(remarkParse).use(remarkGfm).parse(source) as Root;
  let droppedHtml = 0;
  const headings = tree.children.filter((node): node is Heading => node.type === 'heading');
  const first = tree.children.find((node): node is Heading => node.type === 'heading' && node.depth === 1);
  const title = first ? textOf(first).trim() : undefined;
  if (first) tree.children.splice(tree.children.indexOf(first), 1);
  const demote = headings.filter((heading) => heading.depth === 1).length > 1;

  rewrite(tree, (node) => {
    if (node.type === 'html') {
      droppedHtml += 1;
      return null;
    }
    if (node.type === 'heading' && demote) node.depth = Math.min(6, node.depth + 1) as Heading['depth'];
    if (node.type === 'image' || node.type === 'imageReference') {
      const url = node.type === 'image' ? absolute(node.url, context) : undefined;
      const label = node.alt?.trim() || 'image';
      const text: PhrasingContent = { type: 'text', value: `${label} (image)` };
      return url ? ({ type: 'link', url, children: [text] } satisfies Link) : text;
    }
    if (node.type === 'link') {
      const url = absolute(node.url, context);
      // An image inside a link (a badge): the link keeps the image's words, never a link in a link.
      node.children = node.children.map((child) =>
        child.type === 'image' || child.type === 'imageReference'
          ? { type: 'text', value: child.alt?.trim() || 'image' }
          : child,
      );
      if (url === undefined) return node.children;
      node.url = url;
    }
    return undefined;
  });

  const markdown = unified()
    .use(remarkGfm)
    .use(remarkStringify, { bullet: '-', fences: true, rule: '-', emphasis: '_' })
    .stringify(tree);
  return { title, markdown: String(markdown), droppedHtml };
}

/** `git+https://github.com/o/r.git` → `https://github.com/o/r`; undefined when it is no web address. */
export function repositoryWeb(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const cleaned = url
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/^git@([^:]+):/, 'https://$1/')
    .replace(/\.git$/, '');
  return /^https?:\/\//.test(cleaned) ? cleaned : undefined;
}
