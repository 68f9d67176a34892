import { readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { load } from 'cheerio';

import { fullTitle, expect, test } from './fixtures';
import { playerPackages, specRoutes, uiToolkitPackages } from './routes';
import { OLDER_SYMBOL_PAGE } from './synced';

/** The URL Docusaurus gives each file under site/docs (README or index → its folder, with a trailing slash). */
function docUrls(): string[] {
  const docsDir = fileURLToPath(new URL('../site/docs/', import.meta.url));
  return readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md') || file.endsWith('.mdx'))
    .map((file) =>
      file
        .split(sep)
        .join('/')
        .replace(/\.mdx?$/, ''),
    )
    .map((id) => {
      if (id === 'intro') return '/docs/';
      const folderIndex = /(?:^|\/)(?:README|index)$/.exec(id);
      return folderIndex ? `/docs/${id.slice(0, folderIndex.index)}${folderIndex.index ? '/' : ''}` : `/docs/${id}`;
    });
}

/** Every page a signed-in reader can open: each docs file, and every route the spec names. */
function allPages(): string[] {
  return [...new Set([...docUrls(), ...specRoutes.map((route) => route.path)])].sort();
}

/** The pages the build made, from its HTML files (`/docs/layout-engine/index.html` → `/docs/layout-engine/`). */
function builtPages(): Set<string> {
  const buildDir = fileURLToPath(new URL('../site/build/', import.meta.url));
  return new Set(
    readdirSync(buildDir, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('index.html') && !file.startsWith('search'))
      .map(
        (file) =>
          '/' +
          file
            .split(sep)
            .join('/')
            .replace(/index\.html$/, ''),
      ),
  );
}

test('every package and page the specification names has a source file and a built page', () => {
  // The spec's lists, checked against what exists: the files under site/docs and the build.
  const sources = new Set(docUrls());
  const built = builtPages();
  const key = (path: string): string => path.replace(/\/$/, '').toLowerCase();
  const builtKeys = new Set([...built].map(key));
  expect(sources.size).toBeGreaterThan(100);
  for (const name of playerPackages) {
    expect(sources).toContain(`/docs/player-manager-mono/packages/${name}/`);
    expect(sources).toContain(`/docs/player-manager-mono/packages/${name}/CHANGELOG`);
  }
  for (const name of uiToolkitPackages) expect(sources).toContain(`/docs/ui-toolkit-mono/packages/${name}/`);
  for (const page of ['CHANGELOG', 'LICENSE', 'CODE_OF_CONDUCT', 'CONTRIBUTING']) {
    expect(sources).toContain(`/docs/player-manager-mono/${page}`);
    expect(sources).toContain(`/docs/ui-toolkit-mono/${page}`);
  }
  for (const path of [...sources, ...specRoutes.map((route) => route.path)])
    expect(builtKeys, `${path} has no page in the build`).toContain(key(path));
});

test('every page comes whole from the build: no part sent later and swapped in by a script', () => {
  // React sends a part that was not ready when the page was rendered (a code block that
  // waited for Prism) after the page, with a script that moves it into place: such a page
  // differed from build to build, and its code was in it twice.
  const buildDir = fileURLToPath(new URL('../site/build/', import.meta.url));
  const pages = readdirSync(buildDir, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('index.html'),
  );
  expect(pages.length).toBeGreaterThan(100);
  const streamed = pages.filter((file) => /<template id=B:|\$RC\(/.test(readFileSync(join(buildDir, file), 'utf8')));
  expect(streamed).toEqual([]);
});

test('a signed-in reader gets every page rendered by the server, with a "Page | Site" title and a heading', async ({
  page,
}) => {
  test.setTimeout(5 * 60_000);
  // "Something | Norigin Developer Docs": a page title, the delimiter, the site title.
  const suffix = fullTitle('')
    .trimStart()
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const titled = new RegExp(`^\\S.* ${suffix}$`);
  // Every page as the server sends it, with the reader's cookie: no blank phase while the
  // sign-in state loads, since the title and the main heading are in the HTML. The browser
  // opens them in phones.e2e.ts and routes.e2e.ts (and hydrates them there).
  const pages = allPages().filter((path) => !OLDER_SYMBOL_PAGE.test(path));
  expect(pages.length).toBeGreaterThan(100);
  const wrong: string[] = [];
  for (const path of pages) {
    const response = await page.request.get(path);
    const html = await response.text();
    const $ = load(html);
    const title = $('title').text();
    // A first- or second-level heading on the page (the blog archive's is in its banner), and
    // a heading in its main part.
    const headings = $('main').find('h1, h2, h3, h4, h5, h6').length;
    if (response.status() !== 200 || !titled.test(title) || !/<h[12][\s>]/.test(html) || headings === 0)
      wrong.push(`${path}: ${response.status()}, "${title}", ${headings} headings in main`);
  }
  expect(wrong).toEqual([]);
});
