import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { writeManifest } from '../manifest/prepare.js';

/**
 * Writes a miniature prepared build (paths → contents) into a fresh temporary folder,
 * with its manifest: the URLs listed in `publicUrls` are public, the rest private.
 */
export async function makeTestSite(
  files: Record<string, string | Buffer> = miniSite,
  publicUrls: readonly string[] = miniSitePublic,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'portal-site-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
  await writeManifest(dir, new Set(publicUrls));
  return dir;
}

const page = (title: string, extra = ''): string =>
  `<!doctype html><html><head><title>${title}</title><script>document.documentElement.dataset.theme='light'</script></head><body><h1>${title}</h1>${extra}${' '.repeat(400)}</body></html>`;

export const PRIVATE_CANARY = 'The quiet lantern hums beneath the seventh bridge';

export const miniSite: Record<string, string> = {
  '404.html': page('Page Not Found'),
  'index.html': page('Home'),
  'login/index.html': page('Login'),
  'docs/index.html': page('Getting Started'),
  'docs/Norigin-Spatial-Navigation/index.html': page('Spatial Navigation'),
  'docs/layout-engine/index.html': page('Layout Engine', `<p>${PRIVATE_CANARY}</p>`),
  'docs/layout-engine/CHANGELOG/index.html': page('Changelog'),
  'docs/player-manager-mono/packages/player-adapter-dash.js/index.html': page('player-adapter-dash.js'),
  'assets/js/main.0f3c9a77.js': 'console.log("main");' + '/* shared runtime */'.repeat(40),
  'assets/js/1a2b3c4d.5e6f7a8b.js': `console.log(${JSON.stringify(PRIVATE_CANARY)});` + ' '.repeat(300),
  'blog/rss.xml': `<rss>${PRIVATE_CANARY}</rss>`,
  'img/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
  'sitemap.xml': '<urlset/>',
  'robots.txt': 'User-agent: *\nAllow: /\n',
};

export const miniSitePublic = [
  '/404.html',
  '/index.html',
  '/login/index.html',
  '/docs/index.html',
  '/docs/Norigin-Spatial-Navigation/index.html',
  '/assets/js/main.0f3c9a77.js',
  '/img/logo.svg',
  '/sitemap.xml',
  '/robots.txt',
];
