/**
 * A package's own Markdown (its README, its docs/ pages) made fit for a portal page: the
 * trust boundary (@portal/sync/trust) drops its front matter and raw HTML and makes images
 * links; here its first `#` heading becomes the page title (the front matter's), the other
 * headings move down a level when the file has more than one `#`, and links to files the
 * portal does not carry go to the repository.
 */
import { markdownOf, untrustedMarkdown } from '@portal/sync/trust';
import type { Heading, Nodes, Root } from 'mdast';

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

/** Where a link of the file leads: a page of the portal, the repository, or an absolute address (the trust boundary checks its scheme). */
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

export function packageMarkdown(source: string, context: LinkContext): PackageMarkdown {
  const { tree, droppedHtml } = untrustedMarkdown(source, { resolve: (url) => absolute(url, context) }) as {
    tree: Root;
    droppedHtml: number;
  };
  const headings = tree.children.filter((node): node is Heading => node.type === 'heading');
  const first = headings.find((node) => node.depth === 1);
  const title = first ? textOf(first).replace(/\s+/g, ' ').trim() : undefined;
  if (first) tree.children.splice(tree.children.indexOf(first), 1);
  if (headings.filter((heading) => heading.depth === 1).length > 1)
    for (const heading of headings) heading.depth = Math.min(6, heading.depth + 1) as Heading['depth'];
  return { title: title || undefined, markdown: markdownOf(tree), droppedHtml };
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
