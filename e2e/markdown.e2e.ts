import { load } from 'cheerio';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Heading, Nodes } from 'mdast';
import { parse as parseYaml } from 'yaml';

import { expect, test } from './fixtures';

/** The plain text of a Markdown node, as a reader sees it. */
function textOf(node: Nodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as Nodes[]).map(textOf).join('');
  return '';
}

const normalise = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** A twin's YAML front matter and the Markdown below it. */
function splitTwin(text: string): { facts: Record<string, unknown> | null; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n\n/.exec(text);
  if (!match) return { facts: null, body: text };
  return { facts: parseYaml(match[1] ?? '') as Record<string, unknown>, body: text.slice(match[0].length) };
}

/**
 * Every page a staff reader may read (all of them), as an assistant gets it: its `.md`
 * parses as CommonMark with no JSX, MDX import or component left, and its headings are the
 * page's, in order (a category page: its list is the page's cards). Pages come from
 * `/llms.txt`, so the index is checked along the way.
 */
test('every page’s Markdown is clean CommonMark with the headings of the page', async ({ page }) => {
  test.setTimeout(180_000);
  const index = await page.request.get('/llms.txt');
  expect(index.status()).toBe(200);
  // Absolute links at the portal's address; the path is what is fetched.
  const links = [...(await index.text()).matchAll(/\]\((?:https?:\/\/[^/)\s]+)?(\/[^)\s]+\.md)\)/g)].map(
    (match) => match[1] ?? '',
  );
  expect(links.length, 'llms.txt lists every page of a staff reader').toBeGreaterThan(120);

  const problems: string[] = [];
  for (const link of links) {
    const markdown = await page.request.get(link);
    expect(markdown.status(), link).toBe(200);
    expect(markdown.headers()['content-type']).toBe('text/markdown; charset=utf-8');
    const { facts, body } = splitTwin(await markdown.text());
    if (facts === null) problems.push(`${link}: no front matter`);
    const tree = fromMarkdown(body);
    const html = tree.children.filter((node) => node.type === 'html').map((node) => textOf(node));
    for (const block of html)
      if (/<[A-Z]|<\/[A-Z]/.test(block)) problems.push(`${link}: a component is left: ${block}`);
    for (const node of tree.children)
      if (node.type === 'paragraph' && /^(import|export) .* from ['"]/.test(textOf(node)))
        problems.push(`${link}: an MDX import is left: ${textOf(node)}`);
    const mdHeadings = tree.children
      .filter((node): node is Heading => node.type === 'heading' && node.depth >= 2)
      .map((node) => `${node.depth} ${normalise(textOf(node))}`);

    // The page itself: the headings of its content, without the "#" link beside each.
    const pagePath = link === '/docs.md' ? '/docs/' : link.replace(/\.md$/, '');
    const response = await page.request.get(pagePath);
    const $ = load(await response.text());
    // The front matter names the page as its HTML does: its title and canonical address.
    const canonical = $('link[rel="canonical"]').attr('href');
    if (canonical && facts?.canonical_url !== canonical)
      problems.push(`${link}: canonical_url ${String(facts?.canonical_url)}, the page says ${canonical}`);
    if (typeof facts?.title !== 'string' || facts.title === '') problems.push(`${link}: no title in the front matter`);
    const prose = $('.theme-doc-markdown, article .markdown');
    if (prose.length === 0 && $('a.card').length > 0) {
      // A category page has cards, not prose: its Markdown lists them, each by its title.
      const cards = new Set(
        $('a.card h2')
          .toArray()
          .map((title) => normalise($(title).text())),
      );
      expect(cards.size, `${pagePath} is a page of cards`).toBeGreaterThan(0);
      const listed = [...(await markdown.text()).matchAll(/^- \[([^\]]+)\]\(/gm)].map((match) => match[1] ?? '');
      expect(listed.length, `${link} lists the category's pages`).toBeGreaterThan(0);
      for (const title of listed) if (!cards.has(title)) problems.push(`${link}: "${title}" is no card of ${pagePath}`);
      continue;
    }
    // A doc's, a post's and a Markdown page's content, in that order of preference.
    const content = prose.length > 0 ? prose.first() : $('main article').first();
    expect(content.length, `${pagePath} has content`).toBe(1);
    content.find('a.hash-link').remove();
    const pageHeadings = content
      .find('h2, h3, h4, h5, h6')
      .toArray()
      .map((element) => `${element.tagName.slice(1)} ${normalise($(element).text())}`);
    // Tabs become headed sections in Markdown (one per tab): those headings are the tabs' labels.
    const tabs = new Set(
      content
        .find('[role="tab"]')
        .toArray()
        .map((tab) => normalise($(tab).text())),
    );
    const mdOwnHeadings = mdHeadings.filter((heading) => !tabs.has(heading.replace(/^\d /, '')));
    if (JSON.stringify(mdOwnHeadings) !== JSON.stringify(pageHeadings))
      problems.push(
        `${link}: headings differ from ${pagePath}\n  md:   ${mdHeadings.join(' | ')}\n  page: ${pageHeadings.join(' | ')}`,
      );
  }
  expect(problems, problems.join('\n')).toEqual([]);
});

test('a .md reads an MDX expression as the page shows it, and names a release’s version', async ({ page }) => {
  // The post computes its package count in an expression: the HTML shows 23, and so does its twin.
  const html = load(await (await page.request.get('/blog/mdx-blog-post')).text());
  expect(normalise(html('article').text())).toContain('loads every one of the 23 player-manager packages');
  const post = splitTwin(await (await page.request.get('/blog/mdx-blog-post.md')).text());
  expect(normalise(post.body)).toContain('loads every one of the 23 player-manager packages');
  expect(post.body).not.toContain('truncate');
  expect(post.facts).toMatchObject({
    title: 'From laptop to living room, your first build on a TV',
    canonical_url: html('link[rel="canonical"]').attr('href'),
  });
  // A tracked source has the day of its last commit.
  expect(String(post.facts?.last_update)).toMatch(/^\d{4}-\d{2}-\d{2}$/);

  // An older release of a synced package names its version.
  const release = splitTwin(await (await page.request.get('/docs/Norigin-Spatial-Navigation/2.3.0.md')).text());
  expect(release.facts).toMatchObject({ version: '2.3.0' });
});
