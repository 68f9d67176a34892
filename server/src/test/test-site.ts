import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { policy, readersOf, type Readers } from '@portal/access';
import { pageRoute } from '@portal/built-site';
import { writeManifest } from '@portal/built-site/write';

/**
 * Writes a miniature prepared build (paths → contents) into a fresh temporary folder,
 * with its manifest. Pages are read by the readers of their route (the real policy);
 * other files as `fileReaders` says, else by the readers of every unit (`all-units`).
 */
export async function makeTestSite(
  files: Record<string, string | Buffer> = miniSite,
  fileReaders: Record<string, Readers> = miniSiteFileReaders,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-site-'));
  const readers = new Map<string, Readers>();
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
    const url = '/' + path;
    const page = url.endsWith('.html') && url !== '/404.html' ? readersOf(pageRoute(url)) : null;
    readers.set(url, fileReaders[url] ?? page ?? policy.fullAccess);
  }
  await writeManifest(dir, readers);
  return dir;
}

const page = (title: string, extra = ''): string =>
  `<!doctype html><html><head><title>${title}</title><script>document.documentElement.dataset.theme='light'</script></head><body><h1>${title}</h1>${extra}${' '.repeat(400)}</body></html>`;

/** In a page and a chunk that partners and staff read. */
export const PRIVATE_CANARY = 'The quiet lantern hums beneath the seventh bridge';
/** In a page and a chunk that only staff (and admins) read. */
export const STAFF_CANARY = 'Nine copper kettles argue about the tide';

export const miniSite: Record<string, string> = {
  '404.html': page('Page Not Found'),
  'index.html': page('Home'),
  'login/index.html': page('Login'),
  'docs/index.html': page('Getting Started'),
  'docs/Norigin-Spatial-Navigation/index.html': page('Spatial Navigation'),
  'docs/layout-engine/index.html': page('Layout Engine', `<p>${PRIVATE_CANARY}</p>`),
  'docs/layout-engine/CHANGELOG/index.html': page('Changelog'),
  'docs/player-manager-mono/packages/player-adapter-dash.js/index.html': page('player-adapter-dash.js'),
  'docs/frontend-guidelines/GitFlow/index.html': page('GitFlow', `<p>${STAFF_CANARY}</p>`),
  'docs/layout-engine.md': `# Layout Engine\n\n${PRIVATE_CANARY}\n`,
  'docs/frontend-guidelines/GitFlow.md': `# GitFlow\n\n${STAFF_CANARY}\n`,
  'docs.md': '# Getting Started\n\nOpen to everyone.\n',
  'llms/public/index.md': '## Open to everyone\n\n- [Getting Started](/docs.md)\n',
  'llms/layout/index.md': '## Layout Engine\n\n- [Layout Engine](/docs/layout-engine.md)\n',
  'llms/internal/index.md': '## Internal\n\n- [GitFlow](/docs/frontend-guidelines/GitFlow.md)\n',
  'llms/layout/full.md': `# Layout Engine\n\n${PRIVATE_CANARY}\n`,
  'llms/internal/full.md': `# GitFlow\n\n${STAFF_CANARY}\n`,
  'llms/public/full.md': '# Getting Started\n\nOpen to everyone.\n',
  'assets/js/main.0f3c9a77.js': 'console.log("main");' + '/* shared runtime */'.repeat(40),
  'assets/js/1a2b3c4d.5e6f7a8b.js': `console.log(${JSON.stringify(PRIVATE_CANARY)});` + ' '.repeat(300),
  'assets/js/9f8e7d6c.5b4a3f2e.js': `console.log(${JSON.stringify(STAFF_CANARY)});` + ' '.repeat(300),
  'blog/rss.xml': `<rss>${PRIVATE_CANARY}</rss>`,
  'img/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'sitemap.xml': '<urlset/>',
  'robots.txt': 'User-agent: *\nAllow: /\n',
};

/** Who reads the files of the miniature site that are not pages. */
export const miniSiteFileReaders: Record<string, Readers> = {
  '/404.html': 'public',
  '/assets/js/main.0f3c9a77.js': 'public',
  // Loaded by a layout page, and by layout and blog pages; loaded by an internal page.
  '/assets/js/1a2b3c4d.5e6f7a8b.js': ['layout', 'blog'],
  '/assets/js/9f8e7d6c.5b4a3f2e.js': ['internal'],
  '/blog/rss.xml': ['blog'],
  '/docs/layout-engine.md': ['layout'],
  '/docs/frontend-guidelines/GitFlow.md': ['internal'],
  '/docs.md': 'public',
  '/llms/public/index.md': 'public',
  '/llms/public/full.md': 'public',
  '/llms/layout/index.md': ['layout'],
  '/llms/layout/full.md': ['layout'],
  '/llms/internal/index.md': ['internal'],
  '/llms/internal/full.md': ['internal'],
  '/img/logo.svg': 'public',
  '/sitemap.xml': 'public',
  '/robots.txt': 'public',
};
