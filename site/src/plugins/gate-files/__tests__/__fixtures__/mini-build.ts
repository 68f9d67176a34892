import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * A miniature Docusaurus build, shaped like a real one (the generated `.docusaurus`
 * files and a minified main bundle with the route registry), small enough to read:
 *
 *   /                                   home (public)
 *   /login                              login, whose chunk imports the SDK chunk lazily (public)
 *   /docs (layout) > /docs (layout) >   docs root and version root, with the docs metadata
 *     /docs/                            getting started (public)
 *     /docs/layout-engine/              a page partners read
 *     /docs/frontend-guidelines/GitFlow a staff-only page that lazily loads a chunk and names an image
 *   /blog                               the blog list (partners), and a feed no page loads
 *   *                                   the not-found page
 *
 * Both private doc pages load the chunk `shared`; the GitFlow page alone loads `lazy` and
 * the diagram. The three doc pages are searchable (their text in an article, the doc id in
 * the root's classes) and have Markdown sources with the docs plugin's metadata.
 */
export const MINI_CHUNKS = {
  docItem: '/assets/js/204.d0c17e40.js',
  versionMeta: '/assets/js/203.3e7a0000.js',
  docsRoot: '/assets/js/201.d0c50000.js',
  introMd: '/assets/js/205.1a7e0000.js',
  layoutMd: '/assets/js/206.1a40e000.js',
  gitflowMd: '/assets/js/207.9f10e000.js',
  lazy: '/assets/js/208.1a2f0000.js',
  shared: '/assets/js/209.5a4e0000.js',
  blogList: '/assets/js/101.b1090000.js',
  login: '/assets/js/301.10910000.js',
  sdk: '/assets/js/302.5d400000.js',
  home: '/assets/js/401.40e00000.js',
  notFound: '/assets/js/499.40400000.js',
  main: '/assets/js/main.js',
  runtime: '/assets/js/runtime~main.js',
  styles: '/assets/css/styles.c0ffee00.css',
  diagram: '/assets/images/diagram-ab12cd34.png',
};

const routes = [
  { key: '/-h01', path: '/', names: { __comp: 'home' } },
  { key: '/login-l01', path: '/login', names: { __comp: 'login' } },
  { key: '/blog-b01', path: '/blog', names: { __comp: 'blogList' } },
  { key: '/docs-d01', path: '/docs', names: { __comp: 'docsRoot' } },
  { key: '/docs-d02', path: '/docs', names: { __comp: 'versionRoot', __props: 'versionMeta' } },
  { key: '/docs/-d03', path: '/docs/', names: { __comp: 'docItem', content: 'introMd' } },
  { key: '/docs/layout-engine/-d04', path: '/docs/layout-engine/', names: { __comp: 'docItem', content: 'layoutMd' } },
  {
    key: '/docs/frontend-guidelines/GitFlow-d05',
    path: '/docs/frontend-guidelines/GitFlow',
    names: { __comp: 'docItem', content: 'gitflowMd' },
  },
];

const creator = (key: string, path: string): string => `ComponentCreator('${path}', '${key.slice(path.length + 1)}')`;

function routesJs(extraPages: string[]): string {
  const leaf = (key: string, path: string, indent: string): string =>
    `${indent}{\n${indent}  path: '${path}',\n${indent}  component: ${creator(key, path)},\n${indent}  exact: true\n${indent}}`;
  const docs = routes.filter((route) => route.key.startsWith('/docs/'));
  const extra = extraPages.map((path, index) => leaf(`${path}-x${index}`, path, '          '));
  return `import React from 'react';
import ComponentCreator from '@docusaurus/ComponentCreator';

export default [
${leaf('/blog-b01', '/blog', '  ')},
  {
    path: '/docs',
    component: ${creator('/docs-d01', '/docs')},
    routes: [
      {
        path: '/docs',
        component: ${creator('/docs-d02', '/docs')},
        routes: [
${[...docs.map((route) => leaf(route.key, route.path, '          ')), ...extra].join(',\n')}
        ]
      }
    ]
  },
${leaf('/login-l01', '/login', '  ')},
${leaf('/-h01', '/', '  ')},
  {
    path: '*',
    component: ComponentCreator('*'),
  },
];
`;
}

/** Chunk name → [module id, chunks its loader fetches]. */
const registry: Record<string, [number, string[]]> = {
  home: [4001, ['401']],
  login: [3001, ['301']],
  blogList: [1001, ['101']],
  docsRoot: [2001, ['201']],
  versionRoot: [2002, ['201']],
  versionMeta: [2003, ['203']],
  docItem: [2004, ['204']],
  introMd: [2005, ['205']],
  layoutMd: [2006, ['209', '206']],
  gitflowMd: [2007, ['209', '207']],
};

const loader = (chunks: string[], moduleId: number): string =>
  chunks.length === 1
    ? `()=>n.e("${chunks[0]}").then(n.bind(n,${moduleId}))`
    : `()=>Promise.all([${chunks.map((chunk) => `n.e("${chunk}")`).join(',')}]).then(n.bind(n,${moduleId}))`;

const html = (title: string, body = '', classes = ''): string =>
  `<!doctype html><html lang=en class="${classes}"><head><title>${title}</title><link rel=stylesheet href=${MINI_CHUNKS.styles}><script src=${MINI_CHUNKS.runtime} defer></script><script src=${MINI_CHUNKS.main} defer></script></head><body><h1>${title}</h1>${body}</body></html>`;

/** A word only the staff-only page has, in its HTML and its Markdown source. */
export const STAFF_TEXT = 'Release branches are cut from develop by the quartermaster.';

/** A doc page as Docusaurus renders it: its id in the root's classes, its text in an article. */
const docPage = (id: string, title: string, text: string): string =>
  html(title, `<article><p>${text}</p></article>`, `docs-wrapper plugin-docs docs-doc-page docs-doc-id-${id}`);

/** The docs plugin's metadata of the three doc pages and their sources, beside `.docusaurus` as in a site. */
const DOC_SOURCES = [
  { id: 'intro', permalink: '/docs/', title: 'Getting Started', text: 'Open to everyone.' },
  { id: 'layout-engine/README', permalink: '/docs/layout-engine/', title: 'Layout Engine', text: 'Rails and grids.' },
  {
    id: 'frontend-guidelines/GitFlow',
    permalink: '/docs/frontend-guidelines/GitFlow',
    title: 'GitFlow',
    text: STAFF_TEXT,
  },
];

/**
 * Writes the miniature build into a fresh folder; returns its `build` and `.docusaurus`
 * folders and its files as URL paths. `extraPages` adds doc routes (and their HTML) that no chunk is special about.
 */
export async function makeMiniBuild(
  extraPages: string[] = [],
): Promise<{ buildDir: string; generatedDir: string; files: string[] }> {
  const root = await mkdtemp(join(tmpdir(), 'portal-mini-build-'));
  const buildDir = join(root, 'build');
  const generatedDir = join(root, '.docusaurus');
  const write = async (path: string, content: string): Promise<void> => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  };
  const chunkOf = (id: string): string =>
    Object.values(MINI_CHUNKS).find((url) => url.startsWith(`/assets/js/${id}.`)) ?? '';

  const mainJs =
    'var r={' +
    Object.entries(registry)
      .map(([name, [moduleId, chunks]]) => `"${name}":[${loader(chunks, moduleId)},"@site/${name}",${moduleId}]`)
      .join(',') +
    '};var nf={loader:()=>n.e("499").then(n.bind(n,4999)),modules:["@theme/NotFound"]};';
  const files: Record<string, string> = {
    [MINI_CHUNKS.main]: mainJs,
    [MINI_CHUNKS.runtime]: 'self.runtime=1;',
    [MINI_CHUNKS.styles]: 'body{margin:0}',
    [MINI_CHUNKS.home]: 'home();',
    [MINI_CHUNKS.login]: 'login(()=>n.e("302"));',
    [MINI_CHUNKS.sdk]: 'firebase();',
    [MINI_CHUNKS.blogList]: 'blogList();',
    [MINI_CHUNKS.docsRoot]: 'docsRoot();',
    [MINI_CHUNKS.versionMeta]: 'versionMeta();',
    [MINI_CHUNKS.docItem]: 'docItem();',
    [MINI_CHUNKS.introMd]: 'intro();',
    [MINI_CHUNKS.layoutMd]: 'layout();',
    [MINI_CHUNKS.gitflowMd]: `gitflow(()=>n.e("208"));var img=n.p+"assets/images/diagram-ab12cd34.png";`,
    [MINI_CHUNKS.lazy]: 'lazy();',
    [MINI_CHUNKS.shared]: 'shared();',
    [MINI_CHUNKS.notFound]: 'notFound();',
    [MINI_CHUNKS.diagram]: 'PNG',
    '/index.html': html('Home', '<img src=/img/logo.svg alt="">'),
    '/404.html': html('Page Not Found'),
    '/login/index.html': html('Sign in'),
    '/docs/index.html': docPage('intro', 'Getting Started', 'Open to everyone.'),
    '/docs/layout-engine/index.html': docPage('layout-engine/README', 'Layout Engine', 'Rails and grids.'),
    '/docs/frontend-guidelines/GitFlow/index.html': docPage('frontend-guidelines/GitFlow', 'GitFlow', STAFF_TEXT),
    '/blog/index.html': html('Blog'),
    '/blog/rss.xml': '<rss/>',
    '/img/logo.svg': '<svg/>',
    '/img/unused.png': 'PNG',
    '/robots.txt': 'User-agent: *',
    '/sitemap.xml': '<urlset/>',
    '/search/public/pagefind.js': 'pf();',
    '/search/layout/pagefind-entry.json': '{}',
    '/search/internal/pagefind-entry.json': '{}',
    ...Object.fromEntries(extraPages.map((path) => [`${path.replace(/\/?$/, '/')}index.html`, html(path)])),
  };
  for (const [url, content] of Object.entries(files)) await write(join(buildDir, url), content);

  const chunkIds = ['101', '201', '203', '204', '205', '206', '207', '208', '209', '301', '302', '401', '499'];
  const clientManifest = {
    entrypoints: ['main'],
    origins: {},
    assets: Object.fromEntries(chunkIds.map((id) => [id, { js: [{ file: chunkOf(id).slice(1) }] }])),
  };
  const routesChunkNames = Object.fromEntries([
    ...routes.map((route) => [route.key, route.names]),
    ...extraPages.map((path, index) => [`${path}-x${index}`, { __comp: 'docItem' }]),
  ]);
  await write(join(generatedDir, 'routes.js'), routesJs(extraPages));
  await write(join(generatedDir, 'routesChunkNames.json'), JSON.stringify(routesChunkNames));
  await write(join(generatedDir, 'client-manifest.json'), JSON.stringify(clientManifest));
  await write(
    join(generatedDir, 'registry.js'),
    `export default {\n${Object.keys(registry)
      .map(
        (name) =>
          `  "${name}": [() => import(/* webpackChunkName: "${name}" */ "@site/${name}"), "@site/${name}", require.resolveWeak("@site/${name}")],`,
      )
      .join('\n')}\n};\n`,
  );
  for (const doc of DOC_SOURCES) {
    await write(join(root, 'docs', `${doc.id}.md`), `---\ntitle: ${doc.title}\n---\n\n${doc.text}\n`);
    await write(
      join(
        generatedDir,
        'docusaurus-plugin-content-docs',
        'default',
        `site-docs-${doc.id.replace(/\W/g, '-')}-md.json`,
      ),
      JSON.stringify({
        permalink: doc.permalink,
        source: `@site/docs/${doc.id}.md`,
        title: doc.title,
        description: `About ${doc.title}.`,
      }),
    );
  }
  return { buildDir, generatedDir, files: Object.keys(files).sort() };
}
