/**
 * The `.md` twin of a page, as the gate serves it: `/docs/layout-engine/` →
 * `/docs/layout-engine.md`, `/` → `/index.md`. The server's own rule is
 * server/src/manifest/markdown-urls.ts (no site code may import server code); a test keeps
 * the two the same.
 */
export function markdownUrlOf(permalink: string): string {
  const bare = permalink.replace(/\/+$/, '');
  return `${bare === '' ? '/index' : bare}.md`;
}
