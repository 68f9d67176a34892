import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Writes a miniature Docusaurus build (paths → contents) into a fresh temporary folder. */
export async function makeTestSite(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-site-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  return dir;
}

export const miniSite = {
  '404.html': '<h1>Page Not Found</h1>',
  'index.html': '<h1>Home</h1>',
  'docs/index.html': '<h1>Getting Started</h1>',
  'docs/layout-engine/index.html': '<h1>Layout Engine</h1>',
  'docs/layout-engine/CHANGELOG/index.html': '<h1>Changelog</h1>',
  'docs/player-manager-mono/packages/player-adapter-dash.js/index.html': '<h1>player-adapter-dash.js</h1>',
  'assets/js/main.0f3c9a.js': 'console.log("main")',
  'img/logo.svg': '<svg/>',
  'sitemap.xml': '<urlset/>',
};
