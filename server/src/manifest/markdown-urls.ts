// The `.md` twin of each page, as the build writes it and the gate serves it. No Markdown
// tooling here: the gate imports this at run time.

/** The `.md` address of a page: `/docs/layout-engine/` → `/docs/layout-engine.md`, `/` → `/index.md`. */
export function markdownUrl(permalink: string): string {
  const bare = permalink.replace(/\/+$/, '');
  return `${bare === '' ? '/index' : bare}.md`;
}

/** The page a `.md` address stands for, as a route: `/docs/layout-engine.md` → `/docs/layout-engine`. */
export function pageOfMarkdown(url: string): string | null {
  if (!url.endsWith('.md')) return null;
  const page = url.slice(0, -'.md'.length);
  return page === '/index' ? '/' : page;
}
